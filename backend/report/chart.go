package report

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/report/fonts"
)

// A chart is laid out once as a scene of primitive shapes in a logical
// pixel space; the HTML report draws the scene as inline SVG and the PDF
// report draws the same scene with the PDF's own vector operators, so
// both stay in step by design and the PDF prints sharp at any size.

// rgba is a colour with alpha.
type rgba struct{ R, G, B, A uint8 }

// Hex is the colour as #rrggbb for SVG attributes.
func (c rgba) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Opacity is the alpha as a fraction for SVG attributes.
func (c rgba) Opacity() string { return fmt.Sprintf("%.3g", float64(c.A)/255) }

var (
	colInk    = rgba{0x22, 0x2b, 0x38, 0xff}
	colMuted  = rgba{0x6b, 0x72, 0x80, 0xff}
	colGrid   = rgba{0xe5, 0xe7, 0xeb, 0xff}
	colTotal  = rgba{0x11, 0x18, 0x27, 0xff}
	colBand   = rgba{0x3b, 0x82, 0xf6, 0x40}
	colAccent = rgba{0x25, 0x63, 0xeb, 0xff}
	palette   = []rgba{
		{0xf5, 0x9e, 0x0b, 0xff}, {0x25, 0x63, 0xeb, 0xff}, {0x10, 0xb9, 0x81, 0xff}, {0xdc, 0x26, 0x26, 0xff},
		{0x8b, 0x5c, 0xf6, 0xff}, {0x06, 0xb6, 0xd4, 0xff}, {0xec, 0x48, 0x99, 0xff}, {0x84, 0xcc, 0x16, 0xff},
	}
)

// Text anchors, as SVG names them.
const (
	anchorStart  = "start"
	anchorMiddle = "middle"
	anchorEnd    = "end"
)

// fontSize is the chart text's size in the scene's pixels. Text is
// measured with the report font's metrics (package fonts): the PDF draws
// it in that font, the HTML asks for it first.
const fontSize = 12.0

// textWidth is the width of s in scene pixels.
func textWidth(s string, bold bool) float64 { return fonts.Width(s, bold) * fontSize }

// fitWidth shortens s at its end, marking the cut with an ellipsis, until
// it is at most w pixels wide.
func fitWidth(s string, w float64, bold bool) string {
	if textWidth(s, bold) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if c := string(r) + "…"; textWidth(c, bold) <= w {
			return c
		}
	}
	return "…"
}

type shapeRect struct {
	X, Y, W, H float64
	Fill       rgba
}

type shapeLine struct {
	Points []pt
	Stroke rgba
	Width  float64
	Dashed bool
}

type shapeArea struct {
	Points []pt
	Fill   rgba
}

type shapeText struct {
	X, Y   float64 // baseline
	Text   string
	Anchor string
	Fill   rgba
	Bold   bool
}

type pt struct{ X, Y float64 }

// scene is one chart as shapes, drawn in this order: areas, rects, lines, texts.
type scene struct {
	Title  string
	Width  float64
	Height float64
	Areas  []shapeArea
	Rects  []shapeRect
	Lines  []shapeLine
	Texts  []shapeText
}

// PointsAttr formats points for an SVG points attribute.
func (l shapeLine) PointsAttr() string { return pointsAttr(l.Points) }

// PointsAttr formats points for an SVG points attribute.
func (a shapeArea) PointsAttr() string { return pointsAttr(a.Points) }

func pointsAttr(ps []pt) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.1f,%.1f", p.X, p.Y)
	}
	return b.String()
}

// series is one line of a line chart.
type series struct {
	Name   string
	Values []float64 // NaN: no data that day
	Color  rgba
	Width  float64
	Dashed bool
}

// band is a shaded interval (the forecast's confidence interval) over the
// points from index From on.
type band struct {
	From         int
	Lower, Upper []float64
}

// bar is one bar of a bar chart.
type bar struct {
	Label string
	Value float64
	Color rgba
}

const (
	chartWidth = 760.0
	lineHeight = 280.0
	barRow     = 22.0
)

