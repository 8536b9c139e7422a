package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/headless/server"
)

// TestForecastCLIMatchesAPI: `forecast --service S --group-by region -o
// json` prints the very answer GET /api/forecast gives for the same
// filter and grouping on the same data, and its groups add up.
func TestForecastCLIMatchesAPI(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "forecast", "--days", "21", "--service", "AmazonCloudWatch", "--group-by", "region",
		"--no-recommendations", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var cli map[string]any
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatal(err)
	}

	ctx := service.WithPrincipal(context.Background(), service.LocalAdmin("test", ""))
	svc, err := service.Open(ctx, service.Options{DataDir: data, LogLevel: "ERROR"})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	tok, err := svc.CreateToken(ctx, service.TokenRequest{Name: "forecast-test", Role: model.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(svc)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/api/forecast?days=21&service=AmazonCloudWatch&group_by=region&include_recommendations=false", nil)
	req.Header.Set("Authorization", "Bearer "+tok.Token)
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("API: %d %s", rec.Code, rec.Body.String())
	}
	var api map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &api); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cli, api) {
		t.Fatalf("CLI and API differ:\nCLI %s\nAPI %s", out, rec.Body.String())
	}
	groups, _ := api["groups"].([]any)
	if api["group_by"] != "region" || len(groups) == 0 || api["total_forecast"].(float64) <= 0 {
		t.Fatalf("answer: group_by %v, %d groups, total %v", api["group_by"], len(groups), api["total_forecast"])
	}
	sum := 0.0
	for _, g := range groups {
		sum += g.(map[string]any)["total_forecast"].(float64)
	}
	if d := sum - api["total_forecast"].(float64); d > 1e-9 || d < -1e-9 {
		t.Errorf("groups add up to %v, the total is %v", sum, api["total_forecast"])
	}
}
