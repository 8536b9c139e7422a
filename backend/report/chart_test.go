package report

import (
	"bytes"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 1000, []float64{0, 200, 400, 600, 800, 1000}},
		{0, 970, []float64{0, 200, 400, 600, 800, 1000}},
		{-30, 90, []float64{-50, -25, 0, 25, 50, 75, 100}},
		{0, 0, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{0, math.Inf(1), []float64{0, 1}},
	}
	for _, tt := range tests {
		got := niceTicks(tt.lo, tt.hi, 5)
		if len(got) != len(tt.want) {
			t.Errorf("niceTicks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-tt.want[i]) > 1e-9 {
				t.Errorf("niceTicks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
				break
			}
		}
	}
}

func TestFormatMoney(t *testing.T) {
	tests := []struct {
		v    float64
		cur  string
		want string
	}{
		{1234.5, "USD", "$1,234.50"},
		{-1234567.891, "EUR", "-€1,234,567.89"},
		{0.004, "USD", "$0.00"},
		{-0.001, "USD", "$0.00"},
		{999.999, "CHF", "1,000.00 CHF"},
		{12, "", "12.00"},
		{math.NaN(), "USD", "n/a"},
	}
	for _, tt := range tests {
		if got := formatMoney(tt.v, tt.cur); got != tt.want {
			t.Errorf("formatMoney(%v, %q) = %q, want %q", tt.v, tt.cur, got, tt.want)
		}
	}
	if got := formatShort(1234.5, "USD"); got != "$1,234" {
		t.Errorf("formatShort = %q", got)
	}
}

func TestLineSceneGapsAndBadValues(t *testing.T) {
	vals := []float64{1, 2, math.NaN(), 4, math.Inf(1), 6, 7}
	s := lineScene("t", []string{"a", "b", "c", "d", "e", "f", "g"}, []series{{Name: "x", Values: vals, Color: colAccent, Width: 1}}, nil, func(v float64) string { return "" })
	if len(s.Lines) != 3 {
		t.Fatalf("%d polylines, want 3 (gaps at NaN and Inf)", len(s.Lines))
	}
	for _, l := range s.Lines {
		for _, p := range l.Points {
			if !finite(p.X) || !finite(p.Y) || p.Y < 0 || p.Y > s.Height {
				t.Errorf("point %v outside the chart", p)
			}
		}
	}
	// Broken data must still draw, not hang or panic.
	bars := barScene("b", []bar{{Label: "nan", Value: math.NaN()}, {Label: "inf", Value: math.Inf(-1)}}, func(float64) string { return "" })
	if _, err := renderPNG(bars); err != nil {
		t.Fatal(err)
	}
}

func TestRenderPNG(t *testing.T) {
	d := sampleData(model.ReportComprehensive, 5)
	v := buildView(d)
	if len(v.Charts) != 5 {
		t.Fatalf("%d charts, want daily, providers, services, forecast and allocation", len(v.Charts))
	}
	for _, s := range v.Charts {
		b, err := renderPNG(s)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds().Dx() != int(s.Width*pngScale) {
			t.Errorf("%s: width %d", s.Title, img.Bounds().Dx())
		}
		if f := inked(img); f < 0.01 || f > 0.6 {
			t.Errorf("%s: %.3f of pixels inked, want a drawn chart", s.Title, f)
		}
	}
}

func TestViewByType(t *testing.T) {
	tests := []struct {
		typ                          model.ReportType
		services, resources, recRows int
		forecast, allocation         bool
	}{
		{model.ReportComprehensive, 15, 25, 30, true, true},
		{model.ReportSummary, 8, 0, 0, false, false},
		{model.ReportRecommendations, 0, 0, 30, false, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.typ), func(t *testing.T) {
			v := buildView(sampleData(tt.typ, 30))
			if len(v.ServiceRows) != tt.services || len(v.ResourceRows) != tt.resources || len(v.RecRows) != tt.recRows {
				t.Errorf("rows: %d services, %d resources, %d recommendations", len(v.ServiceRows), len(v.ResourceRows), len(v.RecRows))
			}
			if (v.Forecast != nil) != tt.forecast || (v.Allocation != nil) != tt.allocation {
				t.Errorf("forecast %v, allocation %v", v.Forecast != nil, v.Allocation != nil)
			}
			// High priority first, then by savings.
			for i := 1; i < len(v.RecRows); i++ {
				if rank(model.Priority(v.RecRows[i-1][0])) > rank(model.Priority(v.RecRows[i][0])) {
					t.Fatalf("recommendations not sorted by priority at row %d", i)
				}
			}
			if tt.resources > 0 && v.ResourceRows[0][5] != "$1,009.08" {
				t.Errorf("top resource cost %q: resources are not sorted by cost", v.ResourceRows[0][5])
			}
		})
	}
}

func TestPDFText(t *testing.T) {
	tests := map[string]string{
		"plain":          "plain",
		" line\nbreak\t": "line break",
		"café €":         "caf\xe9 \x80",
		"日本":             "??",
	}
	for in, want := range tests {
		if got := pdfText(in); got != want {
			t.Errorf("pdfText(%q) = %q, want %q", in, got, want)
		}
	}
	if !strings.Contains(clip("abcdefghij", 5), "…") || clip("abc", 5) != "abc" {
		t.Errorf("clip")
	}
}
