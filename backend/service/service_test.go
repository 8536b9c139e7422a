package service

import (
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

var testNow = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

// openDemo opens a service on a copy of a database already holding the
// demo history for testNow, so each test skips the seeding (slow under
// -race) yet gets its own files.
func openDemo(t *testing.T, cfg *config.Config) *Service {
	t.Helper()
	dir := t.TempDir()
	src, err := demoTemplate()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, store.FileName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return openIn(t, cfg, dir)
}

// openFresh opens a service on an empty data dir.
func openFresh(t *testing.T, cfg *config.Config) *Service {
	t.Helper()
	return openIn(t, cfg, t.TempDir())
}

func openIn(t *testing.T, cfg *config.Config, dir string) *Service {
	t.Helper()
	if cfg == nil {
		cfg = config.Default()
	}
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: dir, Now: func() time.Time { return testNow },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), NoLive: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var demoTemplate = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "costpilot-demo-template-")
	if err != nil {
		return "", err
	}
	s, err := OpenWith(adminCtx(), config.Default(), Options{DataDir: dir, Now: func() time.Time { return testNow },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), NoLive: true})
	if err != nil {
		return "", err
	}
	if err := s.Refresh(adminCtx()); err != nil {
		s.Close()
		return "", err
	}
	// Closing checkpoints the WAL into the main file, which is all a copy needs.
	if err := s.Close(); err != nil {
		return "", err
	}
	return filepath.Join(dir, store.FileName), nil
})

func TestMain(m *testing.M) {
	if dir := os.Getenv(umaskChildEnv); dir != "" {
		os.Exit(privateFilesChild(dir)) // files_test.go
	}
	if dir := os.Getenv(crashChildEnv); dir != "" {
		os.Exit(auditCrashChild(dir, os.Getenv(crashChangeEnv))) // audit_atomic_test.go
	}
	code := m.Run()
	if p, err := demoTemplate(); err == nil {
		os.RemoveAll(filepath.Dir(p))
	}
	os.Exit(code)
}

func relClose(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-6*math.Max(math.Abs(a), math.Abs(b))
}

func TestAnalyzeCostsOnDemoData(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	p, err := s.PeriodForDays(30)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: p})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Summary.ProvidersAnalyzed, model.AllProviders) {
		t.Fatalf("providers %v", a.Summary.ProvidersAnalyzed)
	}
	var sum float64
	for _, k := range model.AllProviders {
		pc := a.Providers[k]
		sum += pc.TotalCost
		var daily, services float64
		for _, d := range pc.DailyCosts {
			daily += d.Cost
		}
		for _, v := range pc.ServiceBreakdown {
			services += v
		}
		if !relClose(daily, pc.TotalCost) || !relClose(services, pc.TotalCost) {
			t.Fatalf("%s: total %f, daily %f, services %f", k, pc.TotalCost, daily, services)
		}
		if len(pc.DailyCosts) != 30 || pc.DailyCosts[len(pc.DailyCosts)-1].Date != "2026-06-09" {
			t.Fatalf("%s: %d daily points ending %v", k, len(pc.DailyCosts), pc.DailyCosts[len(pc.DailyCosts)-1])
		}
		if len(pc.Resources) == 0 || pc.Resources[0].Cost < pc.Resources[len(pc.Resources)-1].Cost {
			t.Fatalf("%s: resources not sorted by cost", k)
		}
	}
	if !relClose(sum, a.Summary.TotalCost) || a.Summary.TotalCost <= 0 {
		t.Fatalf("provider totals %f != summary %f", sum, a.Summary.TotalCost)
	}
	if a.Summary.AnalysisPeriod.StartDate != "2026-05-11T00:00:00" || a.Summary.AnalysisPeriod.EndDate != "2026-06-09T23:59:59" {
		t.Fatalf("period %+v", a.Summary.AnalysisPeriod)
	}
	// A second run gives the same numbers; the demo was not regenerated.
	b, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: p})
	if err != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("second run differs: %v", err)
	}
	// Filters narrow the result.
	f, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: p, Provider: model.GCP, TagKey: "team", TagValue: "data"})
	if err != nil || len(f.Summary.ProvidersAnalyzed) != 1 || f.Summary.TotalCost <= 0 || f.Summary.TotalCost >= a.Providers[model.GCP].TotalCost {
		t.Fatalf("filtered: %v %+v", err, f.Summary)
	}
	eff, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: p, Metric: model.MetricEffective})
	if err != nil || eff.Summary.TotalCost >= a.Summary.TotalCost {
		t.Fatalf("effective %v should be below billed %v (commitment coverage): %v", eff.Summary.TotalCost, a.Summary.TotalCost, err)
	}
}

func TestAnalyzeValidation(t *testing.T) {
	s := openDemo(t, nil)
	for _, n := range []int{0, -1, 366} {
		if _, err := s.PeriodForDays(n); apperr.KindOf(err) != apperr.Validation {
			t.Fatalf("days %d: %v", n, err)
		}
	}
	if _, err := PeriodForDates("2026-02-01", "2026-01-01"); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("reversed dates: %v", err)
	}
	if _, err := s.AnalyzeCosts(adminCtx(), model.CostQuery{Provider: "ibm"}); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("unknown provider: %v", err)
	}
}

func TestDisabledProviderIsAbsent(t *testing.T) {
	cfg, err := config.Parse([]byte("aws:\n  enabled: true\n  region: us-east-1\ngcp:\n  enabled: true\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := openDemo(t, cfg)
	a, err := s.AnalyzeCosts(adminCtx(), model.CostQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Summary.ProvidersAnalyzed, []model.ProviderKey{model.AWS, model.GCP}) || len(a.Providers) != 2 {
		t.Fatalf("providers %v", a.Summary.ProvidersAnalyzed)
	}
	st, err := s.ProviderStatus(adminCtx())
	if err != nil || len(st) != 2 || !st[model.AWS] {
		t.Fatalf("status %v %v", st, err)
	}
}

func TestHealthOnFreshDemo(t *testing.T) {
	s := openDemo(t, nil)
	h := s.CheckHealth(adminCtx())
	if h.Status == "unhealthy" {
		t.Fatalf("fresh demo unhealthy: %+v", h)
	}
}
