package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestSyncUsage: --days and --start/--end are alternatives, --end needs
// --start, and a bad span is refused: exit 2, nothing on stdout.
func TestSyncUsage(t *testing.T) {
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	today := time.Now().UTC().Format(model.DateLayout)
	tests := []struct {
		name string
		args []string
		says string
	}{
		{"days and start", []string{"--days", "5", "--start", "2026-01-01"}, "--days"},
		{"days and end", []string{"--days", "5", "--end", "2026-01-01"}, "--days"},
		{"end alone", []string{"--end", "2026-01-01"}, "--start"},
		{"not a date", []string{"--start", "2026-13-01"}, "start"},
		{"today is not over", []string{"--start", "2026-01-01", "--end", today}, "end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, append([]string{"sync", "--provider", "aws", "--data-dir", data}, tt.args...)...)
			if code != ExitUsage || out != "" {
				t.Fatalf("exit %d, stdout %q; want 2 and nothing (stderr %s)", code, out, errs)
			}
			if !strings.Contains(errs, tt.says) {
				t.Errorf("stderr does not name %s: %s", tt.says, errs)
			}
		})
	}
}

// TestSyncBackfill: --start/--end sync exactly those days, and the
// history holds them and nothing before.
func TestSyncBackfill(t *testing.T) {
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	day := func(n int) string { return time.Now().UTC().AddDate(0, 0, -n).Format(model.DateLayout) }
	from, to := day(5), day(1)
	code, out, errs := run(t, "sync", "--provider", "aws", "--start", from, "--end", to, "--strict", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res []service.SyncResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(res) != 1 || res[0].From != from || res[0].To != to || res[0].Lines == 0 {
		t.Fatalf("result %+v, want aws synced %s..%s", res, from, to)
	}
	total := func(start, end string) float64 {
		t.Helper()
		code, out, errs := run(t, "analyze", "--provider", "aws", "--start", start, "--end", end, "-o", "json", "--data-dir", data)
		var a model.CostAnalysis
		if code != 0 || json.Unmarshal([]byte(out), &a) != nil {
			t.Fatalf("analyze: exit %d: %s", code, errs)
		}
		return a.Summary.TotalCost
	}
	if got := total(from, to); got <= 0 {
		t.Errorf("the backfilled days cost %v", got)
	}
	if got := total(day(30), day(6)); got != 0 {
		t.Errorf("the days before the backfill cost %v, want nothing stored", got)
	}
}

// TestPrintSyncWarningsWhole: each warning is printed whole under the
// table, wrapped to the width, long ids broken rather than cut.
func TestPrintSyncWarningsWhole(t *testing.T) {
	id := "/subscriptions/00000000-0000-0000-0000-00000000aaaa/resourcegroups/rg/providers/microsoft.compute/disks/bad"
	res := []service.SyncResult{
		{Provider: model.AWS, Source: model.SourceAPI, From: "2026-03-01", To: "2026-03-05", Lines: 12, Resources: 3,
			Warnings: []string{"aws: EC2 DescribeInstances in eu-west-1: the identity lacks a role this call needs (ec2:DescribeInstances) (UnauthorizedOperation)"}},
		{Provider: model.Azure, Source: model.SourceAPI, Lines: 7, Resources: 4,
			Warnings: []string{"azure: inventory: 1 malformed item skipped, the rest kept (Compute Disks List: 1, the first " + id + ": json: cannot unmarshal)",
				"azure: Monitor Metrics List: throttled by Azure after retries"}},
		{Provider: model.GCP, Source: model.SourceAPI, Error: "gcp: BigQuery: the credentials are missing, invalid or expired"},
	}
	nonSpace := func(s string) string { return strings.Join(strings.Fields(s), "") }
	for _, limit := range []int{0, 40, 80} {
		var b bytes.Buffer
		printSync(&b, res, limit)
		out := b.String()
		tbl, notes, _ := strings.Cut(out, "\n\n")
		if limit >= 80 {
			notes = out // the table fits too
		}
		if strings.Contains(tbl, "…") {
			t.Errorf("width %d: the table cuts a cell:\n%s", limit, tbl)
		}
		for _, l := range strings.Split(strings.TrimRight(notes, "\n"), "\n") {
			if limit > 0 && width(l) > limit {
				t.Errorf("width %d: line %q is %d wide", limit, l, width(l))
			}
			if strings.Contains(l, "…") {
				t.Errorf("width %d: line %q is cut", limit, l)
			}
		}
		for _, w := range append(append(res[0].Warnings, res[1].Warnings...), res[2].Error) {
			if !strings.Contains(nonSpace(out), nonSpace(w)) {
				t.Errorf("width %d: %q is not printed whole:\n%s", limit, w, out)
			}
		}
		for _, want := range []string{"ok, 1 warning", "ok, 2 warnings", "FAILED"} {
			if !strings.Contains(out, want) {
				t.Errorf("width %d: no %q in\n%s", limit, want, out)
			}
		}
	}
}

// TestStrictSync: --strict fails (exit 1) on any failure or warning; a
// skipped export provider is not one.
func TestStrictSync(t *testing.T) {
	tests := []struct {
		name string
		res  []service.SyncResult
		fail bool
	}{
		{"all ok", []service.SyncResult{{Provider: model.AWS}, {Provider: model.Azure, Skipped: true, Warning: "export providers are loaded with costpilot import"}}, false},
		{"a warning", []service.SyncResult{{Provider: model.AWS}, {Provider: model.Azure, Warnings: []string{"azure: inventory: 1 malformed item skipped"}}}, true},
		{"a failure", []service.SyncResult{{Provider: model.GCP, Error: "gcp: failed"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := strictSync(tt.res)
			if (err != nil) != tt.fail {
				t.Fatalf("strictSync = %v, want failure %v", err, tt.fail)
			}
			if err == nil {
				return
			}
			var errb bytes.Buffer
			a := newApp(strings.NewReader(""), &bytes.Buffer{}, &errb)
			if code := a.report(nil, err); code != ExitFailure {
				t.Errorf("exit %d, want %d", code, ExitFailure)
			}
			var ue usageError
			if errors.As(err, &ue) {
				t.Error("a strict failure is not bad usage")
			}
		})
	}
}

// TestStrictSyncEndToEnd: a live source whose API refuses every call (a
// local server answering as STS does, in its XML error shape) fails its
// sync beside a demo source that succeeds; the table prints the failure
// whole and --strict exits 1 (a failed part exits 1 with or without it;
// --strict also fails on warnings, TestStrictSync).
func TestStrictSyncEndToEnd(t *testing.T) {
	dir := isolate(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, `<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code>`+
			`<Message>User: arn:aws:iam::111122223333:user/ci is not authorized to perform: sts:GetCallerIdentity</Message></Error>`+
			`<RequestId>4a1b2c3d</RequestId></ErrorResponse>`)
	}))
	defer srv.Close()
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true") // never ask a metadata address for credentials
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "none"))
	cfg := filepath.Join(dir, "costpilot.yaml")
	yaml := "aws:\n  enabled: true\n  source: api\n  region: us-east-1\n  access_key_id: AKIDEXAMPLE\n  secret_access_key: not-a-real-secret\n  endpoint: " + srv.URL + "\nazure:\n  enabled: true\n  source: demo\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	code, out, errs := run(t, "sync", "--days", "3", "--strict", "--config", cfg, "--data-dir", data)
	if code != ExitFailure {
		t.Fatalf("--strict with a failed part: exit %d, want %d\n%s\n%s", code, ExitFailure, out, errs)
	}
	all := strings.Join(strings.Fields(out+errs), " ")
	if !strings.Contains(all, "FAILED") || !strings.Contains(all, "AccessDenied") {
		t.Errorf("the failure is not printed whole:\n%s\n%s", out, errs)
	}
	if strings.Contains(out+errs, "not-a-real-secret") {
		t.Error("the secret is printed")
	}
}
