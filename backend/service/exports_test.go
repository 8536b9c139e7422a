package service

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

func TestExportPathsLoadOnceAndOnChange(t *testing.T) {
	src := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	dir := t.TempDir()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "focus.csv")
	if err := os.WriteFile(f, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse([]byte("aws:\n  enabled: true\n  region: us-east-1\n  source: export\n  export_paths: [\""+dir+"/*.csv\"]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := openDemo(t, cfg)
	ctx := adminCtx()
	q := model.CostQuery{Period: model.Period{Start: time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2024, 10, 31, 23, 0, 0, 0, time.UTC)}}
	a, err := s.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	first := a.Summary.TotalCost
	if first <= 0 || a.Providers[model.AWS].Source != model.SourceExport {
		t.Fatalf("export not loaded: %+v", a.Summary)
	}
	b, err := s.AnalyzeCosts(ctx, q)
	if err != nil || b.Summary.TotalCost != first {
		t.Fatalf("second analysis %v %v", b.Summary.TotalCost, err)
	}
	// A changed file is imported again; the period is replaced, not added.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(f, later, later); err != nil {
		t.Fatal(err)
	}
	c, err := s.AnalyzeCosts(ctx, q)
	if err != nil || !relClose(c.Summary.TotalCost, first) {
		t.Fatalf("after touching the file: %v %v", c.Summary.TotalCost, err)
	}
	st, _ := s.store.ExportFileState(ctx, f)
	if st.MTime != later.UnixNano() {
		t.Fatalf("file state not updated: %+v", st)
	}
}

// TestExportPathsFolderOfParts: export_paths may name a folder (a copy of
// an export bucket); its parts are imported together and add up to the
// whole file.
func TestExportPathsFolderOfParts(t *testing.T) {
	src := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	dir := t.TempDir()
	h, parts := splitRows(t, src, 2)
	writeFile(t, filepath.Join(dir, "2024-09", "part-1.csv"), h+strings.Join(parts[0], ""))
	writeFile(t, filepath.Join(dir, "2024-09", "part-2.csv"), h+strings.Join(parts[1], ""))
	cfg, err := config.Parse([]byte("aws:\n  enabled: true\n  region: us-east-1\n  source: export\n  export_paths: [\""+dir+"\"]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ref := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	// export_paths are read as the provider's own files, as --provider does.
	if _, err := ref.ImportFiles(ctx, []string{src}, ImportOptions{Provider: model.AWS}); err != nil {
		t.Fatal(err)
	}
	q := model.CostQuery{Provider: model.AWS, Period: model.Period{Start: time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2024, 10, 31, 23, 0, 0, 0, time.UTC)}}
	want, err := ref.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	s := openDemo(t, cfg)
	got, err := s.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if got.Providers[model.AWS].Source != model.SourceExport || want.Summary.TotalCost <= 0 || !relClose(got.Summary.TotalCost, want.Summary.TotalCost) {
		t.Fatalf("folder of parts: %v (%s), the whole file: %v", got.Summary.TotalCost, got.Providers[model.AWS].Source, want.Summary.TotalCost)
	}
}
