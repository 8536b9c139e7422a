package service

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

func openAt(t *testing.T, dir string, cfg *config.Config) *Service {
	t.Helper()
	if cfg == nil {
		cfg = config.Default()
	}
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: dir, Now: func() time.Time { return testNow },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func finite(m model.PerformanceMetrics) bool {
	for _, v := range []float64{m.CacheHitRate, m.AverageResponseTime, m.ErrorRate, m.MemoryUsage, m.CPUUsage} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return false
		}
	}
	return m.CacheHitRate <= 1 && m.ErrorRate <= 1 && m.MemoryUsage < 1 && m.CPUUsage <= 1
}

func TestMetricsChangeAndPersist(t *testing.T) {
	ctx := adminCtx()
	dir := t.TempDir()
	s := openAt(t, dir, nil)
	m, err := s.PerformanceMetrics(ctx)
	if err != nil || !finite(m) || m.TotalRequests != 0 || m.ErrorRate != 0 || m.AverageResponseTime != 0 || m.CacheHitRate != 0 {
		t.Fatalf("fresh metrics %+v %v", m, err)
	}
	// Resident memory in bytes: a Go process holds at least a few MB, and
	// the fraction agrees with it.
	if m.MemoryUsage <= 0 || m.MemoryBytes < 1<<20 || m.MemoryBytes > 64<<30 {
		t.Fatalf("memory of the process is not measured: %+v", m)
	}
	s.RecordRequest(100*time.Millisecond, false)
	s.RecordRequest(300*time.Millisecond, false)
	s.RecordRequest(200*time.Millisecond, true)
	_ = s.Cache().Put("t", "k", []byte("v"), time.Hour)
	s.Cache().Get("t", "k")       // hit
	s.Cache().Get("t", "missing") // miss
	s.Cache().Get("t", "k")       // hit
	m, err = s.PerformanceMetrics(ctx)
	if err != nil || !finite(m) {
		t.Fatalf("%+v %v", m, err)
	}
	if m.TotalRequests != 3 || !near(m.ErrorRate, 1.0/3, 1e-9) || !near(m.AverageResponseTime, 0.2, 1e-9) || !near(m.CacheHitRate, 2.0/3, 1e-9) {
		t.Fatalf("after requests %+v", m)
	}
	if err := s.FlushMetrics(ctx); err != nil {
		t.Fatal(err)
	}
	// Flushing moves counts from memory to the store, never doubling them.
	if m2, _ := s.PerformanceMetrics(ctx); m2.TotalRequests != 3 || m2.CacheHitRate != m.CacheHitRate {
		t.Fatalf("after flush %+v", m2)
	}
	s.RecordRequest(400*time.Millisecond, false)
	if err := s.FlushMetrics(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// A new process (the CLI with no server running) sees the persisted
	// counters and its own process figures.
	s2 := openAt(t, dir, nil)
	defer s2.Close()
	m, err = s2.PerformanceMetrics(ctx)
	if err != nil || !finite(m) || m.TotalRequests != 4 || !near(m.ErrorRate, 0.25, 1e-9) || !near(m.AverageResponseTime, 0.25, 1e-9) || !near(m.CacheHitRate, 2.0/3, 1e-9) {
		t.Fatalf("reopened %+v %v", m, err)
	}
	r, err := s2.Metrics(ctx)
	if err != nil || r.SinceStart.Requests != 0 || len(r.Days) != 1 || r.Days[0].Day != "2026-06-10" || r.Days[0].Requests != 4 || r.TotalRequests != 4 {
		t.Fatalf("report %+v %v", r, err)
	}
}

func TestFlushFailureKeepsCounts(t *testing.T) {
	ctx := adminCtx()
	s := openAt(t, t.TempDir(), nil)
	s.RecordRequest(time.Second, false)
	s.store.Close() // the store goes away under the flush
	if err := s.FlushMetrics(ctx); err == nil {
		t.Fatal("flush to a closed store succeeded")
	}
	if snap := s.counters.Snapshot(); snap.Requests != 1 {
		t.Fatalf("since-start counters %+v", snap)
	}
	s.cache.Close()
}

func TestEachProviderRunsInParallel(t *testing.T) {
	ctx := adminCtx()
	tests := []struct {
		workers  int
		min, max time.Duration
	}{
		{4, 0, 350 * time.Millisecond},
		{1, 400 * time.Millisecond, 5 * time.Second},
	}
	for _, tt := range tests {
		cfg := config.Default()
		cfg.Performance.Parallel.MaxWorkers = tt.workers
		s := openAt(t, t.TempDir(), cfg)
		var running, peak atomic.Int32
		start := time.Now()
		res, err := s.syncParallel(ctx, model.AllProviders, func(ctx context.Context, k model.ProviderKey) (SyncResult, error) {
			n := running.Add(1)
			defer running.Add(-1)
			if n > peak.Load() {
				peak.Store(n)
			}
			time.Sleep(100 * time.Millisecond)
			if k == model.Azure || k == model.OCI {
				return SyncResult{}, errors.New("unreachable")
			}
			return SyncResult{Provider: k, Lines: 1}, nil
		})
		took := time.Since(start)
		if took < tt.min || took > tt.max || int(peak.Load()) > tt.workers {
			t.Fatalf("%d workers: took %v, peak %d", tt.workers, took, peak.Load())
		}
		e, ok := apperr.As(err)
		if !ok || e.Kind != apperr.Provider || len(e.Details) != 2 || e.Details["azure"] == nil || e.Details["oci"] == nil {
			t.Fatalf("error %v", err)
		}
		if len(res) != 4 || res[0].Provider != model.AWS || res[0].Lines != 1 || res[1].Provider != model.Azure || res[1].Error == "" || res[2].Error != "" {
			t.Fatalf("results %+v", res)
		}
		s.Close()
	}
}

func TestHealthOfExportProvider(t *testing.T) {
	ctx := adminCtx()
	dir := t.TempDir()
	export := filepath.Join(dir, "exports")
	if err := os.MkdirAll(export, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse([]byte("aws:\n  enabled: true\n  region: us-east-1\n  source: export\n  export_paths: ["+
		filepath.Join(export, "*.csv")+"]\ngcp:\n  enabled: true\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dashboard.Features.Notifications = true
	s := openAt(t, filepath.Join(dir, "data"), cfg)
	defer s.Close()
	status := func(h model.Health, name string) string {
		for _, c := range h.Checks {
			if c.Name == name {
				return c.Status
			}
		}
		return "absent"
	}
	tests := []struct {
		name   string
		setup  func()
		health string
		checks map[string]string
	}{
		{"no export files and nothing imported: unhealthy", func() {}, "unhealthy",
			map[string]string{"provider_aws": StatusError, "export_files_aws": StatusError, "provider_gcp": StatusOK, "notifications": StatusWarning}},
		{"a file present but not imported yet: degraded", func() {
			if err := os.WriteFile(filepath.Join(export, "cur.csv"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "degraded", map[string]string{"provider_aws": StatusOK, "export_files_aws": StatusOK, "data_aws": StatusWarning}},
		{"imported data up to yesterday: the data check passes", func() {
			b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-06-01", To: "2026-06-09",
				Lines: []model.CostLine{{Day: "2026-06-09", Service: "AmazonEC2", Billed: model.NanosFromFloat(5)}}}
			if err := s.store.ReplaceHistory(ctx, b); err != nil {
				t.Fatal(err)
			}
		}, "degraded", map[string]string{"data_aws": StatusOK, "export_files_aws": StatusOK}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.setup()
			h := s.CheckHealth(ctx)
			if h.Status != tt.health {
				t.Fatalf("status %s: %+v", h.Status, h.Checks)
			}
			for name, want := range tt.checks {
				if got := status(h, name); got != want {
					t.Fatalf("%s is %s, want %s: %+v", name, got, want, h.Checks)
				}
			}
		})
	}
}

func TestDemoInstallIsHealthy(t *testing.T) {
	s := openDemo(t, nil)
	if h := s.CheckHealth(adminCtx()); h.Status != "healthy" {
		t.Fatalf("%+v", h)
	}
}
