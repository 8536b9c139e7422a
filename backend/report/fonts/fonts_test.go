package fonts

import (
	"bytes"
	"testing"
	"time"
)

func TestCoverage(t *testing.T) {
	tests := []struct {
		name string
		r    rune
		face Face
	}{
		{"latin", 'A', Regular},
		{"euro", '€', Regular},
		{"greek", 'λ', Regular},
		{"cyrillic", 'Ж', Regular},
		{"ellipsis", '…', Regular},
		{"kanji", '東', CJK},
		{"katakana", 'サ', CJK},
		{"simplified chinese", '费', CJK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := For(tt.r, false); got != tt.face {
				t.Errorf("For(%q) = %s, want %s", tt.r, got.Name(), tt.face.Name())
			}
			if a := For(tt.r, false).Advance(tt.r); a <= 0 || a > 1.5 {
				t.Errorf("advance of %q = %v em", tt.r, a)
			}
		})
	}
	if For('A', true) != Bold || Bold.Advance('W') <= Regular.Advance('i') {
		t.Errorf("bold face or its metrics are wrong")
	}
}

func TestRuns(t *testing.T) {
	runs := Runs("web-サーバー 東京 prod Ελλάδα", false)
	var got []string
	for _, r := range runs {
		got = append(got, r.Face.Name()+":"+r.Text)
	}
	want := []string{"NotoSans:web-", "DroidSansFallback:サーバー 東京 ", "NotoSans:prod Ελλάδα"}
	if len(got) != len(want) {
		t.Fatalf("runs %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("run %d = %q, want %q", i, got[i], want[i])
		}
	}
	if w := Width("東京", false); w < 1.8 || w > 2.2 {
		t.Errorf("two ideographs are %v em wide, want about 2", w)
	}
}

// TestLoadTime keeps the one-off metrics read cheap enough for the first
// report after start.
func TestLoadTime(t *testing.T) {
	start := time.Now()
	for f := Regular; f < numFaces; f++ {
		f.Covers('a')
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("reading the metrics took %s", d)
	}
}

// The PDF writer appends padding to slices of the font it is given; a
// shared slice would let one report write into the bytes another reads.
func TestDataIsACopy(t *testing.T) {
	for f := Face(0); f < numFaces; f++ {
		a := f.Data()
		a[0] ^= 0xff
		if b := f.Data(); bytes.Equal(a[:1], b[:1]) || &a[0] == &b[0] {
			t.Errorf("%s: Data shares its bytes between callers", f.Name())
		}
	}
}
