package monitor

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Health statuses.
const (
	StatusOK      = "ok"
	StatusWarning = "warning"
	StatusError   = "error"
)

// StaleAfterDays: newest data older than this many days before yesterday
// is stale (clouds bill a day or two late).
const StaleAfterDays = 2

// MaxSyncAge is how old the last successful sync or import of a live or
// export provider may be before health warns.
const MaxSyncAge = 7 * 24 * time.Hour

// ProviderChecks are an enabled provider's lines: reachable (or, for
// export, its files present), and for live and export sources the age of
// the newest data and of the last successful sync or import. Only an
// unreachable provider is an error; old data is a warning, so a fresh
// install is never unhealthy for it. exportPaths are the provider's
// export_paths; yday is the newest day that can be billed.
func ProviderChecks(d model.ProviderDetail, exportPaths []string, yday string, now time.Time) []model.HealthCheck {
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
		paths := exportPaths
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
	y, _ := time.Parse(model.DateLayout, yday)
	if age := int(y.Sub(last).Hours() / 24); age > StaleAfterDays {
		status = StatusWarning
		msgs = append(msgs, fmt.Sprintf("newest data is from %s, %d days old", d.LastDay, age))
	} else {
		msgs = append(msgs, "data up to "+d.LastDay)
	}
	if t, err := time.Parse(time.RFC3339, d.LastSync); err == nil {
		age := now.Sub(t)
		if age > MaxSyncAge {
			status = StatusWarning
		}
		msgs = append(msgs, fmt.Sprintf("last successful %s %s ago (%s)", what, RoundAge(age), d.LastSync))
	}
	add("data_"+k, status, strings.Join(msgs, "; "))
	return out
}

// RoundAge prints an age in days, hours or minutes.
func RoundAge(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	case d >= time.Hour:
		return fmt.Sprintf("%d hours", int(d.Hours()))
	}
	return fmt.Sprintf("%d minutes", max(int(d.Minutes()), 0))
}

// NotificationCheck says whether alerts can be sent when notifications
// are on: a webhook URL must be set and be http(s).
func NotificationCheck(url string) model.HealthCheck {
	c := model.HealthCheck{Name: "notifications", Status: StatusOK, Message: "alerts go to " + RedactURL(url)}
	switch {
	case strings.TrimSpace(url) == "":
		c.Status, c.Message = StatusWarning, "dashboard.features.notifications is on but alerts.webhook_url is not set"
	case !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://"):
		c.Status, c.Message = StatusWarning, "alerts.webhook_url must be an http or https URL"
	}
	return c
}

// FreeSpace returns the bytes available at path or its nearest existing
// parent (the output dir may not exist yet).
func FreeSpace(path string) (uint64, error) {
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
	return freeBytes(p)
}

// ProviderAlerts reports enabled providers that are not connected or whose
// newest data is stale. The demo is always fresh.
func ProviderAlerts(details []model.ProviderDetail, yday string, now time.Time) []model.Alert {
	var out []model.Alert
	at := now.UTC().Format(time.RFC3339)
	y, _ := time.Parse(model.DateLayout, yday)
	for _, d := range details {
		if !d.Enabled {
			continue
		}
		if !d.Connected || d.Error != "" {
			// The id holds a digest of the error, so a different failure
			// is a new alert and the same one is not repeated.
			h := sha256.Sum256([]byte(d.Error))
			out = append(out, model.Alert{
				ID: fmt.Sprintf("provider:%s:%s", d.Provider, hex.EncodeToString(h[:4])), Kind: KindProvider,
				Severity: SeverityCritical, Provider: d.Provider, Time: at,
				Message: fmt.Sprintf("Provider %s (%s) is failing: %s", d.Provider, d.Source, d.Error),
				Details: map[string]any{"source": d.Source, "error": d.Error, "last_sync": d.LastSync},
			})
			continue
		}
		if d.Source == model.SourceDemo {
			continue
		}
		if d.LastDay == "" {
			out = append(out, model.Alert{
				ID: fmt.Sprintf("stale_data:%s:none", d.Provider), Kind: KindStaleData, Severity: SeverityWarning,
				Provider: d.Provider, Time: at, Details: map[string]any{"source": d.Source},
				Message: fmt.Sprintf("Provider %s (%s) has no cost data yet: run costpilot sync or import", d.Provider, d.Source),
			})
			continue
		}
		last, err := time.Parse(model.DateLayout, d.LastDay)
		if err != nil {
			continue
		}
		if age := int(y.Sub(last).Hours() / 24); age > StaleAfterDays {
			out = append(out, model.Alert{
				ID: fmt.Sprintf("stale_data:%s:%s", d.Provider, d.LastDay), Kind: KindStaleData, Severity: SeverityWarning,
				Provider: d.Provider, Time: at,
				Details: map[string]any{"source": d.Source, "last_day": d.LastDay, "age_days": age, "last_sync": d.LastSync},
				Message: fmt.Sprintf("Provider %s (%s): the newest cost data is from %s, %d days old", d.Provider, d.Source, d.LastDay, age),
			})
		}
	}
	return out
}

// RedactURL keeps the scheme and host of a webhook URL: its path is the
// secret of a Slack hook and must not reach logs or the audit log.
func RedactURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "(webhook)"
	}
	host, _, _ := strings.Cut(rest, "/")
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	return scheme + "://" + host
}
