package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
)

// Health statuses.
const (
	StatusOK      = monitor.StatusOK
	StatusWarning = monitor.StatusWarning
	StatusError   = monitor.StatusError
)

// minFreeBytes is the free space below which the disk check fails.
const minFreeBytes = 100 << 20

// CheckHealth is check_health: database writable, cache usable, disk space
// for the data and output dirs, each enabled provider reachable (for
// export providers, their files present), the age of the newest data and
// of the last successful sync or import, and, with notifications on, a
// usable webhook. Only errors make the result unhealthy; stale data is a
// warning.
func (s *Service) CheckHealth(ctx context.Context) model.Health {
	var checks []model.HealthCheck
	add := func(name, status, msg string) {
		checks = append(checks, model.HealthCheck{Name: name, Status: status, Message: msg})
	}
	if err := s.store.Ping(ctx); err != nil {
		add("database", StatusError, "not writable: "+err.Error())
	} else if res, err := s.store.IntegrityCheck(ctx); err != nil || res != "ok" {
		add("database", StatusError, fmt.Sprintf("integrity check: %s %v", res, err))
	} else {
		add("database", StatusOK, s.store.Path())
	}
	if err := s.cache.Check(); err != nil {
		add("cache", StatusError, err.Error())
	} else {
		add("cache", StatusOK, fmt.Sprintf("hit rate %.0f%%", 100*s.cache.HitRate()))
	}
	for _, d := range []struct{ name, path string }{{"disk_data", s.dataDir}, {"disk_output", s.OutputDir()}} {
		free, err := monitor.FreeSpace(d.path)
		switch {
		case err != nil:
			add(d.name, StatusWarning, err.Error())
		case free < minFreeBytes:
			add(d.name, StatusError, fmt.Sprintf("%s: only %d MB free", d.path, free>>20))
		default:
			add(d.name, StatusOK, fmt.Sprintf("%s: %d MB free", d.path, free>>20))
		}
	}
	details, err := s.providerDetails(ctx)
	if err != nil {
		add("providers", StatusError, apperr.Text(err))
	}
	for _, d := range details {
		if d.Enabled {
			checks = append(checks, monitor.ProviderChecks(d, s.cfg.Provider(d.Provider).ExportPaths, yesterday(s.now()), s.now())...)
		}
	}
	if s.cfg.Dashboard.Features.Notifications {
		checks = append(checks, monitor.NotificationCheck(s.cfg.Alerts.WebhookURL))
	}
	h := model.Health{Status: "healthy", Checks: checks}
	for _, c := range checks {
		if c.Status == StatusError {
			h.Status = "unhealthy"
			break
		}
		if c.Status == StatusWarning {
			h.Status = "degraded"
		}
	}
	return h
}

// Info describes the installation, for `costpilot info`.
type Info struct {
	Version    string          `json:"version"`
	ConfigPath string          `json:"config_path"`
	DataDir    string          `json:"data_dir"`
	Database   string          `json:"database"`
	OutputDir  string          `json:"output_dir"`
	Providers  []ProviderInfo  `json:"providers"`
	Connectors []string        `json:"connectors"`
	Features   map[string]bool `json:"features"`
	Currency   string          `json:"currency"`
	Schema     int             `json:"schema_version"`
}

// ProviderInfo is one provider's line of Info.
type ProviderInfo struct {
	Provider model.ProviderKey `json:"provider"`
	Enabled  bool              `json:"enabled"`
	Source   model.SourceKind  `json:"source"`
	FirstDay string            `json:"first_day,omitempty"`
	LastDay  string            `json:"last_day,omitempty"`
	Lines    int64             `json:"lines"`
}

// Info returns Info.
func (s *Service) Info(ctx context.Context) (Info, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return Info{}, err
	}
	cp := s.cfgPath
	if cp == "" {
		cp = "(none: built-in defaults)"
	}
	f := s.cfg.Dashboard.Features
	in := Info{Version: Version, ConfigPath: cp, DataDir: s.dataDir, Database: s.store.Path(), OutputDir: s.OutputDir(),
		Connectors: s.reg.Sources(), Currency: s.cfg.Currency.Base,
		Features: map[string]bool{"real_time_updates": f.RealTimeUpdates, "interactive_charts": f.InteractiveCharts,
			"export_reports": f.ExportReports, "notifications": f.Notifications}}
	v, err := s.store.SchemaVersion(ctx)
	if err != nil {
		return in, err
	}
	in.Schema = v
	stats, err := s.store.Stats(ctx)
	if err != nil {
		return in, err
	}
	for _, k := range s.knownProviders() {
		ps := s.cfg.Provider(k)
		pi := ProviderInfo{Provider: k, Enabled: ps.Enabled, Source: ps.Source}
		if ps.Enabled || !k.Cloud() {
			pi.Enabled, pi.Source = true, s.source(ctx, k)
		}
		for _, h := range stats {
			if h.Provider == k && h.Source == pi.Source {
				pi.FirstDay, pi.LastDay, pi.Lines = h.FirstDay, h.LastDay, h.Lines
			}
		}
		in.Providers = append(in.Providers, pi)
	}
	return in, nil
}

// CleanupResult says what cleanup removed.
type CleanupResult struct {
	CacheEntries int   `json:"cache_entries"`
	Results      int64 `json:"saved_results"`
	Reports      int   `json:"reports"`
}

// ClearCache empties the shared cache and tells running dashboards to
// drop the answers they keep in memory (by moving the history version).
func (s *Service) ClearCache(ctx context.Context) (CleanupResult, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return CleanupResult{}, err
	}
	n, err := s.cache.Clear()
	if err != nil {
		return CleanupResult{}, err
	}
	return CleanupResult{CacheEntries: n}, s.store.BumpHistoryVersion(ctx)
}

// DeleteResults removes saved runs and results, and the report files
// costpilot wrote in the output dir (only files named costpilot-*).
func (s *Service) DeleteResults(ctx context.Context) (CleanupResult, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return CleanupResult{}, err
	}
	var res CleanupResult
	n, err := s.store.DeleteResults(ctx)
	if err != nil {
		return res, err
	}
	res.Results = n
	entries, err := os.ReadDir(s.OutputDir())
	if err != nil && !os.IsNotExist(err) {
		return res, fmt.Errorf("service: list reports: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasPrefix(e.Name(), "costpilot-") {
			continue
		}
		if err := os.Remove(filepath.Join(s.OutputDir(), e.Name())); err != nil {
			return res, fmt.Errorf("service: remove report: %w", err)
		}
		res.Reports++
	}
	return res, nil
}
