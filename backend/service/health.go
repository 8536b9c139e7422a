package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Health statuses.
const (
	StatusOK      = "ok"
	StatusWarning = "warning"
	StatusError   = "error"
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
		free, err := freeSpace(d.path)
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
			checks = append(checks, s.providerChecks(d, s.now())...)
		}
	}
	if s.cfg.Dashboard.Features.Notifications {
		checks = append(checks, notificationCheck(s.cfg.Alerts.WebhookURL))
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

// maxSyncAge is how old the last successful sync or import of a live or
// export provider may be before health warns.
const maxSyncAge = 7 * 24 * time.Hour

// providerChecks are an enabled provider's lines: reachable (or, for
// export, its files present), and for live and export sources the age of
// the newest data and of the last successful sync or import. Only an
// unreachable provider is an error; old data is a warning, so a fresh
// install is never unhealthy for it.
func (s *Service) providerChecks(d model.ProviderDetail, now time.Time) []model.HealthCheck {
	k := string(d.Provider)
	var out []model.HealthCheck
	add := func(name, status, msg string) {
		out = append(out, model.HealthCheck{Name: name, Status: status, Message: msg})
	}
	switch {
	case !d.Connected:
		add("provider_"+k, StatusError, d.Error)
	case d.Error != "":
		add("provider_"+k, StatusWarning, fmt.Sprintf("%s source answers, but %s", d.Source, d.Error))
	case d.Source == model.SourceDemo:
		add("provider_"+k, StatusOK, "demo data")
	default:
		add("provider_"+k, StatusOK, fmt.Sprintf("%s source answers", d.Source))
	}
	if d.Source == model.SourceDemo {
		return out
	}
	if d.Source == model.SourceExport {
		paths := s.cfg.Provider(d.Provider).ExportPaths
		n := 0
		for _, pat := range paths {
			m, _ := filepath.Glob(pat)
			n += len(m)
		}
		switch {
		case len(paths) == 0:
			add("export_files_"+k, StatusOK, "no export_paths configured; data comes from costpilot import")
		case n == 0 && d.Connected:
			add("export_files_"+k, StatusWarning, fmt.Sprintf("no file matches %s.export_paths %v; showing imported data", k, paths))
		case n == 0:
			add("export_files_"+k, StatusError, fmt.Sprintf("no file matches %s.export_paths %v", k, paths))
		default:
			add("export_files_"+k, StatusOK, fmt.Sprintf("%d files match %s.export_paths", n, k))
		}
	}
	if d.LastDay == "" {
		add("data_"+k, StatusWarning, "no cost data yet: run costpilot sync or import")
		return out
	}
	what := "sync"
	if d.Source == model.SourceExport {
		what = "import"
	}
	var msgs []string
	status := StatusOK
	last, _ := time.Parse(model.DateLayout, d.LastDay)
	y, _ := time.Parse(model.DateLayout, yesterday(now))
	if age := int(y.Sub(last).Hours() / 24); age > staleAfterDays {
		status = StatusWarning
		msgs = append(msgs, fmt.Sprintf("newest data is from %s, %d days old", d.LastDay, age))
	} else {
		msgs = append(msgs, "data up to "+d.LastDay)
	}
	if t, err := time.Parse(time.RFC3339, d.LastSync); err == nil {
		age := now.Sub(t)
		if age > maxSyncAge {
			status = StatusWarning
		}
		msgs = append(msgs, fmt.Sprintf("last successful %s %s ago (%s)", what, roundAge(age), d.LastSync))
	}
	add("data_"+k, status, strings.Join(msgs, "; "))
	return out
}

// roundAge prints an age in days, hours or minutes.
func roundAge(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	case d >= time.Hour:
		return fmt.Sprintf("%d hours", int(d.Hours()))
	}
	return fmt.Sprintf("%d minutes", max(int(d.Minutes()), 0))
}

// notificationCheck says whether alerts can be sent when notifications
// are on: a webhook URL must be set and be http(s).
func notificationCheck(url string) model.HealthCheck {
	c := model.HealthCheck{Name: "notifications", Status: StatusOK, Message: "alerts go to " + redactURL(url)}
	switch {
	case strings.TrimSpace(url) == "":
		c.Status, c.Message = StatusWarning, "dashboard.features.notifications is on but alerts.webhook_url is not set"
	case !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://"):
		c.Status, c.Message = StatusWarning, "alerts.webhook_url must be an http or https URL"
	}
	return c
}

// freeSpace returns the bytes available at path or its nearest existing
// parent (the output dir may not exist yet).
func freeSpace(path string) (uint64, error) {
	p := path
	for {
		if _, err := os.Stat(p); err == nil {
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return 0, fmt.Errorf("statfs %s: %w", p, err)
	}
	return st.Bavail * uint64(st.Bsize), nil
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
	for _, k := range model.AllProviders {
		ps := s.cfg.Provider(k)
		pi := ProviderInfo{Provider: k, Enabled: ps.Enabled, Source: ps.Source}
		if ps.Enabled {
			pi.Source = s.source(ctx, k)
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
