package statements

import (
	"bytes"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestBuild: statements by name, shares of the allocated total (the
// total less the unallocated), and CSV cells that a spreadsheet would
// read as formulas are quoted.
func TestBuild(t *testing.T) {
	res := model.AllocationResult{Currency: "EUR", AllocatedCosts: model.AllocatedCosts{
		ByDepartment: map[string]float64{"web": 30, "=cmd": 10}, ByProject: map[string]float64{"p": 40},
		Unallocated: 5, Total: 45}}
	set := Build(res, "finance", "2026-05", ByDepartment, "now")
	if set.Allocated != 40 || len(set.Statements) != 2 || set.Statements[0].Name != "=cmd" || set.Statements[1].Share != 0.75 {
		t.Fatalf("%+v", set)
	}
	if p := Build(res, "finance", "2026-05", ByProject, "now"); len(p.Statements) != 1 || p.Statements[0].Share != 1 {
		t.Fatalf("%+v", p)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, set); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "'=cmd,2026-05") || !strings.HasPrefix(buf.String(), "department,period") {
		t.Errorf("%s", buf.String())
	}
}
