package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/service"
)

// TestBudgetPerUnitCommand: budget set --per METRIC makes a budget on
// cost per unit, measured as its cost over its units and listed with its
// metric; an unknown metric exits non-zero naming it.
func TestBudgetPerUnitCommand(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	var csv strings.Builder
	csv.WriteString("date,metric,value\n")
	today := time.Now().UTC().Truncate(24 * time.Hour)
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&csv, "%s,orders,400\n", today.AddDate(0, 0, -i).Format("2006-01-02"))
	}
	file := filepath.Join(dir, "orders.csv")
	if err := os.WriteFile(file, []byte(csv.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "units", "import", file, "--data-dir", data); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	code, out, errs := run(t, "budget", "set", "cpo", "--amount", "0.01", "--per", "orders", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("set: %d %s", code, errs)
	}
	var v service.BudgetView
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	st := v.Status
	if today.Day() > 1 && (!v.Measured || st.Budget.Per != "orders" || st.Units != 400*float64(today.Day()-1) || st.Cost <= 0 ||
		math.Abs(st.Actual-st.Cost/st.Units) > 1e-12 || st.ActualThreshold != 100) {
		t.Fatalf("budget %+v", v)
	}
	if code, out, _ := run(t, "budget", "list", "--data-dir", data); code != 0 || !strings.Contains(out, "cpo (per orders)") {
		t.Fatalf("list: %s", out)
	}
	if code, _, errs := run(t, "budget", "set", "x", "--amount", "1", "--per", "nope", "--data-dir", data); code == 0 || !strings.Contains(errs, `--per must be one of orders, got "nope"`) {
		t.Fatalf("unknown metric: %d %s", code, errs)
	}
}
