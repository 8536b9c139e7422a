package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRecommendStateCommands: dismiss, snooze, done and reopen by id (or
// its 8-character prefix), each reflected in the open list and its state's
// list, and kept for the next command.
func TestRecommendStateCommands(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	list := func(state string) []map[string]any {
		t.Helper()
		code, out, errs := run(t, "recommend", "--state", state, "-o", "json", "--data-dir", data)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var got []map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	open := list("open")
	id := open[0]["id"].(string)
	if code, _, errs := run(t, "recommend", "dismiss", id, "--data-dir", data); code == 0 {
		t.Fatalf("dismiss without --reason passed: %s", errs)
	}
	if code, _, errs := run(t, "recommend", "dismiss", id[:8], "--reason", "kept on purpose", "--data-dir", data); code != 0 {
		t.Fatalf("dismiss by prefix: exit %d: %s", code, errs)
	}
	// A snooze reaches a year ahead at most.
	if code, _, errs := run(t, "recommend", "snooze", open[1]["id"].(string), "--until", "2099-01-01", "--data-dir", data); code != 2 || !strings.Contains(errs, "within a year") {
		t.Fatalf("snooze to 2099: exit %d: %s", code, errs)
	}
	if got := list("dismissed"); len(got) != 1 || got[0]["id"] != id {
		t.Fatalf("dismissed list %v", got)
	}
	if got := list("open"); len(got) != len(open)-1 {
		t.Fatalf("open list %d, want %d", len(got), len(open)-1)
	}
	for _, step := range []string{"reopen", "done"} {
		if code, _, errs := run(t, "recommend", step, id, "--data-dir", data); code != 0 {
			t.Fatalf("%s: exit %d: %s", step, code, errs)
		}
	}
	code, out, errs := run(t, "recommend", "show", id, "--data-dir", data)
	if code != 0 || !strings.Contains(out, "State:     done by cli") || !strings.Contains(out, "Realized:") {
		t.Fatalf("show: exit %d: %s%s", code, out, errs)
	}
	if code, _, errs := run(t, "recommend", "--state", "closed", "--data-dir", data); code != 2 || !strings.Contains(errs, "dismissed") {
		t.Fatalf("bad --state: exit %d: %s", code, errs)
	}
}

// TestBudgetCommands: set, change, list and delete, beside the config
// file's budgets.
func TestBudgetCommands(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	for _, args := range [][]string{
		{"budget", "set", "web", "--amount", "5000", "--provider", "aws"},
		{"budget", "set", "web", "--amount", "7000", "--provider", "aws"},
		{"budget", "set", "all", "--amount", "90000", "--period", "quarterly"},
	} {
		if code, _, errs := run(t, append(args, "--data-dir", data)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	code, out, errs := run(t, "budget", "list", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, errs)
	}
	var got []struct {
		Source string `json:"source"`
		Status struct {
			Budget struct {
				Name   string  `json:"name"`
				Amount float64 `json:"amount"`
			} `json:"budget"`
			Actual float64 `json:"actual"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Status.Budget.Name != "all" || got[1].Status.Budget.Amount != 7000 || got[1].Status.Actual <= 0 {
		t.Fatalf("budgets %+v", got)
	}
	for _, bad := range [][]string{{"--amount", "-5"}, {"--amount", "5", "--period", "weekly"}, {"--amount", "5", "--provider", "IBM Cloud"}} {
		if code, _, errs := run(t, append([]string{"budget", "set", "x", "--data-dir", data}, bad...)...); code != 2 {
			t.Fatalf("%v: exit %d: %s", bad, code, errs)
		}
	}
	if code, _, errs := run(t, "budget", "delete", "web", "--data-dir", data); code != 0 {
		t.Fatalf("delete: exit %d: %s", code, errs)
	}
	if code, _, _ := run(t, "budget", "delete", "web", "--data-dir", data); code == 0 {
		t.Fatal("deleting a missing budget passed")
	}
}

// TestAnomalyCommands: the list finds the demo's spikes; ignoring one with
// a pattern marks the provider's others of that service.
func TestAnomalyCommands(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "anomalies", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var l struct {
		Anomalies []struct {
			ID, Service string
			Decision    *struct{ Action string }
			Suppressed  bool
		}
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	var id, svc string
	for _, a := range l.Anomalies {
		if a.Service != "" {
			id, svc = a.ID, a.Service
			break
		}
	}
	if id == "" {
		t.Fatalf("no service anomaly on the demo: %s", out)
	}
	if code, _, errs := run(t, "anomalies", "ignore", strings.TrimPrefix(id, "anomaly:"), "--data-dir", data); code == 0 {
		t.Fatalf("ignore without --reason passed: %s", errs)
	}
	if code, _, errs := run(t, "anomalies", "ignore", strings.TrimPrefix(id, "anomaly:"), "--reason", "nightly backup", "--pattern", "--data-dir", data); code != 0 {
		t.Fatalf("ignore: exit %d: %s", code, errs)
	}
	_, out, _ = run(t, "anomalies", "-o", "json", "--data-dir", data)
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	for _, a := range l.Anomalies {
		if a.Service == svc && a.ID != id && !a.Suppressed {
			t.Fatalf("%s not covered by the pattern", a.ID)
		}
		if a.ID == id && (a.Decision == nil || a.Decision.Action != "ignored") {
			t.Fatalf("%s decision %+v", a.ID, a.Decision)
		}
	}
}
