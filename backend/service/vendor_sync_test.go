package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/live"
)

// openAICostsServer answers GET /v1/organization/costs in the Costs API's
// wire format: a bucket per asked day with two line items of one project
// (input(day) and 0.5 a day; input nil: 1.25), only for the Bearer key want. A wrong key gets
// OpenAI's 401 body, which repeats the key as vendors do. It records the
// asked spans as UTC days.
func openAICostsServer(t *testing.T, want string, input func(day time.Time) float64) (*httptest.Server, func() [][2]string) {
	if input == nil {
		input = func(time.Time) float64 { return 1.25 }
	}
	t.Helper()
	var mu sync.Mutex
	var asked [][2]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if got := r.Header.Get("Authorization"); got != "Bearer "+want {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s.","type":"invalid_request_error","code":"invalid_api_key"}}`,
				strings.TrimPrefix(got, "Bearer "))
			return
		}
		if r.URL.Path != "/v1/organization/costs" {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"message":"not found"}}`)
			return
		}
		q := r.URL.Query()
		start, _ := strconv.ParseInt(q.Get("start_time"), 10, 64)
		end, _ := strconv.ParseInt(q.Get("end_time"), 10, 64)
		mu.Lock()
		asked = append(asked, [2]string{time.Unix(start, 0).UTC().Format(model.DateLayout), time.Unix(end-1, 0).UTC().Format(model.DateLayout)})
		mu.Unlock()
		var data []map[string]any
		for d := start; d < end; d += 86400 {
			data = append(data, map[string]any{"object": "bucket", "start_time": d, "end_time": d + 86400, "results": []map[string]any{
				{"object": "organization.costs.result", "amount": map[string]any{"value": input(time.Unix(d, 0).UTC()), "currency": "usd"}, "line_item": "gpt-4o-2024-08-06, input", "project_id": "proj_a"},
				{"object": "organization.costs.result", "amount": map[string]any{"value": 0.5, "currency": "usd"}, "line_item": "gpt-4o-2024-08-06, output", "project_id": "proj_a"},
			}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "page", "data": data, "has_more": false, "next_page": nil})
	}))
	t.Cleanup(srv.Close)
	return srv, func() [][2]string {
		mu.Lock()
		defer mu.Unlock()
		return append([][2]string(nil), asked...)
	}
}

// openVendor opens a Service on yml with the real connectors registered
// (live.Register) and a log kept in the returned buffer.
func openVendor(t *testing.T, yml string, now *time.Time) (*Service, *bytes.Buffer, string) {
	t.Helper()
	cfg, err := config.Parse([]byte(yml), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if es := cfg.Validate(); len(es) > 0 {
		t.Fatal(es)
	}
	reg := provider.NewRegistry()
	live.Register(reg)
	var logs bytes.Buffer
	dir := t.TempDir()
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: dir, Now: func() time.Time { return *now }, Registry: reg, NoLive: true,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &logs, dir
}

// TestOpenAISyncFromConfig: openai.enabled with its endpoint on a local
// server speaking the Costs API; the key from OPENAI_ADMIN_KEY. A first
// sync stores the asked days with the fixture's totals, a second sync a
// day later asks only from three days before the last stored day; the
// provider is listed, named and checked like a cloud; a revoked key's
// failure (whose answer repeats the key) names the provider and status,
// and the key is in no error, log line or database file.
func TestOpenAISyncFromConfig(t *testing.T) {
	const key = "sk-admin-TESTKEY-0123456789abcdef"
	srv, asked := openAICostsServer(t, key, nil)
	t.Setenv("OPENAI_ADMIN_KEY", key)
	now := testNow // yesterday is 2026-06-09
	s, logs, dir := openVendor(t, "openai: {enabled: true, endpoint: "+srv.URL+"}\n", &now)
	ctx := adminCtx()

	res, err := s.Sync(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Provider != model.OpenAI || res[0].Source != model.SourceAPI || res[0].Lines != 20 {
		t.Fatalf("first sync %+v, want openai over api with 10 days of 2 lines", res)
	}
	p, _ := PeriodForDates("2026-05-31", "2026-06-09")
	a, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: p})
	if err != nil {
		t.Fatal(err)
	}
	if a.Summary.TotalCost != 17.5 {
		t.Errorf("total %v, want 10 days at 1.75", a.Summary.TotalCost)
	}
	ai, err := s.AICosts(ctx, CostRequest{Start: "2026-05-31", End: "2026-06-09", Metric: "billed"})
	if err != nil {
		t.Fatal(err)
	}
	if ai.TotalCost != 17.5 || len(ai.Models) != 1 || ai.Models[0].Model != "gpt-4o-2024-08-06" || ai.Models[0].ProviderName != "OpenAI" {
		t.Errorf("AI costs %+v, want gpt-4o at 17.5 from OpenAI", ai)
	}

	now = testNow.AddDate(0, 0, 2) // two more days are over
	if _, err := s.Sync(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"2026-05-31", "2026-06-09"}, {"2026-06-06", "2026-06-11"}}
	if got := asked(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("asked %v, want the first 10 days, then the last stored day's three before it to the new yesterday", got)
	}
	p, _ = PeriodForDates("2026-05-31", "2026-06-11")
	if a, err = s.AnalyzeCosts(ctx, model.CostQuery{Period: p}); err != nil || a.Summary.TotalCost != 21 {
		t.Errorf("total after the second sync %v (%v), want 12 days at 1.75", a.Summary.TotalCost, err)
	}

	details, err := s.ProviderDetails(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var d *model.ProviderDetail
	for i := range details {
		if details[i].Provider == model.OpenAI {
			d = &details[i]
		}
	}
	if d == nil || d.Name != "OpenAI" || !d.Connected || d.Source != model.SourceAPI || d.LastDay != "2026-06-11" || d.Imported {
		t.Fatalf("status of openai %+v, want connected over api to 2026-06-11", d)
	}

	// A revoked key: the vendor's message repeats it; nothing we show or
	// store may.
	t.Setenv("OPENAI_ADMIN_KEY", "sk-admin-REVOKED-9876543210fedcba")
	_, err = s.RunSync(ctx, SyncRequest{Provider: model.OpenAI, Start: "2026-06-01", End: "2026-06-01"})
	if err == nil || !strings.Contains(err.Error(), "401") || apperr.KindOf(err) != apperr.Provider {
		t.Fatalf("revoked key: %v, want a provider error naming 401", err)
	}
	s.Close()
	for _, secret := range []string{key, "REVOKED-9876543210fedcba"} {
		if strings.Contains(err.Error(), secret) || strings.Contains(logs.String(), secret) {
			t.Errorf("key %q in the error or the log: %v", secret, err)
		}
		_ = filepath.WalkDir(dir, func(path string, e os.DirEntry, _ error) error {
			if e != nil && !e.IsDir() {
				if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(secret)) {
					t.Errorf("key %q stored in %s", secret, filepath.Base(path))
				}
			}
			return nil
		})
	}
}

// TestVendorConfig: an AI vendor's section turns its connector on over
// api; its endpoint must be an http(s) URL without credentials, refused
// without repeating it; a sync of a vendor not enabled is refused.
func TestVendorConfig(t *testing.T) {
	cfg, err := config.Parse([]byte("anthropic: {enabled: true}\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if ps := cfg.Provider(model.Anthropic); !ps.Enabled || ps.Source != model.SourceAPI {
		t.Errorf("anthropic settings %+v, want enabled over api", ps)
	}
	if got := cfg.EnabledProviders(); fmt.Sprint(got) != "[anthropic]" {
		t.Errorf("enabled %v", got)
	}
	bad, err := config.Parse([]byte("openai: {enabled: true, endpoint: 'https://u:hunter2@proxy.example'}\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	es := bad.Validate()
	if len(es) != 1 || es[0].Field != "openai.endpoint" || strings.Contains(fmt.Sprint(es), "hunter2") {
		t.Errorf("credentials in the endpoint: %v", es)
	}
	now := testNow
	s, _, _ := openVendor(t, "anthropic: {enabled: true}\n", &now)
	if _, err := s.RunSync(adminCtx(), SyncRequest{Provider: model.OpenAI}); apperr.KindOf(err) != apperr.Validation {
		t.Errorf("sync of openai, not enabled: %v", err)
	}
}
