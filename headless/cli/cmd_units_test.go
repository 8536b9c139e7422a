package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestUnitsImportAndAnalyzePer: units import then analyze --per gives the
// cost per unit as the total cost over the file's units, per day too; a
// bad row exits non-zero naming its file and line and stores nothing;
// the table output says the cost per unit.
func TestUnitsImportAndAnalyzePer(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("date,metric,value\n2026-05-01,orders,5\n2026-05-02,orders,x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "units", "import", bad, "--data-dir", data)
	if code == 0 || !strings.Contains(errs, "bad.csv:3: value:") {
		t.Fatalf("bad row: exit %d: %s", code, errs)
	}
	if code, out, _ := run(t, "units", "list", "--data-dir", data); code != 0 || !strings.Contains(out, "no business metrics") {
		t.Fatalf("stored after a failed import: %s", out)
	}
	good := filepath.Join(dir, "orders.csv")
	if err := os.WriteFile(good, []byte("date,metric,value\n2026-05-01,orders,50\n2026-05-02,orders,150\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := run(t, "units", "import", good, "--data-dir", data); code != 0 || !strings.Contains(out, "imported 2 values") {
		t.Fatalf("import: exit %d: %s %s", code, out, errs)
	}
	code, out, errs := run(t, "analyze", "--start", "2026-05-01", "--end", "2026-05-02", "--per", "orders", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("analyze: %d %s", code, errs)
	}
	var a struct {
		Summary struct {
			TotalCost float64        `json:"total_cost"`
			PerUnit   *model.PerUnit `json:"per_unit"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	pu := a.Summary.PerUnit
	if pu == nil || pu.Units != 200 || pu.CostPerUnit == nil || math.Abs(*pu.CostPerUnit-a.Summary.TotalCost/200) > 1e-9 || len(pu.DailyCosts) != 2 {
		t.Fatalf("per unit %+v, total %v", pu, a.Summary.TotalCost)
	}
	for i, units := range []float64{50, 150} {
		d := pu.DailyCosts[i]
		if d.Units != units || d.CostPerUnit == nil || math.Abs(*d.CostPerUnit-d.Cost/units) > 1e-12 || d.Cost <= 0 {
			t.Errorf("day %d: %+v", i, d)
		}
	}
	code, out, _ = run(t, "analyze", "--start", "2026-05-01", "--end", "2026-05-02", "--per", "orders", "--data-dir", data)
	if code != 0 || !strings.Contains(out, "Per orders: $") {
		t.Fatalf("table: %s", out)
	}
	if code, _, _ := run(t, "units", "delete", "orders", "--data-dir", data); code != 0 {
		t.Fatal("delete")
	}
	if code, _, _ := run(t, "analyze", "--days", "7", "--per", "orders", "--data-dir", data); code == 0 {
		t.Fatal("analyze per a deleted metric succeeded")
	}
}
