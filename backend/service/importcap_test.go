package service

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
)

// focusRows writes a FOCUS export of resources × days rows, one distinct
// daily line each, made from the first row of the FOCUS sample.
func focusRows(t *testing.T, resources, days int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "billing", "testdata", "focus-1.3.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var sb strings.Builder
	w := csv.NewWriter(&sb)
	_ = w.Write(recs[0])
	row := append([]string(nil), recs[1]...)
	for r := range resources {
		for d := range days {
			row[col["ResourceId"]] = fmt.Sprintf("i-%06d", r)
			row[col["ChargePeriodStart"]] = fmt.Sprintf("2025-01-%02dT00:00:00Z", d+1)
			row[col["ChargePeriodEnd"]] = fmt.Sprintf("2025-01-%02dT01:00:00Z", d+1)
			_ = w.Write(row)
		}
	}
	w.Flush()
	path := filepath.Join(t.TempDir(), "export.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImportCaps: past import.max_resources distinct resources, or
// import.max_daily_lines distinct daily lines, an import (a dry run or an
// upload alike) is a ValidationError naming the setting, and nothing is
// written; within them, the same file imports.
func TestImportCaps(t *testing.T) {
	tests := []struct {
		name            string
		resources, days int
		maxRes          int
		maxLines        int64
		field           string
	}{
		{"too many resources", 6, 1, 5, 1000, "import.max_resources"},
		{"too many daily lines", 2, 4, 5, 7, "import.max_daily_lines"},
		{"within both", 5, 1, 5, 5, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Import = config.ImportConfig{MaxResources: tt.maxRes, MaxDailyLines: tt.maxLines}
			s := openFresh(t, cfg)
			ctx := adminCtx()
			path := focusRows(t, tt.resources, tt.days)
			for _, dry := range []bool{true, false} {
				f, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				_, err = s.Import(ctx, "upload.csv", f, ImportOptions{DryRun: dry})
				f.Close()
				if tt.field == "" {
					if err != nil {
						t.Fatalf("dry run %v: %v", dry, err)
					}
					continue
				}
				e, ok := apperr.As(err)
				if !ok || e.Kind != apperr.Validation || !strings.Contains(e.Error(), tt.field) {
					t.Fatalf("dry run %v: %v, want a ValidationError naming %s", dry, err, tt.field)
				}
			}
			stats, err := s.store.Stats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var lines int64
			for _, st := range stats {
				lines += st.Lines
			}
			if want := int64(tt.resources * tt.days); (tt.field == "" && lines != want) || (tt.field != "" && lines != 0) {
				t.Fatalf("%d daily lines stored", lines)
			}
		})
	}
}