// lineScene lays out a line chart of series over the days in labels.
func lineScene(title string, labels []string, ss []series, b *band, money func(float64) string) *scene {
	s := &scene{Title: title, Width: chartWidth, Height: lineHeight}
	left, right, top, bottom := 86.0, 16.0, 44.0, 34.0
	pw, ph := s.Width-left-right, s.Height-top-bottom
	lo, hi := 0.0, 0.0
	for _, se := range ss {
		for i, v := range se.Values {
			if !finite(v) {
				se.Values[i] = math.NaN() // drawn as a gap
				continue
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if b != nil {
		for i := range b.Upper {
			if i >= len(b.Lower) || !finite(b.Lower[i]) || !finite(b.Upper[i]) {
				b = nil // a broken interval is left out rather than drawn wrong
				break
			}
			lo, hi = math.Min(lo, b.Lower[i]), math.Max(hi, b.Upper[i])
		}
	}
	ticks := niceTicks(lo, hi, 5)
	lo, hi = ticks[0], ticks[len(ticks)-1]
	y := func(v float64) float64 { return top + ph - (v-lo)/(hi-lo)*ph }
	n := len(labels)
	x := func(i int) float64 {
		if n <= 1 {
			return left + pw/2
		}
		return left + float64(i)*pw/float64(n-1)
	}
	s.Texts = append(s.Texts, shapeText{X: left, Y: 18, Text: title, Anchor: anchorStart, Fill: colInk, Bold: true})
	for _, t := range ticks {
		s.Rects = append(s.Rects, shapeRect{X: left, Y: y(t), W: pw, H: 1, Fill: colGrid})
		s.Texts = append(s.Texts, shapeText{X: left - 6, Y: y(t) + 4, Text: money(t), Anchor: anchorEnd, Fill: colMuted})
	}
	idx := labelIndexes(n, 6)
	for k, i := range idx {
		// The outer labels hug the plot's edges so they are never clipped.
		anchor := anchorMiddle
		switch {
		case len(idx) > 1 && k == 0:
			anchor = anchorStart
		case len(idx) > 1 && k == len(idx)-1:
			anchor = anchorEnd
		}
		s.Texts = append(s.Texts, shapeText{X: x(i), Y: s.Height - 12, Text: labels[i], Anchor: anchor, Fill: colMuted})
	}
	if b != nil && len(b.Upper) > 0 {
		var poly []pt
		for i, v := range b.Upper {
			poly = append(poly, pt{x(b.From + i), y(v)})
		}
		for i := len(b.Lower) - 1; i >= 0; i-- {
			poly = append(poly, pt{x(b.From + i), y(b.Lower[i])})
		}
		s.Areas = append(s.Areas, shapeArea{Points: poly, Fill: colBand})
	}
	lx := left + pw
	for i := len(ss) - 1; i >= 0; i-- {
		se := ss[i]
		// A gap (NaN) ends a polyline so missing days are not drawn as data.
		var cur []pt
		flush := func() {
			if len(cur) > 0 {
				s.Lines = append(s.Lines, shapeLine{Points: cur, Stroke: se.Color, Width: se.Width, Dashed: se.Dashed})
			}
			cur = nil
		}
		for j, v := range se.Values {
			if math.IsNaN(v) {
				flush()
				continue
			}
			cur = append(cur, pt{x(j), y(v)})
		}
		flush()
		name := fitWidth(se.Name, 170, false) // room for a dated name: "forecast from 2026-11-27"
		lx -= textWidth(name, false) + 4
		s.Texts = append(s.Texts, shapeText{X: lx, Y: 34, Text: name, Anchor: anchorStart, Fill: colInk})
		lx -= 16
		s.Rects = append(s.Rects, shapeRect{X: lx, Y: 25, W: 12, H: 10, Fill: se.Color})
		lx -= 10
	}
	return s
}

// barScene lays out a horizontal bar chart, one row per bar.
func barScene(title string, bars []bar, money func(float64) string) *scene {
	s := &scene{Title: title, Width: chartWidth}
	top, labelW, valueW := 34.0, 230.0, 110.0
	s.Height = top + float64(len(bars))*barRow + 10
	s.Texts = append(s.Texts, shapeText{X: 8, Y: 18, Text: title, Anchor: anchorStart, Fill: colInk, Bold: true})
	hi := 0.0
	for i := range bars {
		if !finite(bars[i].Value) {
			bars[i].Value = 0
		}
		hi = math.Max(hi, math.Abs(bars[i].Value))
	}
	pw := s.Width - labelW - valueW - 16
	for i, b := range bars {
		yy := top + float64(i)*barRow
		s.Texts = append(s.Texts, shapeText{X: labelW - 8, Y: yy + 15, Text: fitWidth(b.Label, labelW-16, false), Anchor: anchorEnd, Fill: colInk})
		w := 0.0
		if hi > 0 {
			w = math.Abs(b.Value) / hi * pw
		}
		s.Rects = append(s.Rects, shapeRect{X: labelW, Y: yy + 3, W: math.Max(w, 1), H: barRow - 6, Fill: b.Color})
		s.Texts = append(s.Texts, shapeText{X: labelW + w + 6, Y: yy + 15, Text: money(b.Value), Anchor: anchorStart, Fill: colMuted})
	}
	return s
}

// niceTicks returns about n evenly spaced round values covering lo..hi.
func niceTicks(lo, hi float64, n int) []float64 {
	if !finite(hi - lo) {
		return []float64{0, 1}
	}
	if hi-lo <= 0 {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag * 10
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*mag {
			step = m * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var out []float64
	// The cap guards against a step lost in float precision.
	for k := 0; k < 4*n; k++ {
		v := start + float64(k)*step
		if v >= hi+step*0.999 {
			break
		}
		out = append(out, v)
	}
	if len(out) < 2 {
		out = append(out, start+step)
	}
	return out
}

// labelIndexes picks at most k evenly spread indexes of n, first and last included.
func labelIndexes(n, k int) []int {
	if n == 0 {
		return nil
	}
	if n <= k {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, 0, k)
	for j := 0; j < k; j++ {
		out = append(out, int(math.Round(float64(j)*float64(n-1)/float64(k-1))))
	}
	return out
}

// clip shortens s to at most n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
