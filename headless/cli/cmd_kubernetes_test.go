package cli

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/headless/server"
)

// TestKubernetesAnalyzeEqualsAPI: after importing a bill and an OpenCost
// answer, analyze --group-by namespace -o json answers what
// /api/costs?group_by=namespace does, and the namespaces are there.
func TestKubernetesAnalyzeEqualsAPI(t *testing.T) {
	fixtures, err := filepath.Abs(filepath.Join("..", "..", "backend", "service", "testdata", "kubernetes"))
	if err != nil {
		t.Fatal(err)
	}
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	cfg := filepath.Join(dir, "costpilot.yaml")
	y := "aws: {enabled: true, source: export, region: eu-west-1, export_paths: [x]}\ndashboard: {auth: {enabled: false}}\n"
	if err := os.WriteFile(cfg, []byte(y), 0o600); err != nil {
		t.Fatal(err)
	}
	common := []string{"--config", cfg, "--data-dir", data}
	for _, args := range [][]string{
		{"import", filepath.Join(fixtures, "cur2-eks.csv")},
		{"import", "--format", "opencost", filepath.Join(fixtures, "opencost-2days.json")},
	} {
		if code, _, errs := run(t, append(args, common...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	code, out, errs := run(t, append([]string{"analyze", "--start", "2026-05-01", "--end", "2026-05-02", "--group-by", "namespace", "-o", "json"}, common...)...)
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	var cli map[string]any
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatalf("analyze -o json: %v\n%s", err, out)
	}
	svc, err := service.Open(context.Background(), service.Options{ConfigPath: cfg, DataDir: data,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv, err := server.New(svc)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/costs?start=2026-05-01&end=2026-05-02&group_by=namespace", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/api/costs: %d %s", rec.Code, rec.Body)
	}
	var api map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &api); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cli, api) {
		t.Errorf("analyze -o json differs from /api/costs:\ncli %v\napi %v", cli["summary"], api["summary"])
	}
	keys := map[string]float64{}
	groups, _ := cli["summary"].(map[string]any)["groups"].([]any)
	for _, g := range groups {
		m := g.(map[string]any)
		keys[m["key"].(string)] = m["cost"].(float64)
	}
	want := map[string]float64{"shop": 24, "kube-system": 4, "(idle)": 12, "(none)": 10}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("namespaces %v, want %v", keys, want)
	}
}
