package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestAICommand: an AI vendor's FOCUS file imported, costpilot ai lists
// its models with their tokens and cost per million tokens, as a table
// and as JSON, and --provider narrows to it.
func TestAICommand(t *testing.T) {
	file, err := filepath.Abs(filepath.Join("..", "..", "backend", "service", "testdata", "ai", "anthropic-focus-1.3.csv"))
	if err != nil {
		t.Fatal(err)
	}
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	if code, _, errs := run(t, "import", file, "--data-dir", data); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, "ai", "--start", "2025-01-01", "--end", "2025-01-31", "--provider", "anthropic", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Tokens float64 `json:"tokens"`
		Models []struct {
			Provider string   `json:"provider"`
			Model    string   `json:"model"`
			Cost     float64  `json:"cost"`
			PerM     *float64 `json:"cost_per_million_tokens"`
		} `json:"models"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not JSON alone: %v\n%s", err, out)
	}
	// The fixture's two days: Sonnet 4 2.05M tokens for 7.275, Haiku 3.5
	// 2.4M for 3.2000000001, a day.
	if len(res.Models) != 2 || res.Tokens != 2*(2.05e6+2.4e6) {
		t.Fatalf("answer %+v", res)
	}
	for _, m := range res.Models {
		if m.Provider != "anthropic" || m.PerM == nil || *m.PerM <= 0 {
			t.Errorf("model %+v", m)
		}
	}
	code, out, errs = run(t, "ai", "--start", "2025-01-01", "--end", "2025-01-31", "--data-dir", data)
	if code != 0 || !strings.Contains(out, "claude-sonnet-4") || !strings.Contains(out, "Anthropic") || !strings.Contains(out, "cached_input") {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
}
