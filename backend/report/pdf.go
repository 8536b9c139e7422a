package report

import (
	"strings"
	"unicode"

	"golang.org/x/text/encoding/charmap"

	"github.com/johnfercher/maroto/v2"
	"github.com/johnfercher/maroto/v2/pkg/components/col"
	"github.com/johnfercher/maroto/v2/pkg/components/image"
	"github.com/johnfercher/maroto/v2/pkg/components/page"
	"github.com/johnfercher/maroto/v2/pkg/components/row"
	"github.com/johnfercher/maroto/v2/pkg/components/text"
	"github.com/johnfercher/maroto/v2/pkg/config"
	"github.com/johnfercher/maroto/v2/pkg/consts/align"
	"github.com/johnfercher/maroto/v2/pkg/consts/border"
	"github.com/johnfercher/maroto/v2/pkg/consts/breakline"
	"github.com/johnfercher/maroto/v2/pkg/consts/extension"
	"github.com/johnfercher/maroto/v2/pkg/consts/fontstyle"
	"github.com/johnfercher/maroto/v2/pkg/consts/pagesize"
	"github.com/johnfercher/maroto/v2/pkg/core"
	"github.com/johnfercher/maroto/v2/pkg/props"
)

// pdfFont names the Helvetica core font. maroto re-parses gofpdf's
// code-page table for every text drawn in a family it spells "helvetica"
// (seconds for a long table); gofpdf itself ignores the case of the name. So
// the capitalised spelling, with the text encoded once by pdfText, gives the
// same output without that cost.
const pdfFont = "Helvetica"

// Page geometry in millimetres (A4 portrait).
const (
	pdfMargin     = 12.0
	pdfPageWidth  = 210.0
	pdfUsable     = pdfPageWidth - 2*pdfMargin
	cardsPerRow   = 4
	pdfGrid       = 24
	pdfTableFont  = 7.5
	pdfHeaderFont = 7.5
)

var (
	pdfInk      = &props.Color{Red: 0x22, Green: 0x2b, Blue: 0x38}
	pdfMuted    = &props.Color{Red: 0x6b, Green: 0x72, Blue: 0x80}
	pdfAccent   = &props.Color{Red: 0x25, Green: 0x63, Blue: 0xeb}
	pdfHeaderBg = &props.Color{Red: 0xe2, Green: 0xe8, Blue: 0xf0}
	pdfStripe   = &props.Color{Red: 0xf8, Green: 0xfa, Blue: 0xfc}
	pdfCardBg   = &props.Color{Red: 0xf1, Green: 0xf5, Blue: 0xf9}
	pdfLine     = &props.Color{Red: 0xcb, Green: 0xd5, Blue: 0xe1}
)

// renderPDF lays the view out with maroto: a title page, then summary
// cards, charts as PNG images and tables whose rows flow onto new pages.
// Every page carries "Page N of M".
func renderPDF(d Data) ([]byte, error) {
	v := buildView(d)
	cfg := config.NewBuilder().
		WithPageSize(pagesize.A4).
		WithMaxGridSize(pdfGrid).
		WithLeftMargin(pdfMargin).WithRightMargin(pdfMargin).WithTopMargin(pdfMargin).WithBottomMargin(pdfMargin).
		WithDefaultFont(&props.Font{Family: pdfFont, Size: 9, Color: pdfInk}).
		WithPageNumber(props.PageNumber{Family: pdfFont, Pattern: "Page {current} of {total}", Place: props.RightBottom, Size: 8, Color: pdfMuted}).
		WithTitle(v.Title, true).
		WithCreator("costpilot", true).
		WithCreationDate(d.GeneratedAt).
		WithCompression(true).
		Build()
	m := maroto.New(cfg)

	m.AddPages(page.New().Add(titleRows(v)...))

	var rows []core.Row
	rows = append(rows, heading(v.Title)...)
	rows = append(rows, cardRows(v.Cards)...)
	for _, s := range v.Charts {
		png, err := renderPNG(s)
		if err != nil {
			return nil, err
		}
		rows = append(rows, image.NewFromBytesRow(pdfUsable*s.Height/s.Width, png, extension.Png, props.Rect{Center: true, Percent: 100}))
		rows = append(rows, spacer(3))
	}
	if v.ShowProviders {
		rows = append(rows, heading("Providers")...)
		rows = append(rows, tableRows(v.ProviderTable())...)
	}
	if v.ShowServices {
		rows = append(rows, heading("Top services")...)
		rows = append(rows, tableRows(v.ServiceTable())...)
	}
	if v.ShowResources {
		rows = append(rows, heading("Top resources")...)
		rows = append(rows, tableRows(v.ResourceTable())...)
	}
	if v.ShowRecs {
		rows = append(rows, heading("Recommendations")...)
		rows = append(rows, paragraph("Potential savings: "+v.RecTotal+" per month."))
		rows = append(rows, tableRows(v.RecTable())...)
	}
	if f := v.Forecast; f != nil {
		rows = append(rows, heading("Forecast")...)
		cards := append([]card{{"Forecast", f.Total, "next " + f.Period}, {"Confidence interval", f.Interval, f.Model}}, f.Impact...)
		rows = append(rows, cardRows(cards)...)
		rows = append(rows, tableRows(f.Table())...)
	}
	if a := v.Allocation; a != nil {
		rows = append(rows, heading("Cost allocation")...)
		rows = append(rows, paragraph("Method "+a.Method+" · total "+a.Total+" · shared "+a.Shared+" · unallocated "+a.Unallocated))
		rows = append(rows, subheading("By department"), spacer(1))
		rows = append(rows, tableRows(a.DepartmentTable())...)
		rows = append(rows, subheading("By project"), spacer(1))
		rows = append(rows, tableRows(a.ProjectTable())...)
		rows = append(rows, subheading("Matched rules"), spacer(1))
		rows = append(rows, tableRows(a.MatchedTable())...)
	}
	m.AddPages(page.New().Add(rows...))

	doc, err := m.Generate()
	if err != nil {
		return nil, err
	}
	return doc.GetBytes(), nil
}

