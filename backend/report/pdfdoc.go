package report

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/phpdave11/gofpdf"

	"github.com/costpilot/costpilot/backend/report/fonts"
)

// Page geometry in millimetres (A4 portrait) and type sizes in points.
const (
	ptMM         = 25.4 / 72
	pageW        = 210.0
	pageH        = 297.0
	marginX      = 14.0
	marginTop    = 14.0
	marginBottom = 16.0
	usableW      = pageW - 2*marginX
	pageBottom   = pageH - marginBottom

	bodySize    = 9.0
	smallSize   = 7.5
	tableSize   = 7.5
	headingSize = 13.0
	subSize     = 10.0
	footerSize  = 7.0

	cellPadX     = 1.3
	cellPadY     = 1.1
	maxCellLines = 12 // a cell's text is cut after this many lines
	cardsPerRow  = 3
	cardGap      = 3.0
	cardHeight   = 21.0
	headingH     = 11.0
	subheadingH  = 7.5
)

var (
	pdfInk      = rgba{0x22, 0x2b, 0x38, 0xff}
	pdfMuted    = rgba{0x6b, 0x72, 0x80, 0xff}
	pdfAccent   = rgba{0x25, 0x63, 0xeb, 0xff}
	pdfHeaderBg = rgba{0xe2, 0xe8, 0xf0, 0xff}
	pdfStripe   = rgba{0xf8, 0xfa, 0xfc, 0xff}
	pdfCardBg   = rgba{0xf1, 0xf5, 0xf9, 0xff}
	pdfLine     = rgba{0xcb, 0xd5, 0xe1, 0xff}
	pdfWhite    = rgba{0xff, 0xff, 0xff, 0xff}
)

// pdfDoc is a document being laid out: the writer and the cursor's
// height on the current page.
type pdfDoc struct {
	f      *gofpdf.Fpdf
	y      float64
	loaded map[string]bool // faces registered with the writer
	// fill is the fill colour last set (fillSet false: none yet on this
	// page's stream), so it is written only when it changes.
	fill    rgba
	fillSet bool
}

// leading is the baseline-to-baseline distance of a size in mm.
func leading(size float64) float64 { return size * ptMM * 1.3 }

func (d *pdfDoc) newPage() {
	d.f.AddPage()
	d.y = marginTop
	d.fillSet = false
}

// ensure starts a new page unless h mm fit below the cursor. At the top
// of a page it does nothing: what does not fit there fits nowhere.
func (d *pdfDoc) ensure(h float64) {
	if d.y+h > pageBottom && d.y > marginTop+0.01 {
		d.newPage()
	}
}

// heading is a section title kept on the page with the next mm of what
// follows, so no heading ends a page.
func (d *pdfDoc) heading(s string, next float64) {
	d.ensure(headingH + next)
	if d.y > marginTop+0.01 {
		d.y += 3
	}
	d.text(marginX, d.y+5, s, headingSize, true, pdfInk)
	d.y += 6.5
	d.fillRect(marginX, d.y, usableW, 0.3, pdfLine)
	d.y += 2.5
}

// subheading is a smaller title, kept with the next mm too.
func (d *pdfDoc) subheading(s string, next float64) {
	d.ensure(subheadingH + next)
	d.text(marginX, d.y+4.5, s, subSize, true, pdfInk)
	d.y += subheadingH
}

// paragraph is wrapped text across the page.
func (d *pdfDoc) paragraph(s string, size float64, c rgba) {
	lines := d.wrap(s, usableW, size, false, maxCellLines)
	lh := leading(size)
	d.ensure(float64(len(lines)) * lh)
	for _, l := range lines {
		d.text(marginX, d.y+size*ptMM, l, size, false, c)
		d.y += lh
	}
	d.y += 1.5
}

