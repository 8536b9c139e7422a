package service

import (
	"bytes"
	"context"
	"encoding/csv"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestEveryResourceOfAFleet: two days of a generated 5,000-resource fleet
// (scripts/genfocus) imported. GET /api/costs lists each provider's top
// resources and counts them all; the resource pages hold every one of the
// 5,000 exactly once, most expensive first, and the CSV has 5,000 rows
// whose costs add up to the page's total.
func TestEveryResourceOfAFleet(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fleet.csv")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	end := yesterday(testNow)
	gen := exec.CommandContext(ctx, "go", "run", "./scripts/genfocus", "-daily", "-resources", "5000", "-days", "2", "-end", end, "-out", file)
	gen.Dir = repoRoot(t)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("genfocus: %v\n%s", err, out)
	}
	cfg, err := config.Parse([]byte("aws: {enabled: true, source: export, region: us-east-1}\nazure: {enabled: true, source: export}\n"+
		"gcp: {enabled: true, source: export}\noci: {enabled: true, source: export}\n"), "fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := openFresh(t, cfg)
	actx := adminCtx()
	if _, err := s.ImportFiles(actx, []string{file}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	req := CostRequest{Start: end, End: end}
	a, err := s.Costs(actx, req)
	if err != nil {
		t.Fatal(err)
	}
	counted, listed := 0, 0
	for _, pc := range a.Providers {
		counted += pc.ResourceCount
		listed += len(pc.Resources)
	}
	if counted != 5000 || listed >= counted {
		t.Fatalf("the analysis counts %d resources and lists %d: want 5,000 counted, the top ones listed", counted, listed)
	}
	seen := map[string]bool{}
	var last float64
	var sum float64
	for offset := 0; ; offset += MaxResourcePage {
		p, err := s.CostResources(actx, ResourceRequest{CostRequest: req, Offset: offset, Limit: MaxResourcePage})
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != 5000 || p.Start != end || p.End != end {
			t.Fatalf("page at %d: total %d, period %s to %s", offset, p.Total, p.Start, p.End)
		}
		if len(p.Resources) == 0 {
			break
		}
		for i, r := range p.Resources {
			k := string(r.Provider) + "/" + r.ResourceID
			if seen[k] {
				t.Fatalf("%s on two pages", k)
			}
			seen[k] = true
			if (offset > 0 || i > 0) && r.Cost > last {
				t.Fatalf("not most expensive first at %d", offset+i)
			}
			last = r.Cost
			sum += r.Cost
		}
	}
	if len(seen) != 5000 {
		t.Fatalf("the pages hold %d resources, want 5,000", len(seen))
	}
	var buf bytes.Buffer
	n, err := s.ExportResources(actx, req, &buf)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if n != 5000 || len(rows) != 5001 || rows[0][0] != "provider" {
		t.Fatalf("CSV: %d written, %d rows (header %v), want 5,000 and a header", n, len(rows), rows[0])
	}
	var csvSum float64
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[6], 64)
		if err != nil {
			t.Fatalf("cost %q: %v", r[6], err)
		}
		csvSum += v
	}
	if !closeTo(csvSum, sum) {
		t.Errorf("CSV costs add up to %v, the pages to %v", csvSum, sum)
	}
}

func TestResourcePageBounds(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	tests := []struct {
		name  string
		req   ResourceRequest
		field string
	}{
		{"limit too large", ResourceRequest{Limit: MaxResourcePage + 1}, "limit"},
		{"negative limit", ResourceRequest{Limit: -1}, "limit"},
		{"negative offset", ResourceRequest{Offset: -1}, "offset"},
		{"bad period", ResourceRequest{CostRequest: CostRequest{Period: "fortnight"}}, "period"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.CostResources(ctx, tt.req)
			if e, ok := apperr.As(err); !ok || e.Kind != apperr.Validation || e.Details["field"] != tt.field {
				t.Fatalf("err %v, want a validation error on %s", err, tt.field)
			}
		})
	}
	p, err := s.CostResources(ctx, ResourceRequest{CostRequest: CostRequest{Period: string(model.PeriodLastMonth)}, Offset: 1 << 30})
	if err != nil || p.Total == 0 || len(p.Resources) != 0 || p.Limit != DefaultResourcePage {
		t.Fatalf("a page past the end: %+v, %v", p, err)
	}
}
