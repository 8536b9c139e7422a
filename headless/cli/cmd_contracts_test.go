package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestContractsCommand: import knows a contract commitment dataset by
// its columns and says what it stored; contracts lists each commitment
// with what the cost rows applied, -o json in the API's shape.
func TestContractsCommand(t *testing.T) {
	fixtures, err := filepath.Abs(filepath.Join("..", "..", "backend", "contracts", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	code, out, errs := run(t, "import", filepath.Join(fixtures, "commitments.csv"), filepath.Join(fixtures, "costs.csv"), "--data-dir", data)
	if code != 0 || !strings.Contains(out, "3 commitments of anthropic, aws") {
		t.Fatalf("import: %d %s %s", code, out, errs)
	}
	code, out, errs = run(t, "contracts", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("contracts: %d %s", code, errs)
	}
	var cs []model.ContractCommitment
	if err := json.Unmarshal([]byte(out), &cs); err != nil || len(cs) != 3 {
		t.Fatalf("%s %v", out, err)
	}
	for _, c := range cs {
		if c.ID == "cc-spend-2026" && c.AppliedExact != "150.750000000" {
			t.Errorf("applied %s, the rows apply 150.75", c.AppliedExact)
		}
	}
	if code, out, _ := run(t, "contracts", "--data-dir", data); code != 0 || !strings.Contains(out, "36 Hours") {
		t.Fatalf("table: %s", out)
	}
}
