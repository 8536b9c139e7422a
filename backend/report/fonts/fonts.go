// Package fonts holds the typefaces reports are set in, with their
// metrics. Noto Sans (SIL Open Font License 1.1, OFL.txt) covers Latin,
// Greek and Cyrillic; Droid Sans Fallback (Apache License 2.0,
// LICENSE-Apache-2.0.txt) covers Chinese, Japanese and Korean, which Noto
// Sans lacks. Both are TrueType, which the PDF writer embeds (as subsets);
// the CJK face of Noto is CFF-flavoured OpenType, which it cannot.
package fonts

import (
	"bytes"
	_ "embed"
	"sync"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

var (
	//go:embed NotoSans-Regular.ttf
	notoRegular []byte
	//go:embed NotoSans-Bold.ttf
	notoBold []byte
	//go:embed DroidSansFallbackFull.ttf
	droidFallback []byte
)

// Face is one embedded typeface.
type Face int

// The faces. CJK has no bold: bold CJK text is set in it too.
const (
	Regular Face = iota
	Bold
	CJK
	numFaces
)

// Name is the family name the PDF writer registers the face under.
func (f Face) Name() string {
	switch f {
	case Bold:
		return "NotoSans-Bold"
	case CJK:
		return "DroidSansFallback"
	}
	return "NotoSans"
}

// Data is a copy of the face's TrueType file: the PDF writer pads the
// font's tables by appending to slices of the bytes it is given, which
// writes into the shared embedded file while another report reads it.
func (f Face) Data() []byte {
	return bytes.Clone(f.embedded())
}

func (f Face) embedded() []byte {
	switch f {
	case Bold:
		return notoBold
	case CJK:
		return droidFallback
	}
	return notoRegular
}

// metrics are a face's advances for the Basic Multilingual Plane, read
// once: measuring text is on the path of every table cell.
type metrics struct {
	font    *sfnt.Font
	unitsEm float64
	advance []uint16 // font units per rune; 0 with covered unset
	covered []uint64 // bitset of runes with a glyph
	mu      sync.Mutex
	buf     sfnt.Buffer // for runes beyond the BMP
}

const bmp = 0x10000

var (
	once  [numFaces]sync.Once
	faces [numFaces]*metrics
)

func load(f Face) *metrics {
	once[f].Do(func() {
		ft, err := sfnt.Parse(f.embedded())
		if err != nil {
			// The files are embedded and tested: this cannot happen at run time.
			panic("fonts: parse " + f.Name() + ": " + err.Error())
		}
		m := &metrics{font: ft, unitsEm: float64(ft.UnitsPerEm()), advance: make([]uint16, bmp), covered: make([]uint64, bmp/64)}
		var b sfnt.Buffer
		ppem := fixed.Int26_6(ft.UnitsPerEm())
		for r := rune(0); r < bmp; r++ {
			g, err := ft.GlyphIndex(&b, r)
			if err != nil || g == 0 {
				continue
			}
			adv, err := ft.GlyphAdvance(&b, g, ppem, 0)
			if err != nil {
				continue
			}
			m.advance[r] = uint16(adv)
			m.covered[r/64] |= 1 << (r % 64)
		}
		faces[f] = m
	})
	return faces[f]
}

// Covers reports whether the face has a glyph for r.
func (f Face) Covers(r rune) bool {
	m := load(f)
	if r >= 0 && r < bmp {
		return m.covered[r/64]&(1<<(r%64)) != 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.font.GlyphIndex(&m.buf, r)
	return err == nil && g != 0
}

// Advance is the width of r in ems (0 when the face lacks it).
func (f Face) Advance(r rune) float64 {
	m := load(f)
	if r >= 0 && r < bmp {
		return float64(m.advance[r]) / m.unitsEm
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	g, err := m.font.GlyphIndex(&m.buf, r)
	if err != nil || g == 0 {
		return 0
	}
	adv, err := m.font.GlyphAdvance(&m.buf, g, fixed.Int26_6(m.font.UnitsPerEm()), 0)
	if err != nil {
		return 0
	}
	return float64(adv) / m.unitsEm
}

// For is the face r is set in: Noto Sans (bold or not) when it has the
// glyph, else the CJK face when that has it, else Noto Sans, whose empty
// box then shows the reader that a character is missing.
func For(r rune, bold bool) Face {
	base := Regular
	if bold {
		base = Bold
	}
	if base.Covers(r) || !CJK.Covers(r) {
		return base
	}
	return CJK
}

// Run is a stretch of text set in one face.
type Run struct {
	Face Face
	Text string
}

// Runs splits s into runs by the face each rune is set in. Spaces and
// punctuation that both faces have stay in the run around them, so a
// Japanese name is not cut into pieces at each space.
func Runs(s string, bold bool) []Run {
	var out []Run
	start := 0
	cur := Face(-1)
	for i, r := range s {
		f := For(r, bold)
		if cur >= 0 && f != cur && (r == ' ' || r == '-' || r == '_') && cur.Covers(r) {
			f = cur
		}
		if f != cur {
			if cur >= 0 {
				out = append(out, Run{cur, s[start:i]})
			}
			cur, start = f, i
		}
	}
	if cur >= 0 {
		out = append(out, Run{cur, s[start:]})
	}
	return out
}

// Width is the width of s in ems, each rune measured in its face.
func Width(s string, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		w += For(r, bold).Advance(r)
	}
	return w
}