// cards are summary figures, three to a row.
func (d *pdfDoc) cards(cs []card) {
	w := (usableW - cardGap*(cardsPerRow-1)) / cardsPerRow
	for i := 0; i < len(cs); i += cardsPerRow {
		d.ensure(cardHeight)
		for j := i; j < i+cardsPerRow && j < len(cs); j++ {
			x := marginX + float64(j-i)*(w+cardGap)
			d.f.SetLineWidth(0.2)
			d.setDraw(pdfLine)
			d.setFill(pdfCardBg)
			d.f.Rect(x, d.y, w, cardHeight-cardGap, "FD")
			c := cs[j]
			d.text(x+2.5, d.y+4.5, d.fitEnd(strings.ToUpper(c.Label), w-5, 6.5, true), 6.5, true, pdfMuted)
			d.text(x+2.5, d.y+10.5, d.fitEnd(c.Value, w-5, 12.5, true), 12.5, true, pdfInk)
			for k, l := range d.wrap(c.Note, w-5, 6.5, false, 2) {
				d.text(x+2.5, d.y+14.2+float64(k)*leading(6.5), l, 6.5, false, pdfMuted)
			}
		}
		d.y += cardHeight
	}
	d.y += 1
}

// colWidths spreads the usable width over the columns by their sizes,
// widening any column narrower than its header's longest word (taken
// from the widest others), so no header word is ever broken.
func (d *pdfDoc) colWidths(t table) []float64 {
	sum := 0
	for _, s := range t.Sizes {
		sum += s
	}
	w := make([]float64, len(t.Header))
	need := make([]float64, len(t.Header))
	for i, h := range t.Header {
		if i < len(t.Sizes) && sum > 0 {
			w[i] = usableW * float64(t.Sizes[i]) / float64(sum)
		} else {
			w[i] = usableW / float64(len(w))
		}
		for _, word := range strings.Fields(h) {
			need[i] = max(need[i], d.width(word, tableSize, true)+2*cellPadX+0.5)
		}
	}
	for i := range w {
		short := need[i] - w[i]
		if short <= 0 {
			continue
		}
		w[i] = need[i]
		spare := 0.0
		for j := range w {
			if j != i {
				spare += max(0, w[j]-need[j])
			}
		}
		for j := range w {
			if j != i && spare > 0 {
				w[j] -= short * max(0, w[j]-need[j]) / spare
			}
		}
	}
	return w
}

// rowLayout is a table row broken into lines per cell.
type rowLayout struct {
	cells [][]string
	h     float64
}

func (d *pdfDoc) layoutRow(t table, vals []string, widths []float64, header bool) rowLayout {
	r := rowLayout{cells: make([][]string, len(t.Header))}
	n := 1
	for i := range t.Header {
		v := ""
		if i < len(vals) {
			v = vals[i]
		}
		w := widths[i] - 2*cellPadX
		var lines []string
		switch {
		case header:
			lines = d.wrap(v, w, tableSize, true, 3)
		case t.Kind(i) == colNum:
			lines = []string{d.fitEnd(v, w, tableSize, false)}
		case t.Kind(i) == colID:
			lines = []string{d.fitMiddle(v, w, tableSize, false)}
		default:
			lines = d.wrap(v, w, tableSize, false, maxCellLines)
		}
		r.cells[i] = lines
		n = max(n, len(lines))
	}
	r.h = float64(n)*leading(tableSize) + 2*cellPadY
	return r
}

// tableLead is the height of a table's header and first row (or of its
// "No data" line): what a heading above it is kept with.
func (d *pdfDoc) tableLead(t table) float64 {
	if len(t.Rows) == 0 {
		return leading(bodySize) + 1.5
	}
	w := d.colWidths(t)
	return d.layoutRow(t, t.Header, w, true).h + d.layoutRow(t, t.Rows[0], w, false).h
}

// table draws a table whose rows flow onto new pages, the header row
// repeated at the top of each.
func (d *pdfDoc) table(t table) {
	if len(t.Rows) == 0 {
		d.paragraph("No data.", bodySize, pdfMuted)
		return
	}
	widths := d.colWidths(t)
	hdr := d.layoutRow(t, t.Header, widths, true)
	first := d.layoutRow(t, t.Rows[0], widths, false)
	d.ensure(hdr.h + first.h)
	d.drawRow(t, hdr, widths, true, false)
	for i, vals := range t.Rows {
		r := first
		if i > 0 {
			r = d.layoutRow(t, vals, widths, false)
		}
		if d.y+r.h > pageBottom {
			d.newPage()
			d.drawRow(t, hdr, widths, true, false)
		}
		d.drawRow(t, r, widths, false, i%2 == 1)
	}
	d.y += 3
}

