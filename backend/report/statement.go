package report

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// StatementPDF lays one chargeback statement out on a page: the
// department or project, the billing period and the days allocated, its
// amount and share, and the period's allocated, unallocated and total
// cost, so the page stands alone when sent to that department.
func StatementPDF(set model.StatementSet, st model.Statement) ([]byte, error) {
	at, err := time.Parse(time.RFC3339, set.GeneratedAt)
	if err != nil {
		at = time.Now().UTC()
	}
	by := set.By
	if by == "" {
		by = "department"
	}
	title := "Chargeback statement: " + st.Name + ", " + set.Period
	d := newPDFDoc(title, Data{GeneratedAt: at})
	d.text(marginX, d.y+4, "costpilot", 9, true, pdfAccent)
	d.y += 6
	d.text(marginX, d.y+7, "Chargeback statement", 20, true, pdfInk)
	d.y += 11
	d.text(marginX, d.y+5, d.fitEnd(titleCase(by)+": "+st.Name, usableW, 13, true), 13, true, pdfInk)
	d.y += 7.5
	d.text(marginX, d.y+4.5, "Billing period "+set.Period+" ("+set.Start+" to "+set.End+")", 11, false, pdfInk)
	d.y += 6.5
	meta := "allocated by the rule set " + set.RuleSet + " · amounts in " + set.Currency + " · generated " + at.UTC().Format("2006-01-02 15:04 UTC")
	for _, line := range d.wrap(meta, usableW, smallSize, false, 3) {
		d.text(marginX, d.y+3, line, smallSize, false, pdfMuted)
		d.y += leading(smallSize)
	}
	d.y += 2
	d.fillRect(marginX, d.y, usableW, 0.6, pdfAccent)
	d.y += 5
	d.cards([]card{
		{Label: "Amount due", Value: formatMoney(st.Amount, set.Currency), Note: "this " + by + "'s share of the period's cost"},
		{Label: "Share", Value: formatPercent(st.Share), Note: "of the allocated total"},
		{Label: "Allocated total", Value: formatMoney(set.Allocated, set.Currency), Note: "all " + by + "s of the period"},
	})
	t := table{Header: []string{"Item", "Amount"}, Sizes: []int{3, 1}, Rows: []cells{
		{titleCase(by) + " " + st.Name, formatMoney(st.Amount, set.Currency)},
		{"Allocated to every " + by, formatMoney(set.Allocated, set.Currency)},
		{"Unallocated (no rule placed it)", formatMoney(set.Unallocated, set.Currency)},
		{"The period's total cost", formatMoney(set.Total, set.Currency)},
	}}
	d.heading("Summary", d.tableLead(t))
	d.table(t)
	d.paragraph("Statements read the cost history as it is when they are made: a correction billed after the period closed changes them when they are made again.", smallSize, pdfMuted)
	return d.finish("costpilot · chargeback statement · " + st.Name + " · " + set.Period)
}

// titleCase capitalises the first letter of s (department → Department).
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// StatementFileName is the name of a statement's PDF:
// statement-<period>-<by>-<name>.pdf, the name kept to letters, digits,
// dots, dashes and underscores.
func StatementFileName(set model.StatementSet, st model.Statement) string {
	return statementStem(set, st) + ".pdf"
}

func statementStem(set model.StatementSet, st model.Statement) string {
	var b strings.Builder
	for _, r := range strings.ToLower(st.Name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-.")
	if len(name) > 80 {
		name = name[:80]
	}
	if name == "" {
		name = "unnamed"
	}
	return "statement-" + set.Period + "-" + set.By + "-" + name
}

// WriteStatementPDFs writes one PDF per statement into dir (created if
// missing) and returns their paths. Each file appears whole or not at
// all and none replaces an existing file: two names that make the same
// file name, or a second run, get -2, -3….
func WriteStatementPDFs(dir string, set model.StatementSet) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, apperr.Wrap(apperr.Validation, err, "invalid output directory %s: %v", dir, err).WithDetail("field", "out")
	}
	if err := os.MkdirAll(abs, dirMode); err != nil {
		return nil, apperr.Wrap(apperr.Report, err, "cannot create the directory %s: %v", abs, unwrapPath(err))
	}
	paths := make([]string, 0, len(set.Statements))
	for _, st := range set.Statements {
		body, err := StatementPDF(set, st)
		if err != nil {
			return paths, apperr.Wrap(apperr.Report, err, "cannot render the statement of %s as PDF: %v", st.Name, err)
		}
		path, err := writeAtomic(abs, statementStem(set, st), "pdf", body)
		if err != nil {
			return paths, apperr.Wrap(apperr.Report, err, "cannot write the statement of %s to %s: %v", st.Name, abs, unwrapPath(err))
		}
		paths = append(paths, path)
	}
	return paths, nil
}
