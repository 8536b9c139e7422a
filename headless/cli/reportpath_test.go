package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// optimize -o json from a relative data dir: report_path is the full
// path of the file written, and it opens from anywhere.
func TestOptimizeJSONReportPathIsTheFullPath(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	t.Chdir(dir)
	rel, err := filepath.Rel(dir, data)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "optimize", "--no-save", "-o", "json", "--data-dir", rel)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		ReportPath string `json:"report_path"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if !filepath.IsAbs(res.ReportPath) {
		t.Fatalf("report_path %q is not a full path", res.ReportPath)
	}
	if rel, err := filepath.Rel(data, res.ReportPath); err != nil || !filepath.IsLocal(rel) {
		t.Fatalf("report_path %q is not under the data dir %s", res.ReportPath, data)
	}
	if fi, err := os.Stat(res.ReportPath); err != nil || fi.Size() == 0 {
		t.Fatalf("report %s: %v", res.ReportPath, err)
	}
}
