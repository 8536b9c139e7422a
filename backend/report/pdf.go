package report

import (
	"strings"

	"github.com/phpdave11/gofpdf"
)

// The PDF is drawn with gofpdf directly. maroto (its wrapper, used
// before) sets each text in one font, so a name mixing Latin and Japanese
// cannot fall back per character; it has no polygon, dash or transparency
// primitives for vector charts; and it neither repeats a table's header
// after a page break nor keeps a heading with what follows. Layout is
// done here, in millimetres on A4 portrait.

// renderPDF lays the view out: the executive summary first, then the
// details, with "Page N of M" on every page.
func renderPDF(d Data) ([]byte, error) {
	v := buildView(d)
	doc := newPDFDoc(v.Title, d)
	doc.titleBlock(v)
	switch {
	case v.Exec != nil:
		doc.execSummary(v.Exec)
		doc.newPage()
		doc.details(v)
	default:
		doc.cards(v.Cards)
		doc.recommendations(v, false)
	}
	return doc.finish(v.DocTitle)
}

// execSummary is the first page: the figures, budgets, top movers and the
// largest recommendations.
func (d *pdfDoc) execSummary(x *execView) {
	d.cards(x.Cards)
	bt := x.BudgetTable()
	d.heading("Budgets", d.tableLead(bt))
	if len(bt.Rows) == 0 {
		d.paragraph("No budgets are set. Add them in the dashboard's Budgets page or the config file.", bodySize, pdfMuted)
	} else {
		d.paragraph("Each budget's spend in its own period up to the report's last day; projected adds the forecast to that period's end.", smallSize, pdfMuted)
		d.table(bt)
	}
	mt := x.MoverTable()
	d.heading("Top movers", d.tableLead(mt))
	if len(mt.Rows) == 0 {
		d.paragraph(x.MoverNote, bodySize, pdfMuted)
	} else {
		d.paragraph(moversLead, smallSize, pdfMuted)
		d.table(mt)
	}
	rt := x.TopRecTable()
	d.heading("Largest open recommendations", d.tableLead(rt))
	d.table(rt)
}

// details is everything after the executive summary.
func (d *pdfDoc) details(v *view) {
	for i, s := range v.CostCharts {
		if i == 0 {
			d.heading("Costs", d.chartHeight(s))
		}
		d.chart(s)
	}
	if v.ShowProviders {
		t := v.ProviderTable()
		d.heading("Providers", d.tableLead(t))
		d.table(t)
	}
	if v.ShowServices {
		t := v.ServiceTable()
		d.heading("Top services", d.tableLead(t))
		d.table(t)
	}
	if v.ShowResources {
		t := v.ResourceTable()
		d.heading("Top resources", d.tableLead(t))
		d.table(t)
	}
	if v.ShowRecs {
		d.recommendations(v, true)
	}
	if f := v.Forecast; f != nil {
		cs := append([]card{{"Forecast", f.Total, "next " + f.Period}, {"Confidence interval", f.Interval, f.Model}}, f.Impact...)
		// Every row of cards stays with the heading: a page never starts
		// with a row of cards alone.
		rows := (len(cs) + cardsPerRow - 1) / cardsPerRow
		d.heading("Forecast", cardHeight*float64(rows))
		d.cards(cs)
		if f.Chart != nil {
			d.chart(f.Chart)
		}
		t := f.Table()
		d.ensure(d.tableLead(t))
		d.table(t)
	}
	if c := v.Coverage; c != nil {
		pt := c.ProviderTable()
		d.heading("Tag coverage", leading(bodySize)+d.tableLead(pt))
		d.paragraph(c.Summary, bodySize, pdfInk)
		d.table(pt)
		if len(c.AccountRows) > 0 {
			at := c.AccountTable()
			d.subheading("Accounts with the most unallocated spend", d.tableLead(at))
			if c.AccountNote != "" {
				d.paragraph(c.AccountNote, bodySize, pdfInk)
			}
			d.table(at)
		}
	}
	if a := v.Allocation; a != nil {
		d.heading("Cost allocation", 12)
		d.paragraph("Method "+a.Method+" · total "+a.Total+" · shared "+a.Shared+" · unallocated "+a.Unallocated, bodySize, pdfInk)
		if a.Chart != nil {
			d.chart(a.Chart)
		}
		for _, t := range []struct {
			title string
			t     table
		}{{"By department", a.DepartmentTable()}, {"By project", a.ProjectTable()}, {"Matched rules", a.MatchedTable()}} {
			d.subheading(t.title, d.tableLead(t.t))
			d.table(t.t)
		}
	}
}

