package service

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestFleetYearRecommendations: a generated year of 5,000 resources whose
// lines carry real usage types, SKUs and meters (scripts/genfocus),
// imported from its FOCUS file with no live access: at least 90 % of the
// recommendations save money, the list is ordered by dollars, every
// provider has billing-only findings, and tagging is one item a provider.
// It needs a minute without the race detector: make test-go runs it
// there; under -race it is skipped.
func TestFleetYearRecommendations(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a 5,000-resource year: run without -race (make test-go does)")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "fleet.csv")
	end := yesterday(testNow)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	gen := exec.CommandContext(ctx, "go", "run", "./scripts/genfocus", "-daily", "-resources", "5000", "-days", "365", "-end", end, "-out", file)
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
	recs, err := s.GenerateRecommendations(actx)
	if err != nil {
		t.Fatal(err)
	}
	saving, tagging := 0, map[model.ProviderKey]int{}
	bill := map[model.ProviderKey]int{}
	for i, r := range recs {
		if r.PotentialSavings > 0 {
			saving++
		}
		if i > 0 && r.PotentialSavings > recs[i-1].PotentialSavings {
			t.Fatalf("not ordered by dollars at %d: %.2f after %.2f", i, r.PotentialSavings, recs[i-1].PotentialSavings)
		}
		if r.Type == model.RecCostAllocation {
			tagging[r.Provider]++
		}
		if r.Details["source"] == "bill" {
			bill[r.Provider]++
		}
	}
	if len(recs) < 500 || float64(saving) < 0.9*float64(len(recs)) {
		t.Fatalf("%d of %d recommendations save money, want at least 90 %%", saving, len(recs))
	}
	for _, p := range model.AllProviders {
		if bill[p] == 0 || tagging[p] > 1 {
			t.Errorf("%s: %d billing findings, %d tagging items", p, bill[p], tagging[p])
		}
	}
	// No utilization came with the bill: the notice says, per provider,
	// how many compute resources and how much money were not assessed.
	na, err := s.NotAssessed(actx)
	if err != nil {
		t.Fatal(err)
	}
	notAssessed := map[model.ProviderKey]model.NotAssessed{}
	for _, n := range na {
		notAssessed[n.Provider] = n
	}
	for _, p := range model.AllProviders {
		n := notAssessed[p]
		if n.Resources < 100 || n.MonthlyCost <= 0 || !strings.Contains(n.Message, "utilization") {
			t.Errorf("%s: not assessed %+v", p, n)
		}
	}
	t.Logf("%d recommendations, %d with savings, billing findings %v, not assessed %v", len(recs), saving, bill, na)
}
