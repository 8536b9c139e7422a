package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMetricsWithNoServer(t *testing.T) {
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	code, out, errs := run(t, "metrics", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not JSON alone: %v\n%s", err, out)
	}
	for _, k := range []string{"cache_hit_rate", "total_requests", "average_response_time", "error_rate", "memory_usage", "cpu_usage"} {
		v, ok := m[k].(float64)
		if !ok || v < 0 || v > 1e6 {
			t.Fatalf("%s = %v in %s", k, m[k], out)
		}
	}
	if m["total_requests"].(float64) != 0 || m["error_rate"].(float64) != 0 || m["memory_usage"].(float64) <= 0 {
		t.Fatalf("fresh metrics %s", out)
	}
	if b, _ := m["memory_bytes"].(float64); b < 1<<20 {
		t.Fatalf("memory_bytes = %v in %s", m["memory_bytes"], out)
	}
	if code, out, _ := run(t, "metrics", "--data-dir", data); code != 0 || !strings.Contains(out, "total requests") || !strings.Contains(out, " MB, ") {
		t.Fatalf("table: %d %s", code, out)
	}
}

func TestAlertsCommand(t *testing.T) {
	dir := isolate(t)
	cfg := filepath.Join(dir, "costpilot.yaml")
	yaml := "oci:\n  enabled: true\nbudgets:\n  - name: tiny\n    amount: 1\n    period: monthly\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	data := seeded(t, dir)
	code, out, errs := run(t, "alerts", "-o", "json", "--config", cfg, "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var alerts []struct {
		ID, Kind, Severity, Message string
	}
	if err := json.Unmarshal([]byte(out), &alerts); err != nil {
		t.Fatalf("stdout is not a JSON list: %v\n%s", err, out)
	}
	found := false
	for _, a := range alerts {
		found = found || (strings.HasPrefix(a.ID, "budget:tiny:") && strings.HasSuffix(a.ID, ":100") && a.Kind == "budget" && a.Severity == "critical")
	}
	if !found {
		t.Fatalf("no budget alert in %s", out)
	}
	// --send with notifications off says so and succeeds.
	code, out, errs = run(t, "alerts", "--send", "--config", cfg, "--data-dir", data)
	if code != 0 || !strings.Contains(out, "notifications are off") {
		t.Fatalf("send: exit %d %s %s", code, out, errs)
	}
}