func titleRows(v *view) []core.Row {
	big := props.Text{Size: 30, Style: fontstyle.Bold, Color: pdfAccent, Align: align.Left}
	sub := props.Text{Size: 18, Style: fontstyle.Bold, Align: align.Left}
	meta := props.Text{Size: 11, Color: pdfMuted, Align: align.Left, Bottom: 2, BreakLineStrategy: breakline.DashStrategy}
	rows := []core.Row{
		spacer(70),
		text.NewRow(16, "costpilot", big),
		text.NewRow(12, pdfText(strings.TrimPrefix(v.Title, "costpilot ")), sub),
		spacer(6),
		row.New(0.6).WithStyle(&props.Cell{BackgroundColor: pdfAccent}),
		spacer(6),
		text.NewAutoRow("Period: "+pdfText(v.Period), meta),
		text.NewAutoRow("Generated: "+pdfText(v.Generated), meta),
	}
	if v.Providers != "" {
		rows = append(rows, text.NewAutoRow("Providers: "+pdfText(v.Providers), meta))
	}
	if v.Currency != "" {
		line := "Amounts in " + pdfText(v.Currency)
		if v.Metric != "" {
			line += " (" + pdfText(v.Metric) + " cost)"
		}
		rows = append(rows, text.NewAutoRow(line, meta))
	}
	return rows
}

func heading(s string) []core.Row {
	return []core.Row{
		spacer(4),
		text.NewRow(9, pdfText(s), props.Text{Size: 13, Style: fontstyle.Bold, Color: pdfInk}),
		row.New(0.4).WithStyle(&props.Cell{BackgroundColor: pdfLine}),
		spacer(2),
	}
}

func subheading(s string) core.Row {
	return text.NewRow(7, pdfText(s), props.Text{Size: 10, Style: fontstyle.Bold, Top: 1.5})
}

func paragraph(s string) core.Row {
	return text.NewAutoRow(pdfText(s), props.Text{Size: 9, Bottom: 2})
}

func spacer(h float64) core.Row { return row.New(h) }

// cardRows lays summary cards out four to a row.
func cardRows(cs []card) []core.Row {
	var rows []core.Row
	for i := 0; i < len(cs); i += cardsPerRow {
		r := row.New(20)
		for j := i; j < i+cardsPerRow; j++ {
			c := col.New(pdfGrid / cardsPerRow)
			if j < len(cs) {
				c.Add(
					text.New(pdfText(strings.ToUpper(cs[j].Label)), props.Text{Size: 7, Color: pdfMuted, Top: 2, Left: 2.5}),
					text.New(pdfText(cs[j].Value), props.Text{Size: 12, Style: fontstyle.Bold, Top: 6.5, Left: 2.5}),
					text.New(pdfText(clip(cs[j].Note, 48)), props.Text{Size: 6.5, Color: pdfMuted, Top: 14, Left: 2.5}),
				).WithStyle(&props.Cell{BackgroundColor: pdfCardBg, BorderType: border.Full, BorderColor: pdfLine, BorderThickness: 0.2})
			}
			r.Add(c)
		}
		rows = append(rows, r, spacer(3))
	}
	return rows
}

// tableRows makes a header row and one auto-height row per data row, so a
// long table simply continues on the next page.
func tableRows(t table) []core.Row {
	if len(t.Rows) == 0 {
		return []core.Row{paragraph("No data.")}
	}
	cell := func(i int, s string, header bool) core.Col {
		p := props.Text{Size: pdfTableFont, Top: 1.2, Bottom: 1.2, Left: 1, Right: 1, BreakLineStrategy: breakline.DashStrategy}
		if header {
			p.Style = fontstyle.Bold
			p.Size = pdfHeaderFont
		}
		if t.IsNum(i) {
			p.Align = align.Right
		}
		// Prose wraps at spaces; ids and names (ARNs, paths) have none and
		// must break anywhere.
		if t.Header[i] == "Description" {
			p.BreakLineStrategy = breakline.EmptySpaceStrategy
		}
		return col.New(t.Sizes[i]).Add(text.New(pdfText(s), p))
	}
	hdr := row.New()
	for i, h := range t.Header {
		hdr.Add(cell(i, h, true))
	}
	rows := []core.Row{hdr.WithStyle(&props.Cell{BackgroundColor: pdfHeaderBg})}
	for n, r := range t.Rows {
		rr := row.New()
		for i := range t.Header {
			v := ""
			if i < len(r) {
				v = r[i]
			}
			rr.Add(cell(i, v, false))
		}
		if n%2 == 1 {
			rr.WithStyle(&props.Cell{BackgroundColor: pdfStripe})
		}
		rows = append(rows, rr)
	}
	return rows
}

// pdfText flattens control characters (a tag value may hold newlines),
// trims, and encodes the text in Windows-1252, the encoding of the PDF core
// fonts; runes outside it become '?'.
func pdfText(s string) string {
	s = strings.TrimSpace(s)
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if unicode.IsControl(r) {
			r = ' '
		}
		c, ok := charmap.Windows1252.EncodeRune(r)
		if !ok {
			c = '?'
		}
		b = append(b, c)
	}
	return string(b)
}
