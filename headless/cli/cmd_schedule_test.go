package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/store"
)

// TestScheduleCommands: set, change, list (table and JSON) and delete a
// schedule beside the config file's; a bad field exits 2 naming it; run
// with nothing due exits 0.
func TestScheduleCommands(t *testing.T) {
	dir := isolate(t)
	cfg := filepath.Join(dir, "costpilot.yaml")
	yaml := "oci:\n  enabled: true\nalerts:\n  webhook_url: http://127.0.0.1:9/hook\nreports:\n  schedules:\n    - {name: from-file, frequency: daily, hour: 5, webhook: true}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	with := func(args ...string) []string { return append(args, "--config", cfg, "--data-dir", data) }
	for _, args := range [][]string{
		{"schedule", "set", "weekly", "--frequency", "weekly", "--weekday", "friday", "--hour", "7", "--webhook"},
		{"schedule", "set", "weekly", "--frequency", "weekly", "--weekday", "monday", "--hour", "8", "--webhook", "--format", "json"},
	} {
		if code, _, errs := run(t, with(args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	code, _, errs := run(t, with("schedule", "set", "bad", "--frequency", "hourly", "--webhook")...)
	if code != 2 || !strings.Contains(errs, "frequency") {
		t.Fatalf("bad frequency: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, with("schedule", "list", "-o", "json")...)
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errs)
	}
	var got []struct {
		Source   string `json:"source"`
		NextDue  string `json:"next_due"`
		Schedule struct {
			Name    string `json:"name"`
			Weekday string `json:"weekday"`
			Hour    int    `json:"hour"`
			Format  string `json:"format"`
		} `json:"schedule"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got) != 2 || got[0].Source != "config" || got[1].Schedule.Weekday != "monday" || got[1].Schedule.Hour != 8 ||
		got[1].Schedule.Format != "json" || got[1].NextDue == "" {
		t.Fatalf("schedules %+v", got)
	}
	if code, out, _ := run(t, with("schedule", "list")...); code != 0 || !strings.Contains(out, "weekly monday 08:00Z") || !strings.Contains(out, "from-file") {
		t.Fatalf("table: exit %d\n%s", code, out)
	}
	if code, out, errs := run(t, with("schedule", "run")...); code != 0 || !strings.Contains(out, "nothing due") {
		t.Fatalf("run: exit %d: %s %s", code, out, errs)
	}
	if code, _, errs := run(t, with("schedule", "delete", "from-file")...); code == 0 || !strings.Contains(errs, "config file") {
		t.Fatalf("deleting the config file's: exit %d: %s", code, errs)
	}
	if code, out, errs := run(t, with("schedule", "delete", "weekly")...); code != 0 || !strings.Contains(out, `deleted schedule "weekly"`) {
		t.Fatalf("delete: exit %d: %s", code, errs)
	}
}

// TestStatusShowsDeliveriesWaitingForRetry: a scheduled delivery that
// failed and waits for its retry is listed by `costpilot status` (plain
// and detailed), whole, as the Status page shows it.
func TestStatusShowsDeliveriesWaitingForRetry(t *testing.T) {
	dir := isolate(t)
	cfg := filepath.Join(dir, "costpilot.yaml")
	yaml := "oci:\n  enabled: true\nalerts:\n  webhook_url: http://127.0.0.1:9/hook\nreports:\n  schedules:\n    - {name: finance-weekly, frequency: daily, hour: 5, webhook: true}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	with := func(args ...string) []string { return append(args, "--config", cfg, "--data-dir", data) }
	if code, out, errs := run(t, with("status")...); code != 0 || strings.Contains(out, "retry") {
		t.Fatalf("status before any failure: exit %d: %s %s", code, out, errs)
	}

	ctx := context.Background()
	s, err := store.Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	d, claimed, err := s.ClaimDelivery(ctx, "finance-weekly", now.Add(-time.Hour).Truncate(time.Hour), store.ChannelWebhook,
		store.ClaimOptions{Now: now, StaleAfter: time.Hour, MaxAttempts: 5})
	if err != nil || !claimed {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	const cause = "post http://127.0.0.1:9/hook: dial tcp 127.0.0.1:9: connect: connection refused, and more words so that the line must wrap"
	if err := s.FinishDelivery(ctx, d.ID, now, cause, now.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	s.Close()

	for _, args := range [][]string{{"status"}, {"status", "--detailed"}} {
		code, out, errs := run(t, with(args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		flat := strings.Join(strings.Fields(out), " ")
		for _, want := range []string{"waiting to retry", "finance-weekly", "connection refused, and more words so that the line must wrap", "next try"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%v does not say %q:\n%s", args, want, out)
			}
		}
	}
	// JSON keeps the API's shape.
	if code, out, _ := run(t, with("status", "-o", "json")...); code != 0 || strings.Contains(out, "retry") || !strings.Contains(out, `"oci"`) {
		t.Fatalf("json: exit %d: %s", code, out)
	}
}