func (d *pdfDoc) drawRow(t table, r rowLayout, widths []float64, header, stripe bool) {
	switch {
	case header:
		d.fillRect(marginX, d.y, usableW, r.h, pdfHeaderBg)
	case stripe:
		d.fillRect(marginX, d.y, usableW, r.h, pdfStripe)
	}
	x := marginX
	lh := leading(tableSize)
	for i, lines := range r.cells {
		for k, l := range lines {
			tx := x + cellPadX
			if t.Kind(i) == colNum {
				tx = x + widths[i] - cellPadX - d.width(l, tableSize, header)
			}
			d.text(tx, d.y+cellPadY+tableSize*ptMM+float64(k)*lh, l, tableSize, header, pdfInk)
		}
		x += widths[i]
	}
	d.y += r.h
	d.fillRect(marginX, d.y-0.15, usableW, 0.15, pdfLine)
}

// chartHeight is the height a chart takes on the page.
func (d *pdfDoc) chartHeight(s *scene) float64 { return usableW*s.Height/s.Width + 3 }

// chart draws a scene with the PDF's vector operators, its text in the
// report font.
func (d *pdfDoc) chart(s *scene) {
	d.ensure(d.chartHeight(s))
	k := usableW / s.Width
	ox, oy := marginX, d.y
	px := func(p pt) gofpdf.PointType { return gofpdf.PointType{X: ox + p.X*k, Y: oy + p.Y*k} }
	for _, a := range s.Areas {
		if len(a.Points) < 3 {
			continue
		}
		pts := make([]gofpdf.PointType, len(a.Points))
		for i, p := range a.Points {
			pts[i] = px(p)
		}
		d.f.SetAlpha(float64(a.Fill.A)/255, "Normal")
		d.setFill(a.Fill)
		d.f.Polygon(pts, "F")
		d.f.SetAlpha(1, "Normal")
	}
	for _, r := range s.Rects {
		d.fillRect(ox+r.X*k, oy+r.Y*k, r.W*k, r.H*k, r.Fill)
	}
	d.f.SetLineJoinStyle("round")
	d.f.SetLineCapStyle("round")
	for _, l := range s.Lines {
		if len(l.Points) == 0 {
			continue
		}
		d.setDraw(l.Stroke)
		d.f.SetLineWidth(math.Max(l.Width, 1) * k)
		if l.Dashed {
			d.f.SetDashPattern([]float64{6 * k, 4 * k}, 0)
		}
		p0 := px(l.Points[0])
		d.f.MoveTo(p0.X, p0.Y)
		if len(l.Points) == 1 {
			d.f.LineTo(p0.X+0.01, p0.Y)
		}
		for _, p := range l.Points[1:] {
			q := px(p)
			d.f.LineTo(q.X, q.Y)
		}
		d.f.DrawPath("D")
		if l.Dashed {
			d.f.SetDashPattern([]float64{}, 0)
		}
	}
	size := fontSize * k / ptMM
	for _, t := range s.Texts {
		x := ox + t.X*k
		switch t.Anchor {
		case anchorMiddle:
			x -= d.width(t.Text, size, t.Bold) / 2
		case anchorEnd:
			x -= d.width(t.Text, size, t.Bold)
		}
		d.text(x, oy+t.Y*k, t.Text, size, t.Bold, t.Fill)
	}
	d.y += d.chartHeight(s)
}

