package report

// table is a header and formatted rows, rendered as an HTML table or a
// PDF grid.
type table struct {
	Header []string
	Rows   []cells
	// Sizes are the PDF grid widths of the columns (out of pdfGrid).
	Sizes []int
}

// numericHeaders are right-aligned columns.
var numericHeaders = map[string]bool{
	"Total cost": true, "Cost": true, "Share": true, "Forecast": true, "Interval": true,
	"Volatility": true, "Monthly savings": true, "Confidence": true,
}

// IsNum reports whether column i holds numbers (right-aligned).
func (t table) IsNum(i int) bool { return i < len(t.Header) && numericHeaders[t.Header[i]] }

// ProviderTable is the per-provider totals table.
func (v *view) ProviderTable() table {
	return table{providerHeader, v.ProviderRows, []int{6, 6, 6, 6}}
}

// ServiceTable is the top services table.
func (v *view) ServiceTable() table {
	return table{serviceHeader, v.ServiceRows, []int{4, 12, 4, 4}}
}

// ResourceTable is the top resources table.
func (v *view) ResourceTable() table {
	return table{resourceHeader, v.ResourceRows, []int{2, 8, 3, 3, 4, 4}}
}

// RecTable is the recommendations table.
func (v *view) RecTable() table {
	return table{recHeader, v.RecRows, []int{2, 3, 2, 3, 6, 3, 3, 2}}
}

// Table is the per-provider forecast table.
func (f *forecastView) Table() table {
	return table{forecastHeader, f.Rows, []int{4, 4, 8, 4, 4}}
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
