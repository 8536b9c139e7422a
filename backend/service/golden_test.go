package service

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// -update rewrites testdata/golden from the current code. The goldens were
// taken before the history engine was redesigned, so this test proves the
// redesign answers exactly as the old one did.
var updateGolden = flag.Bool("update", false, "rewrite the golden answers")

// goldenCase is one Service answer to pin.
type goldenCase struct {
	name string
	run  func(context.Context, *Service) (any, error)
}

func costCase(name string, q model.CostQuery) goldenCase {
	return goldenCase{name, func(ctx context.Context, s *Service) (any, error) { return s.AnalyzeCosts(ctx, q) }}
}

func dates(t *testing.T, a, b string) model.Period {
	t.Helper()
	p, err := PeriodForDates(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGoldenDemo(t *testing.T) {
	s := openDemo(t, nil)
	last := func(n int) model.Period { return model.LastDays(testNow, n) }
	cases := []goldenCase{
		costCase("costs-30", model.CostQuery{Period: last(30)}),
		costCase("costs-7", model.CostQuery{Period: last(7)}),
		costCase("costs-365", model.CostQuery{Period: last(365)}),
		costCase("costs-365-tag", model.CostQuery{Period: last(365), TagKey: "team", TagValue: "data"}),
		costCase("costs-90-effective-aws", model.CostQuery{Period: last(90), Metric: model.MetricEffective, Provider: model.AWS}),
		costCase("costs-months-list", model.CostQuery{Period: dates(t, "2026-01-17", "2026-04-03"), Metric: model.MetricList}),
		costCase("costs-account", model.CostQuery{Period: last(120), Account: "210987654321"}),
		costCase("costs-service", model.CostQuery{Period: last(60), Service: "Virtual Machines"}),
		costCase("costs-empty", model.CostQuery{Period: dates(t, "2020-01-01", "2020-01-31")}),
		{"recommendations", func(ctx context.Context, s *Service) (any, error) { return s.GenerateRecommendations(ctx) }},
		{"forecast-90", func(ctx context.Context, s *Service) (any, error) { return s.ForecastCosts(ctx, 90, true) }},
		{"allocation-tags", func(ctx context.Context, s *Service) (any, error) {
			return s.AllocateCosts(ctx, model.AllocationRules{Method: "tag_based", Tags: []string{"department", "team"}})
		}},
		{"allocation-accounts", func(ctx context.Context, s *Service) (any, error) {
			return s.AllocateCosts(ctx, model.AllocationRules{Method: "account", Start: "2025-12-14", End: "2026-03-02",
				Accounts: map[string]string{"123456789012": "shop", "shop-prod-4821": "shop", "prod-compartment": "core"}})
		}},
		{"alerts", func(ctx context.Context, s *Service) (any, error) { return s.Alerts(ctx) }},
		{"series", func(ctx context.Context, s *Service) (any, error) {
			m, cur, err := s.DailySeries(ctx, "2025-05-01", "2026-06-09", "")
			return map[string]any{"series": m, "currency": cur}, err
		}},
	}
	runGolden(t, s, "demo", cases)
}

func TestGoldenRealSamples(t *testing.T) {
	cfg := config.Default()
	cfg.Currency.Rates = map[string]float64{"CAD": 0.73} // the Azure sample bills in CAD
	s := openFresh(t, cfg)
	ctx := adminCtx()
	var paths []string
	for _, f := range []string{"aws-cur-legacy-sample.csv", "azure-ea-export-sample.csv", "focus-1.0-sample-aws-azure-oci.csv", "oci-cost-report-sample.csv"} {
		paths = append(paths, sharedFile(t, f))
	}
	res, err := s.ImportFiles(ctx, paths, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var rules = model.AllocationRules{Method: "tag_based", Tags: []string{"user:Project", "Environment", "project"},
		Start: "2023-09-01", End: "2024-09-30"}
	cases := []goldenCase{
		{"import", func(context.Context, *Service) (any, error) {
			for i := range res.Files {
				res.Files[i].Path = filepath.Base(res.Files[i].Path)
			}
			return res, nil
		}},
		costCase("costs-all", model.CostQuery{Period: dates(t, "2023-08-01", "2024-10-31")}),
		costCase("costs-2023-11", model.CostQuery{Period: dates(t, "2023-11-01", "2023-11-30"), Metric: model.MetricEffective}),
		costCase("costs-2024-09-list", model.CostQuery{Period: dates(t, "2024-09-03", "2024-09-21"), Metric: model.MetricList}),
		{"allocation", func(ctx context.Context, s *Service) (any, error) { return s.AllocateCosts(ctx, rules) }},
	}
	runGolden(t, s, "real", cases)
}

var refreshedAt = regexp.MustCompile(`"refreshed_at": "[^"]*"`)

func runGolden(t *testing.T, s *Service, set string, cases []goldenCase) {
	t.Helper()
	ctx := adminCtx()
	dir := filepath.Join("testdata", "golden")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := c.run(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(v, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			// When the history was stored is the test's wall clock.
			got = refreshedAt.ReplaceAll(got, []byte(`"refreshed_at": "(stored)"`))
			path := filepath.Join(dir, set+"-"+c.name+".json")
			if *updateGolden {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("golden answer missing (run with -update): %v", err)
			}
			var a, b any
			if err := json.Unmarshal(got, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &b); err != nil {
				t.Fatal(err)
			}
			var diffs []string
			sameJSON("$", a, b, &diffs)
			if len(diffs) > 0 {
				if len(diffs) > 20 {
					diffs = append(diffs[:20], fmt.Sprintf("... and %d more", len(diffs)-20))
				}
				t.Errorf("answer differs from %s:\n%s", path, joinLines(diffs))
			}
		})
	}
}

// sameJSON compares decoded JSON; numbers may differ by 1e-9 relative,
// because float sums in another order round differently in the last bits.
func sameJSON(path string, got, want any, diffs *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: got %T, want object", path, got))
			return
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			sameJSON(path+"."+k, g[k], w[k], diffs)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*diffs = append(*diffs, fmt.Sprintf("%s: got %s, want %d items", path, short(got), len(w)))
			return
		}
		for i := range w {
			sameJSON(fmt.Sprintf("%s[%d]", path, i), g[i], w[i], diffs)
		}
	case float64:
		g, ok := got.(float64)
		if !ok || math.Abs(g-w) > 1e-9*math.Max(1, math.Max(math.Abs(g), math.Abs(w))) {
			*diffs = append(*diffs, fmt.Sprintf("%s: got %v, want %v", path, got, w))
		}
	default:
		if fmt.Sprint(got) != fmt.Sprint(want) {
			*diffs = append(*diffs, fmt.Sprintf("%s: got %s, want %s", path, short(got), short(want)))
		}
	}
}

func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}

func joinLines(l []string) string {
	out := ""
	for _, s := range l {
		out += "  " + s + "\n"
	}
	return out
}