// finish writes "Page N of M" and the footer line on every page, now that
// M is known, and returns the document.
func (d *pdfDoc) finish(footer string) ([]byte, error) {
	n := d.f.PageCount()
	for i := 1; i <= n; i++ {
		d.f.SetPage(i)
		d.fillSet = false
		// The page's stream ends in whatever font the page used last: set a
		// size no text uses so the writer emits the font again.
		d.useFace(fonts.Regular, footerSize-0.5)
		y := pageH - 9
		d.fillRect(marginX, y-4, usableW, 0.2, pdfLine)
		d.text(marginX, y, d.fitEnd(footer, usableW-30, footerSize, false), footerSize, false, pdfMuted)
		p := fmt.Sprintf("Page %d of %d", i, n)
		d.text(pageW-marginX-d.width(p, footerSize, false), y, p, footerSize, false, pdfMuted)
	}
	var b strings.Builder
	if err := d.f.Output(&b); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// useFace selects a face and size, registering the face on first use: a
// report without CJK text does not carry the CJK font.
func (d *pdfDoc) useFace(f fonts.Face, size float64) {
	name := f.Name()
	if !d.loaded[name] {
		d.f.AddUTF8FontFromBytes(name, "", f.Data())
		d.loaded[name] = true
	}
	d.f.SetFont(name, "", size)
}

// text draws s with its baseline at y, each run in the face that has its
// glyphs.
func (d *pdfDoc) text(x, y float64, s string, size float64, bold bool, c rgba) {
	s = clean(s)
	if s == "" {
		return
	}
	d.setFill(pdfWhite) // text colour differs from fill: gofpdf then sets it explicitly
	d.f.SetTextColor(int(c.R), int(c.G), int(c.B))
	for _, r := range fonts.Runs(s, bold) {
		d.useFace(r.Face, size)
		d.f.Text(x, y, r.Text)
		x += d.runWidth(r, size)
	}
}

func (d *pdfDoc) runWidth(r fonts.Run, size float64) float64 {
	w := 0.0
	for _, c := range r.Text {
		w += r.Face.Advance(c)
	}
	return w * size * ptMM
}

// width is the width of s in mm.
func (d *pdfDoc) width(s string, size float64, bold bool) float64 {
	return fonts.Width(s, bold) * size * ptMM
}

// wrap breaks s into lines at most w mm wide, at spaces; a word wider
// than a line (an id, or text without spaces such as Japanese) is broken
// between characters, never hyphenated. At most maxLines lines are kept,
// the last marked with an ellipsis when text was cut.
func (d *pdfDoc) wrap(s string, w, size float64, bold bool, maxLines int) []string {
	s = clean(s)
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		cand := word
		if line != "" {
			cand = line + " " + word
		}
		if d.width(cand, size, bold) <= w {
			line = cand
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		for d.width(word, size, bold) > w {
			head, rest := d.splitAt(word, w, size, bold)
			lines = append(lines, head)
			word = rest
		}
		line = word
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = d.fitEnd(lines[maxLines-1]+" …", w, size, bold)
	}
	return lines
}

// splitAt cuts the longest prefix of word that fits w mm (at least one
// character).
func (d *pdfDoc) splitAt(word string, w, size float64, bold bool) (string, string) {
	acc := 0.0
	for i, r := range word {
		acc += fonts.For(r, bold).Advance(r) * size * ptMM
		if acc > w && i > 0 {
			return word[:i], word[i:]
		}
	}
	return word, ""
}

// fitEnd shortens s at its end, marking the cut with an ellipsis.
func (d *pdfDoc) fitEnd(s string, w, size float64, bold bool) string {
	s = clean(s)
	if d.width(s, size, bold) <= w {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r) // the longest prefix that fits, by bisection
	for lo < hi {
		m := (lo + hi + 1) / 2
		if d.width(string(r[:m])+"…", size, bold) <= w {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return strings.TrimRight(string(r[:lo]), " ") + "…"
}

// fitMiddle shortens s in its middle, where a resource path is least
// telling: the account or project at its start and the name at its end
// stay.
func (d *pdfDoc) fitMiddle(s string, w, size float64, bold bool) string {
	s = clean(s)
	if d.width(s, size, bold) <= w {
		return s
	}
	r := []rune(s)
	cut := func(keep int) string {
		head := (keep + 1) / 3 // a third before, two thirds after: names end paths
		return string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
	}
	lo, hi := 0, len(r)-1
	for lo < hi {
		m := (lo + hi + 1) / 2
		if d.width(cut(m), size, bold) <= w {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return cut(lo)
}

// clean makes billing text safe to set: control characters (a tag value
// may hold newlines) become spaces, invalid UTF-8 the replacement
// character, and the ends are trimmed.
func clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		s = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return ' '
			}
			return r
		}, s)
	}
	return strings.TrimSpace(s)
}

func (d *pdfDoc) fillRect(x, y, w, h float64, c rgba) {
	d.setFill(c)
	d.f.Rect(x, y, w, h, "F")
}

func (d *pdfDoc) setFill(c rgba) {
	if d.fillSet && d.fill == c {
		return
	}
	d.f.SetFillColor(int(c.R), int(c.G), int(c.B))
	d.fill, d.fillSet = c, true
}

func (d *pdfDoc) setDraw(c rgba) { d.f.SetDrawColor(int(c.R), int(c.G), int(c.B)) }
