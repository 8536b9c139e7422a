package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportCommand: export writes a whole FOCUS CSV file (or standard
// output), and every bad flag value or file name is a usage error that
// leaves no file behind.
func TestExportCommand(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	out := filepath.Join(dir, "focus.csv")
	code, _, errs := run(t, "export", "--format", "focus", "--period", "last_month", "--provider", "gcp", out, "--data-dir", data)
	if code != 0 || !strings.Contains(errs, "FOCUS rows from") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) < 2 || recs[0][0] != "AllocatedMethodDetails" || recs[0][len(recs[0])-1] != "x_CostpilotSource" {
		t.Fatalf("%v: %d records", err, len(recs))
	}
	code, stdout, errs := run(t, "export", "--days", "3", "-", "--data-dir", data)
	if code != 0 || !strings.HasPrefix(stdout, "AllocatedMethodDetails,AllocatedMethodId,") {
		t.Fatalf("to stdout: exit %d: %s", code, errs)
	}
	for _, args := range [][]string{
		{"export", "--format", "parquet", filepath.Join(dir, "a.csv")},
		{"export", "--version", "1.0", filepath.Join(dir, "b.csv")},
		{"export", "--period", "weekly", filepath.Join(dir, "c.csv")},
		{"export", filepath.Join(dir, "d.txt")},
	} {
		if code, _, errs := run(t, append(args, "--data-dir", data)...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errs)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, "[abcd].*"))
	hidden, _ := filepath.Glob(filepath.Join(dir, ".*.csv.*"))
	if len(left)+len(hidden) != 0 {
		t.Fatalf("refused exports left files: %v %v", left, hidden)
	}
}
