package service

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// TestReadsOnlyReadExportFolders: a read of a data dir whose export folder
// changed returns what is stored and its age; the explicit refresh and the
// background loop import the change, once.
func TestReadsOnlyReadExportFolders(t *testing.T) {
	src := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	dir := t.TempDir()
	h, parts := splitRows(t, src, 2)
	f := filepath.Join(dir, "focus.csv")
	writeFile(t, f, h+strings.Join(parts[0], ""))
	cfg, err := config.Parse([]byte("aws:\n  enabled: true\n  region: us-east-1\n  source: export\n  export_paths: [\""+dir+"/*.csv\"]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := openDemo(t, cfg)
	ctx := adminCtx()
	q := model.CostQuery{Provider: model.AWS, Period: model.Period{Start: time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2024, 10, 31, 23, 0, 0, 0, time.UTC)}}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(s.DataDirPath(), store.FileName)+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	imports := func() int {
		t.Helper()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM imports`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Nothing read imports: the export folder waits for a refresh.
	a, err := s.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if a.Summary.TotalCost != 0 || imports() != 0 || len(a.Summary.DataAge) != 1 || a.Summary.DataAge[0].LastDay != "" {
		t.Fatalf("a read imported the export folder: total %v, %d imports, age %+v", a.Summary.TotalCost, imports(), a.Summary.DataAge)
	}
	if err := s.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := s.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	first, age := b.Summary.TotalCost, b.Summary.DataAge
	if first <= 0 || imports() != 1 || len(age) != 1 || age[0].Source != model.SourceExport || age[0].LastDay == "" || age[0].RefreshedAt == "" {
		t.Fatalf("the refresh did not import the folder: total %v, %d imports, age %+v", first, imports(), age)
	}
	// The whole file arrives: reads keep answering from the stored half.
	writeFile(t, f, h+strings.Join(parts[0], "")+strings.Join(parts[1], ""))
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(f, later, later); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		c, err := s.AnalyzeCosts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if c.Summary.TotalCost != first || imports() != 1 || c.Summary.DataAge[0] != age[0] {
			t.Fatalf("a read imported the changed file: total %v (stored %v), %d imports, age %+v", c.Summary.TotalCost, first, imports(), c.Summary.DataAge)
		}
	}
	// The background loop imports it at its start.
	bg, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { s.RunBackground(bg); close(done) }()
	defer func() { stop(); <-done }()
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := s.AnalyzeCosts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if c.Summary.TotalCost > first {
			if n := imports(); n != 2 {
				t.Fatalf("the background loop imported the change %d times", n-1)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the background loop did not import the changed file within a minute: total %v", c.Summary.TotalCost)
		}
		time.Sleep(50 * time.Millisecond)
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
	if err := s.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if got.Providers[model.AWS].Source != model.SourceExport || want.Summary.TotalCost <= 0 || !relClose(got.Summary.TotalCost, want.Summary.TotalCost) {
		t.Fatalf("folder of parts: %v (%s), the whole file: %v", got.Summary.TotalCost, got.Providers[model.AWS].Source, want.Summary.TotalCost)
	}
}