// recommendations is the rollup by type and provider, the chart of the
// recommendations report, and the largest recommendations.
func (d *pdfDoc) recommendations(v *view, withHeading bool) {
	rt := v.RollupTable()
	if withHeading {
		// Kept with the savings line, the rollup's title and its first row;
		// the recommendations report has the savings on its cards instead.
		d.heading("Recommendations", leading(bodySize)+1.5+subheadingH+d.tableLead(rt))
		d.paragraph("Potential savings: "+v.RecTotal+" per month.", bodySize, pdfInk)
	}
	for _, n := range v.NotAssessed {
		d.paragraph(n, bodySize, pdfInk)
	}
	if len(rt.Rows) > 0 {
		d.subheading("By type and provider", d.tableLead(rt))
		d.table(rt)
	}
	if v.RecChart != nil {
		d.chart(v.RecChart)
	}
	t := v.RecTable()
	if len(t.Rows) == 0 {
		d.paragraph(v.RecNote, smallSize, pdfMuted)
		return
	}
	// The note (how many of how many, where the rest are) goes above the
	// list, where it is read, and stays with its title and first row.
	note := d.wrap(v.RecNote, usableW, smallSize, false, maxCellLines)
	d.subheading("Largest recommendations", float64(len(note))*leading(smallSize)+1.5+d.tableLead(t))
	d.paragraph(v.RecNote, smallSize, pdfMuted)
	d.table(t)
}

// titleBlock heads the first page: what the report is, its period, what
// it is compared with and what it covers.
func (d *pdfDoc) titleBlock(v *view) {
	d.text(marginX, d.y+4, "costpilot", 9, true, pdfAccent)
	d.y += 6
	d.text(marginX, d.y+7, v.Title, 20, true, pdfInk)
	d.y += 11
	d.text(marginX, d.y+4.5, v.Period+" · "+v.Providers, 11, false, pdfInk)
	d.y += 6.5
	var meta []string
	if v.Previous != "" {
		meta = append(meta, "compared with "+v.Previous)
	}
	if v.Scope != "" {
		meta = append(meta, v.Scope)
	}
	if v.Currency != "" {
		s := "amounts in " + v.Currency
		if v.Metric != "" {
			s += " (" + v.Metric + " cost)"
		}
		meta = append(meta, s)
	}
	meta = append(meta, "generated "+v.Generated)
	for _, line := range d.wrap(strings.Join(meta, " · "), usableW, smallSize, false, 3) {
		d.text(marginX, d.y+3, line, smallSize, false, pdfMuted)
		d.y += leading(smallSize)
	}
	d.y += 2
	d.fillRect(marginX, d.y, usableW, 0.6, pdfAccent)
	d.y += 5
}

// newPDFDoc starts the document with its metadata and first page.
func newPDFDoc(title string, data Data) *pdfDoc {
	f := gofpdf.New("P", "mm", "A4", "")
	f.SetMargins(marginX, marginTop, marginX)
	// Pages are broken here, where headings are kept with what follows
	// and table headers repeated, not by gofpdf.
	f.SetAutoPageBreak(false, 0)
	f.SetTitle(title, true)
	f.SetCreator("costpilot", true)
	f.SetCreationDate(data.GeneratedAt)
	f.SetModificationDate(data.GeneratedAt)
	f.SetCompression(true)
	d := &pdfDoc{f: f, loaded: map[string]bool{}}
	d.newPage()
	return d
}
