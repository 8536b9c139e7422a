package report

// table is a header and formatted rows, rendered as an HTML table or a
// PDF table.
type table struct {
	Header []string
	Rows   []cells
	// Sizes are the relative widths of the columns in the PDF.
	Sizes []int
}

// colKind is how a column's cells are set.
type colKind int

const (
	colText colKind = iota // prose and names: wrapped at spaces
	colNum                 // amounts and counts: right-aligned, one line
	colID                  // resource ids: one line, shortened in the middle
)

// numericHeaders are right-aligned columns.
var numericHeaders = map[string]bool{
	"Total cost": true, "Cost": true, "Share": true, "Forecast": true, "Interval": true,
	"Volatility": true, "Monthly savings": true, "Confidence": true, "Amount": true, "Actual": true,
	"Used": true, "Projected": true, "Previous": true, "Current": true, "Change": true, "Count": true,
	"Per day": true,
}

// idHeaders hold resource ids (ARNs, Azure and Google Cloud paths): too
// long to wrap readably, so they are shortened in the middle, where the
// least telling part of a path is; the JSON report and the CSV keep them
// whole.
var idHeaders = map[string]bool{"Resource": true}

// Kind is how column i is set.
func (t table) Kind(i int) colKind {
	switch {
	case i >= len(t.Header):
		return colText
	case numericHeaders[t.Header[i]]:
		return colNum
	case idHeaders[t.Header[i]]:
		return colID
	}
	return colText
}

// IsNum reports whether column i holds numbers (right-aligned).
func (t table) IsNum(i int) bool { return t.Kind(i) == colNum }

// IsID reports whether column i holds resource ids.
func (t table) IsID(i int) bool { return t.Kind(i) == colID }

// ProviderTable is the per-provider totals table.
func (v *view) ProviderTable() table {
	return table{providerHeader, v.ProviderRows, []int{6, 6, 6, 6}}
}

// ServiceTable is the top services table.
func (v *view) ServiceTable() table {
	return table{serviceHeader, v.ServiceRows, []int{3, 13, 4, 3}}
}

// ResourceTable is the top resources table.
func (v *view) ResourceTable() table {
	return table{resourceHeader, v.ResourceRows, []int{3, 9, 4, 5, 4, 4}}
}

// RecTable is the list of the largest recommendations.
func (v *view) RecTable() table {
	return table{recHeader, v.RecRows, []int{3, 5, 3, 5, 13, 4, 4, 3}}
}

// RollupTable is the recommendations by type and provider.
func (v *view) RollupTable() table {
	return table{rollupHeader, v.RollupRows, []int{6, 4, 3, 5}}
}

// BudgetTable is the budgets of the executive summary.
func (e *execView) BudgetTable() table {
	return table{budgetHeader, e.BudgetRows, []int{5, 5, 3, 4, 4, 3, 4}}
}

// MoverTable is the top movers of the executive summary.
func (e *execView) MoverTable() table {
	return table{moverHeader, e.MoverRows, []int{3, 9, 4, 4, 6, 4}}
}

// TopRecTable is the largest recommendations of the executive summary.
func (e *execView) TopRecTable() table {
	return table{topRecHeader, e.TopRecRows, []int{5, 3, 11, 5}}
}

// Table is the per-provider forecast table.
func (f *forecastView) Table() table {
	return table{forecastHeader, f.Rows, []int{4, 4, 8, 4, 4}}
}

// coverageHeader heads the tag coverage tables.
var coverageHeader = []string{"", "Usage spend", "Unallocated", "Allocatable", "Untagged resources"}

// ProviderTable is the tag coverage by provider.
func (c *coverageView) ProviderTable() table {
	h := append([]string(nil), coverageHeader...)
	h[0] = "Provider"
	return table{h, c.ProviderRows, []int{6, 6, 6, 5, 5}}
}

// AccountTable is the tag coverage of the accounts with the most
// unallocated spend.
func (c *coverageView) AccountTable() table {
	h := append([]string(nil), coverageHeader...)
	h[0] = "Account"
	return table{h, c.AccountRows, []int{12, 6, 6, 5, 5}}
}

// DepartmentTable is the allocation by department.
func (a *allocationView) DepartmentTable() table {
	return table{withFirst("Department"), a.Departments, []int{12, 6, 6}}
}

// ProjectTable is the allocation by project.
func (a *allocationView) ProjectTable() table {
	return table{withFirst("Project"), a.Projects, []int{12, 6, 6}}
}

// MatchedTable is how much each rule matched.
func (a *allocationView) MatchedTable() table {
	return table{withFirst("Rule"), a.Matched, []int{12, 6, 6}}
}

func withFirst(name string) []string {
	h := append([]string(nil), allocationHeader...)
	h[0] = name
	return h
}

// moversLead introduces the movers table.
const moversLead = "The services and accounts whose cost per day rose most against the previous period (per day, so periods of unequal length compare fairly), with the raw change beside it."

// MoversLead introduces the movers table in the HTML template.
func (e *execView) MoversLead() string { return moversLead }
