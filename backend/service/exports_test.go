package service

import (
	"context"
	"os"
	"path/filepath"
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
	ctx := context.Background()
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
