package billing

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
)

func write(t *testing.T, path, body string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// azureManifest is an Azure cost export's manifest.json listing blobs.
func azureManifest(submitted string, blobs ...string) string {
	list := ""
	for i, b := range blobs {
		if i > 0 {
			list += ","
		}
		list += fmt.Sprintf(`{"blobName":%q}`, b)
	}
	return fmt.Sprintf(`{"exportConfig":{"exportName":"daily","type":"ActualCost"},"runInfo":{"submittedTime":%q,"startDate":"2026-05-01"},"blobs":[%s]}`, submitted, list)
}

func TestDeliveriesKeepsTheNewestManifest(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "daily", "20260501-20260531")
	write(t, filepath.Join(run, "r1", "part_0.csv"), "old")
	write(t, filepath.Join(run, "r2", "part_0.csv"), "new")
	write(t, filepath.Join(run, "r2", "part_1.csv"), "new")
	write(t, filepath.Join(run, "r1", "manifest.json"), azureManifest("2026-06-01T01:00:00Z", "costs/daily/20260501-20260531/r1/part_0.csv"))
	write(t, filepath.Join(run, "r2", "manifest.json"), azureManifest("2026-06-02T01:00:00Z",
		"costs/daily/20260501-20260531/r2/part_0.csv", "https://acct.blob.core.windows.net/costs/daily/20260501-20260531/r2/part_1.csv"))
	write(t, filepath.Join(dir, ".hidden", "x.csv"), "skipped with its folder")
	named := write(t, filepath.Join(t.TempDir(), "extra.csv"), "named on its own")

	units, plain, warnings, err := Deliveries([]string{dir, named})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(run, "r2", "part_0.csv"), filepath.Join(run, "r2", "part_1.csv")}
	if len(units) != 1 || !slices.Equal(units[0].Files, want) || units[0].Dataset != DatasetActual {
		t.Fatalf("units = %+v, want the newer run's two files of the actual dataset", units)
	}
	if !slices.Equal(plain, []string{named}) {
		t.Errorf("plain = %v, want only the file named on its own", plain)
	}
	if len(warnings) != 1 {
		t.Errorf("warnings = %v, want one about the older run's file left out", warnings)
	}
}

func TestDeliveriesWithoutManifests(t *testing.T) {
	dir := t.TempDir()
	a := write(t, filepath.Join(dir, "a.csv"), "x")
	b := write(t, filepath.Join(dir, "sub", "b.parquet"), "x")
	write(t, filepath.Join(dir, "notes.txt"), "not billing data")
	units, plain, warnings, err := Deliveries([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(units) != 0 || !slices.Equal(plain, []string{a, b}) || len(warnings) != 0 {
		t.Errorf("units %v plain %v warnings %v, want the two data files as plain", units, plain, warnings)
	}
}

func TestDeliveriesRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(dir string) []string
	}{
		{"missing path", func(dir string) []string { return []string{filepath.Join(dir, "nope")} }},
		{"manifest lists a file not copied", func(dir string) []string {
			write(t, filepath.Join(dir, "manifest.json"), azureManifest("2026-06-02T01:00:00Z", "costs/elsewhere/part_0.csv"))
			return []string{dir}
		}},
		{"unreadable manifest", func(dir string) []string {
			write(t, filepath.Join(dir, "manifest.json"), "{")
			return []string{dir}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, _, err := Deliveries(tt.setup(t.TempDir()))
			if apperr.KindOf(err) != apperr.Validation {
				t.Errorf("err = %v, want a Validation error", err)
			}
		})
	}
}
