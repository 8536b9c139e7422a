package report

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"sort"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// pngScale is the device pixels per logical pixel: charts go into the PDF at
// about 190 mm wide, so twice the logical size keeps them sharp in print.
const pngScale = 2

// renderPNG rasterises a scene: the PDF cannot take SVG, and drawing with
// the standard library keeps the binary free of C and of a browser.
func renderPNG(s *scene) ([]byte, error) {
	w, h := int(math.Ceil(s.Width*pngScale)), int(math.Ceil(s.Height*pngScale))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	// White background: fill one row, then copy it (cheap even under -race).
	row := img.Pix[:img.Stride]
	for i := range row {
		row[i] = 0xff
	}
	for y := 1; y < h; y++ {
		copy(img.Pix[y*img.Stride:(y+1)*img.Stride], row)
	}
	for _, a := range s.Areas {
		fillPolygon(img, a.Points, a.Fill)
	}
	for _, r := range s.Rects {
		fillRect(img, r.X*pngScale, r.Y*pngScale, (r.X+r.W)*pngScale, (r.Y+r.H)*pngScale, r.Fill)
	}
	for _, l := range s.Lines {
		strokeLine(img, l)
	}
	for _, t := range s.Texts {
		drawText(img, t)
	}
	var buf bytes.Buffer
	// The PDF writer re-compresses the pixels anyway: favour speed here.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// blend paints c over the pixel at x, y with coverage cov (0..1).
func blend(img *image.RGBA, x, y int, c rgba, cov float64) {
	if !(image.Point{x, y}.In(img.Rect)) {
		return
	}
	a := float64(c.A) / 255 * cov
	if a <= 0 {
		return
	}
	i := img.PixOffset(x, y)
	p := img.Pix[i : i+4 : i+4]
	p[0] = uint8(float64(p[0])*(1-a) + float64(c.R)*a + 0.5)
	p[1] = uint8(float64(p[1])*(1-a) + float64(c.G)*a + 0.5)
	p[2] = uint8(float64(p[2])*(1-a) + float64(c.B)*a + 0.5)
	p[3] = 0xff
}

// clampSpan turns a float pixel span into integer bounds inside [0, n],
// so a stray huge or non-finite coordinate cannot make a loop run wild.
func clampSpan(a, b float64, n int) (int, int) {
	if !finite(a) || !finite(b) {
		return 0, 0
	}
	lo := int(math.Max(0, math.Min(float64(n), math.Floor(a))))
	hi := int(math.Max(0, math.Min(float64(n), math.Ceil(b))))
	return lo, hi
}

func fillRect(img *image.RGBA, x0, y0, x1, y1 float64, c rgba) {
	xa, xb := clampSpan(x0, x1, img.Rect.Dx())
	ya, yb := clampSpan(y0, y1, img.Rect.Dy())
	for y := ya; y < yb; y++ {
		for x := xa; x < xb; x++ {
			blend(img, x, y, c, 1)
		}
	}
}

// strokeLine paints each segment as a capsule: every pixel in the
// segment's box gets coverage from its distance to the segment, which
// anti-aliases the edges. Dashes follow the length along the polyline.
func strokeLine(img *image.RGBA, l shapeLine) {
	r := math.Max(l.Width, 1) * pngScale / 2
	c := rgba{l.Stroke.R, l.Stroke.G, l.Stroke.B, 0xff}
	run := 0.0 // length drawn before this segment, for dashes
	for i := 1; i < len(l.Points); i++ {
		ax, ay := l.Points[i-1].X*pngScale, l.Points[i-1].Y*pngScale
		bx, by := l.Points[i].X*pngScale, l.Points[i].Y*pngScale
		dx, dy := bx-ax, by-ay
		seg := math.Hypot(dx, dy)
		x0, x1 := clampSpan(math.Min(ax, bx)-r-1, math.Max(ax, bx)+r+1, img.Rect.Dx())
		y0, y1 := clampSpan(math.Min(ay, by)-r-1, math.Max(ay, by)+r+1, img.Rect.Dy())
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				px, py := float64(x)+0.5, float64(y)+0.5
				t := 0.0
				if seg > 0 {
					t = math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/(seg*seg)))
				}
				if l.Dashed && math.Mod(run+t*seg, 10*pngScale) > 6*pngScale {
					continue
				}
				d := math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
				if cov := math.Min(1, r+0.5-d); cov > 0 {
					blend(img, x, y, c, cov)
				}
			}
		}
		run += seg
	}
}

// fillPolygon fills by scanline with the even-odd rule.
func fillPolygon(img *image.RGBA, ps []pt, c rgba) {
	if len(ps) < 3 {
		return
	}
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, p := range ps {
		minY, maxY = math.Min(minY, p.Y*pngScale), math.Max(maxY, p.Y*pngScale)
	}
	ya, yb := clampSpan(minY, maxY+1, img.Rect.Dy())
	for y := ya; y < yb; y++ {
		fy := float64(y) + 0.5
		var xs []float64
		for i := range ps {
			a, b := ps[i], ps[(i+1)%len(ps)]
			ay, by := a.Y*pngScale, b.Y*pngScale
			if (ay <= fy) != (by <= fy) {
				xs = append(xs, a.X*pngScale+(fy-ay)/(by-ay)*(b.X-a.X)*pngScale)
			}
		}
		sort.Float64s(xs)
		for i := 0; i+1 < len(xs); i += 2 {
			xa, xb := clampSpan(math.Round(xs[i]), math.Round(xs[i+1]), img.Rect.Dx())
			for x := xa; x < xb; x++ {
				blend(img, x, y, c, 1)
			}
		}
	}
}

// drawText draws with the 7x13 bitmap font at 1x into a mask, then scales
// the mask up so text matches the layout's logical metrics.
func drawText(img *image.RGBA, t shapeText) {
	s := asciiOnly(t.Text)
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return
	}
	w := float64(n) * charWidth
	x := t.X
	switch t.Anchor {
	case anchorMiddle:
		x -= w / 2
	case anchorEnd:
		x -= w
	}
	mask := image.NewAlpha(image.Rect(0, 0, n*7+1, 13))
	d := font.Drawer{Dst: mask, Src: image.NewUniform(color.Alpha{A: 0xff}), Face: basicfont.Face7x13, Dot: fixed.P(0, 10)}
	d.DrawString(s)
	if t.Bold {
		d.Dot = fixed.P(1, 10)
		d.DrawString(s)
	}
	ox, oy := int(math.Round(x*pngScale)), int(math.Round((t.Y-10)*pngScale))
	for my := 0; my < 13; my++ {
		for mx := 0; mx < mask.Rect.Dx(); mx++ {
			a := mask.AlphaAt(mx, my).A
			if a == 0 {
				continue
			}
			for dy := 0; dy < pngScale; dy++ {
				for dx := 0; dx < pngScale; dx++ {
					blend(img, ox+mx*pngScale+dx, oy+my*pngScale+dy, t.Fill, float64(a)/255)
				}
			}
		}
	}
}

// asciiOnly replaces what the bitmap font cannot draw: the clip ellipsis
// becomes a dot, anything else outside printable ASCII a question mark.
func asciiOnly(s string) string {
	b := []rune(s)
	for i, r := range b {
		switch {
		case r == '…':
			b[i] = '.'
		case r < 0x20 || r > 0x7e:
			b[i] = '?'
		}
	}
	return string(b)
}
