package monitor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

var healthNow = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

const healthYesterday = "2026-06-09"

func TestProviderAndStaleAlerts(t *testing.T) {
	details := []model.ProviderDetail{
		{Provider: model.AWS, Enabled: true, Source: model.SourceAPI, Connected: false, Error: "aws: credential check: expired token"},
		{Provider: model.Azure, Enabled: true, Source: model.SourceExport, Connected: true, LastDay: "2026-05-30"},
		{Provider: model.GCP, Enabled: true, Source: model.SourceAPI, Connected: true, LastDay: "2026-06-08"},
		{Provider: model.OCI, Enabled: true, Source: model.SourceDemo, Connected: true, LastDay: "2026-01-01"},
	}
	got := ProviderAlerts(details, healthYesterday, healthNow)
	if len(got) != 2 || got[0].Kind != KindProvider || got[0].Severity != SeverityCritical ||
		!strings.HasPrefix(got[0].ID, "provider:aws:") || got[1].ID != "stale_data:azure:2026-05-30" {
		t.Fatalf("alerts %+v", got)
	}
	// Another error is another alert.
	details[0].Error = "aws: throttled"
	if other := ProviderAlerts(details, healthYesterday, healthNow); other[0].ID == got[0].ID {
		t.Fatal("a different failure kept the id")
	}
	// A provider not enabled, and one without data yet.
	none := ProviderAlerts([]model.ProviderDetail{
		{Provider: model.AWS, Enabled: false, Connected: false, Error: "off"},
		{Provider: model.GCP, Enabled: true, Source: model.SourceAPI, Connected: true},
	}, healthYesterday, healthNow)
	if len(none) != 1 || none[0].ID != "stale_data:gcp:none" {
		t.Fatalf("alerts %+v, want only gcp's missing data", none)
	}
}

func TestProviderChecks(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cur.csv"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	syncedLongAgo := healthNow.Add(-8 * 24 * time.Hour).Format(time.RFC3339)
	syncedRecently := healthNow.Add(-3 * time.Hour).Format(time.RFC3339)
	tests := []struct {
		name  string
		d     model.ProviderDetail
		paths []string
		want  map[string]string // check name → status
	}{
		{name: "demo", d: model.ProviderDetail{Provider: model.AWS, Source: model.SourceDemo, Connected: true},
			want: map[string]string{"provider_aws": StatusOK}},
		{name: "unreachable", d: model.ProviderDetail{Provider: model.AWS, Source: model.SourceAPI, Error: "denied"},
			want: map[string]string{"provider_aws": StatusError, "data_aws": StatusWarning}},
		{name: "fresh", d: model.ProviderDetail{Provider: model.GCP, Source: model.SourceAPI, Connected: true, LastDay: "2026-06-08", LastSync: syncedRecently},
			want: map[string]string{"provider_gcp": StatusOK, "data_gcp": StatusOK}},
		{name: "stale data", d: model.ProviderDetail{Provider: model.GCP, Source: model.SourceAPI, Connected: true, LastDay: "2026-06-01", LastSync: syncedRecently},
			want: map[string]string{"provider_gcp": StatusOK, "data_gcp": StatusWarning}},
		{name: "old sync", d: model.ProviderDetail{Provider: model.GCP, Source: model.SourceAPI, Connected: true, LastDay: "2026-06-08", LastSync: syncedLongAgo},
			want: map[string]string{"provider_gcp": StatusOK, "data_gcp": StatusWarning}},
		{name: "export files found", d: model.ProviderDetail{Provider: model.Azure, Source: model.SourceExport, Connected: true, LastDay: "2026-06-08"},
			paths: []string{filepath.Join(dir, "*.csv")}, want: map[string]string{"provider_azure": StatusOK, "export_files_azure": StatusOK, "data_azure": StatusOK}},
		{name: "export files gone, data imported", d: model.ProviderDetail{Provider: model.Azure, Source: model.SourceExport, Connected: true, LastDay: "2026-06-08"},
			paths: []string{filepath.Join(dir, "*.parquet")}, want: map[string]string{"provider_azure": StatusOK, "export_files_azure": StatusWarning, "data_azure": StatusOK}},
		{name: "export files gone", d: model.ProviderDetail{Provider: model.Azure, Source: model.SourceExport, Error: "no files"},
			paths: []string{filepath.Join(dir, "*.parquet")}, want: map[string]string{"provider_azure": StatusError, "export_files_azure": StatusError, "data_azure": StatusWarning}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]string{}
			for _, c := range ProviderChecks(tt.d, tt.paths, healthYesterday, healthNow) {
				got[c.Name] = c.Status
			}
			if len(got) != len(tt.want) {
				t.Fatalf("checks %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q (all: %v)", k, got[k], v, got)
				}
			}
		})
	}
}

func TestRoundAge(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Minute, "0 minutes"},
		{59 * time.Minute, "59 minutes"},
		{47 * time.Hour, "47 hours"},
		{50 * time.Hour, "2 days"},
	}
	for _, tt := range tests {
		if got := RoundAge(tt.d); got != tt.want {
			t.Errorf("RoundAge(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestNotificationCheckAndRedactURL(t *testing.T) {
	const hook = "https://hooks.slack.com/services/T000/B000/secret"
	if got := RedactURL(hook); got != "https://hooks.slack.com" {
		t.Errorf("RedactURL = %q", got)
	}
	if got := RedactURL("https://user:pw@example.com/x"); got != "https://example.com" {
		t.Errorf("RedactURL with credentials = %q", got)
	}
	if RedactURL("not a url") != "(webhook)" {
		t.Error("a value that is no URL is not shown")
	}
	tests := []struct {
		url    string
		status string
	}{
		{hook, StatusOK},
		{"  ", StatusWarning},
		{"ftp://example.com/hook", StatusWarning},
	}
	for _, tt := range tests {
		c := NotificationCheck(tt.url)
		if c.Status != tt.status || strings.Contains(c.Message, "secret") {
			t.Errorf("NotificationCheck(%q) = %+v, want %s without the secret path", tt.url, c, tt.status)
		}
	}
}

func TestFreeSpaceOfAFolderNotYetMade(t *testing.T) {
	free, err := FreeSpace(filepath.Join(t.TempDir(), "not", "yet"))
	if err != nil || free == 0 {
		t.Errorf("FreeSpace = %d, %v; want the free bytes of the nearest existing parent", free, err)
	}
}
