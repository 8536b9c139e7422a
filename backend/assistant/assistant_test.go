package assistant

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func TestTop(t *testing.T) {
	tests := []struct{ in, want int }{{-1, defaultTop}, {0, defaultTop}, {1, 1}, {maxTop, maxTop}, {maxTop + 1, maxTop}, {1000, maxTop}}
	for _, tt := range tests {
		if got := top(tt.in); got != tt.want {
			t.Errorf("top(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestChangeAndRounding(t *testing.T) {
	tests := []struct {
		name      string
		cur, prev float64
		want      float64 // NaN: no change (nil)
	}{
		{"no previous: no change", 10, 0, math.NaN()},
		{"up a half", 150, 100, 50},
		{"down a quarter", 75, 100, -25},
		{"rounded to cents of a percent", 1, 3, -66.67},
		{"unchanged", 5, 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := change(tt.cur, tt.prev)
			if math.IsNaN(tt.want) != (got == nil) || (got != nil && *got != tt.want) {
				t.Fatalf("change(%v, %v) = %v, want %v", tt.cur, tt.prev, deref(got), tt.want)
			}
		})
	}
	// Halves (exact in binary) round away from zero.
	for in, want := range map[float64]float64{1.125: 1.13, -1.125: -1.13, 2.004: 2, -2.004: -2, 0: 0} {
		if got := round2(in); math.Abs(got-want) > 1e-12 {
			t.Errorf("round2(%v) = %v, want %v", in, got, want)
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestTopGroups(t *testing.T) {
	groups := func() []Group {
		return groupsOf(map[string]float64{"web": 30, "db": 50, "batch": 5.555, "ml": 30, "ci": 4.444})
	}
	tests := []struct {
		name     string
		n        int
		wantKeys []string
		wantRest *Rest
	}{
		{"all fit", 10, []string{"db", "ml", "web", "batch", "ci"}, nil},
		{"exactly all", 5, []string{"db", "ml", "web", "batch", "ci"}, nil},
		// Ties by cost go by key; the rest is counted and summed to cents.
		{"top three", 3, []string{"db", "ml", "web"}, &Rest{Count: 2, Cost: 10}},
		{"top one", 1, []string{"db"}, &Rest{Count: 4, Cost: 70}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rest := topGroups(groups(), tt.n)
			var keys []string
			for _, g := range got {
				keys = append(keys, g.Key)
			}
			if strings.Join(keys, ",") != strings.Join(tt.wantKeys, ",") {
				t.Errorf("groups %v, want %v", keys, tt.wantKeys)
			}
			if (rest == nil) != (tt.wantRest == nil) || (rest != nil && *rest != *tt.wantRest) {
				t.Errorf("rest %+v, want %+v", rest, tt.wantRest)
			}
		})
	}
}

func TestRecOf(t *testing.T) {
	r := model.Recommendation{ID: "r1", Type: model.RecommendationType("idle"), Provider: model.AWS, ResourceID: "i-1",
		Description: "stop it", PotentialSavings: 12.5, Priority: model.Priority("high")}
	tests := []struct {
		name      string
		lifecycle *model.Lifecycle
		want      string
	}{
		{"no lifecycle: open", nil, string(model.RecOpen)},
		{"dismissed", &model.Lifecycle{State: model.RecDismissed}, string(model.RecDismissed)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.Lifecycle = tt.lifecycle
			want := Rec{ID: "r1", Type: "idle", Provider: "aws", ResourceID: "i-1", Description: "stop it", MonthlySavings: 12.5,
				Priority: "high", State: tt.want}
			if got := recOf(r); got != want {
				t.Fatalf("recOf = %+v, want %+v", got, want)
			}
		})
	}
}

func TestReportURI(t *testing.T) {
	for name, want := range map[string]string{
		"costpilot-summary.pdf": "costpilot://reports/costpilot-summary.pdf",
		"a b.json":              "costpilot://reports/a%20b.json",
		"x/y.html":              "costpilot://reports/x%2Fy.html",
	} {
		if got := reportURI(name); got != want {
			t.Errorf("reportURI(%q) = %q, want %q", name, got, want)
		}
	}
}

var testNow = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

// openService is a Service over the demo history of one cloud in a
// fresh data dir, and the context of a local admin.
func openService(t *testing.T, writes bool) (*service.Service, context.Context) {
	t.Helper()
	cfg := config.Default()
	cfg.Azure.Enabled, cfg.GCP.Enabled, cfg.OCI.Enabled = false, false, false
	cfg.MCP.AllowWrites = writes
	svc, err := service.OpenWith(context.Background(), cfg, service.Options{DataDir: t.TempDir(),
		Now: func() time.Time { return testNow }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	// Reads only read: the demo history is stored as `costpilot mcp` does
	// at its start.
	if err := svc.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	return svc, service.WithPrincipal(context.Background(), service.LocalAdmin("cli", "test"))
}

// connect serves the assistant of svc over an in-memory pipe, as the
// CLI serves it over stdio, and returns the client's session.
func connect(t *testing.T, ctx context.Context, svc *service.Service, writes bool) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	srv := New(svc, Options{Version: "test", AllowWrites: writes, Actor: func(context.Context) string { return "assistant-test" }})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured answer into out; it
// returns whether the tool refused.
func call(t *testing.T, ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any, out any) bool {
	t.Helper()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if r.IsError {
		return true
	}
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v in %s", tool, err, b)
	}
	return false
}

// TestTools calls each tool over MCP and checks its compact answer
// against the Service's full one for the same question.
func TestTools(t *testing.T) {
	svc, ctx := openService(t, false)
	cs := connect(t, ctx, svc, false)
	tl, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tl.Tools {
		names[tool.Name] = true
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only, and writes are off", tool.Name)
		}
	}
	for _, want := range []string{"analyze_costs", "list_recommendations", "forecast_costs", "allocate_costs", "provider_status",
		"list_budgets", "list_anomalies", "get_commitments", "ai_costs"} {
		if !names[want] {
			t.Errorf("no tool %s in %v", want, names)
		}
	}
	if len(names) != 9 || names["set_recommendation_state"] || names["generate_report"] {
		t.Errorf("tools %v: the write tools are listed though writes are off", names)
	}

	days := 14
	full, err := svc.Costs(ctx, service.CostRequest{Days: &days, GroupBy: "service"})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := svc.Recommendations(ctx, service.RecommendationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	anomalies, err := svc.Anomalies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fc, err := svc.ForecastCosts(ctx, 21, true)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		refused bool
		check   func(t *testing.T, raw map[string]any)
	}{
		{name: "costs by service, top two and the rest", tool: "analyze_costs", args: map[string]any{"days": 14, "group_by": "service", "top": 2},
			check: func(t *testing.T, raw map[string]any) {
				var out CostOutput
				remarshal(t, raw, &out)
				if out.Total != full.Summary.TotalCost || out.Total == 0 || out.GroupBy != "service" || out.Start != full.Summary.AnalysisPeriod.StartDate {
					t.Errorf("total %v from %s by %s, want %v from %s by service", out.Total, out.Start, out.GroupBy, full.Summary.TotalCost,
						full.Summary.AnalysisPeriod.StartDate)
				}
				if len(out.Groups) != 2 || out.Groups[0].Key != full.Summary.Groups[0].Key || out.Groups[0].Cost != full.Summary.Groups[0].Cost {
					t.Errorf("groups %+v, want the top two of %+v", out.Groups, full.Summary.Groups)
				}
				sum := out.Groups[0].Cost + out.Groups[1].Cost
				if out.Rest != nil {
					sum += out.Rest.Cost
				}
				if math.Abs(sum-out.Total) > 0.01*float64(len(full.Summary.Groups)) {
					t.Errorf("groups and rest sum to %v, total %v", sum, out.Total)
				}
				if out.Providers["aws"] != out.Total {
					t.Errorf("providers %v, want all of it on aws", out.Providers)
				}
			}},
		{name: "costs filtered to a cloud that is off", tool: "analyze_costs", args: map[string]any{"days": 14, "provider": []string{"gcp"}},
			check: func(t *testing.T, raw map[string]any) {
				if raw["total"] != 0.0 {
					t.Errorf("total %v, want 0", raw["total"])
				}
			}},
		{name: "costs with a bad grouping", tool: "analyze_costs", args: map[string]any{"group_by": "colour"}, refused: true},
		{name: "costs with days and a period", tool: "analyze_costs", args: map[string]any{"days": 7, "period": "last_month"}, refused: true},
		{name: "recommendations, top one", tool: "list_recommendations", args: map[string]any{"top": 1},
			check: func(t *testing.T, raw map[string]any) {
				var out RecOutput
				remarshal(t, raw, &out)
				var sum, most float64
				for _, r := range recs {
					sum += r.PotentialSavings
					most = max(most, r.PotentialSavings)
				}
				if out.Count != len(recs) || len(out.Items) != min(1, len(recs)) || out.MonthlySavings != round2(sum) {
					t.Errorf("count %d items %d savings %v; want %d, 1, %v", out.Count, len(out.Items), out.MonthlySavings, len(recs), round2(sum))
				}
				if len(recs) > 1 && (out.Rest == nil || out.Rest.Count != len(recs)-1 || out.Items[0].MonthlySavings != most) {
					t.Errorf("rest %+v, first %+v; want the largest (%v) first and the rest counted", out.Rest, out.Items, most)
				}
			}},
		{name: "recommendations of an unknown type", tool: "list_recommendations", args: map[string]any{"type": "magic"}, refused: true},
		{name: "forecast of 21 days", tool: "forecast_costs", args: map[string]any{"days": 21},
			check: func(t *testing.T, raw map[string]any) {
				var out ForecastOutput
				remarshal(t, raw, &out)
				if out.Days != 21 || out.Total != fc.TotalForecast || out.Lower != fc.ConfidenceInterval[0] || out.Upper != fc.ConfidenceInterval[1] ||
					out.Providers["aws"] != fc.ProviderForecasts[model.AWS].TotalForecast ||
					out.Trends["aws"] != fc.ProviderForecasts[model.AWS].TrendAnalysis {
					t.Errorf("forecast %+v, want the Service's %v [%v, %v]", out, fc.TotalForecast, fc.ConfidenceInterval[0], fc.ConfidenceInterval[1])
				}
			}},
		{name: "forecast too far", tool: "forecast_costs", args: map[string]any{"days": 5000}, refused: true},
		{name: "provider status", tool: "provider_status", args: map[string]any{},
			check: func(t *testing.T, raw map[string]any) {
				var out StatusOutput
				remarshal(t, raw, &out)
				enabled := map[model.ProviderKey]bool{}
				for _, p := range out.Providers {
					enabled[p.Provider] = p.Enabled
				}
				if !enabled[model.AWS] || enabled[model.GCP] {
					t.Errorf("status %+v, want aws enabled and gcp not", out.Providers)
				}
			}},
		{name: "allocation by team", tool: "allocate_costs", args: map[string]any{"tags": []string{"team"}, "top": 1},
			check: func(t *testing.T, raw map[string]any) {
				var out AllocateOutput
				remarshal(t, raw, &out)
				if len(out.Owners) > 1 || out.Start == "" || out.Currency == "" {
					t.Errorf("allocation %+v, want at most one owner listed", out)
				}
			}},
		{name: "anomalies of one cloud", tool: "list_anomalies", args: map[string]any{"provider": "aws", "top": 2},
			check: func(t *testing.T, raw map[string]any) {
				var out AnomalyOutput
				remarshal(t, raw, &out)
				if len(out.Anomalies) > 2 || out.Count < len(out.Anomalies) {
					t.Errorf("%d anomalies listed of %d, want at most 2", len(out.Anomalies), out.Count)
				}
				for _, a := range out.Anomalies {
					if a.Provider != model.AWS {
						t.Errorf("anomaly of %s in an aws list", a.Provider)
					}
				}
			}},
		{name: "anomalies of every cloud", tool: "list_anomalies", args: map[string]any{"top": 50},
			check: func(t *testing.T, raw map[string]any) {
				if raw["count"] != float64(len(anomalies.Anomalies)) || len(anomalies.Anomalies) == 0 {
					t.Errorf("count %v, want the Service's %d (the demo history has some)", raw["count"], len(anomalies.Anomalies))
				}
			}},
		{name: "anomalies of a cloud that is off", tool: "list_anomalies", args: map[string]any{"provider": "gcp"},
			check: func(t *testing.T, raw map[string]any) {
				if raw["count"] != 0.0 || len(raw["anomalies"].([]any)) != 0 {
					t.Errorf("gcp anomalies %v", raw)
				}
			}},
		{name: "commitments of a bad period", tool: "get_commitments", args: map[string]any{"period": "someday"}, refused: true},
		{name: "ai costs of last month", tool: "ai_costs", args: map[string]any{"period": "last_month", "provider": []string{"aws"}},
			check: func(t *testing.T, raw map[string]any) {
				var out model.AICosts
				remarshal(t, raw, &out)
				if out.From != "2026-05-01" || out.To != "2026-05-31" || out.Models == nil {
					t.Errorf("ai costs %+v, want May 2026 with a models list", out)
				}
			}},
		{name: "ai costs of a malformed provider", tool: "ai_costs", args: map[string]any{"provider": []string{"Not A Key"}}, refused: true},
		{name: "commitments of last month", tool: "get_commitments", args: map[string]any{"period": "last_month"},
			check: func(t *testing.T, raw map[string]any) {
				var out model.CommitmentReport
				remarshal(t, raw, &out)
				if out.Period.StartDate != "2026-05-01" || out.Period.EndDate != "2026-05-31" {
					t.Errorf("period %+v, want May 2026", out.Period)
				}
			}},
		{name: "budgets", tool: "list_budgets", args: map[string]any{},
			check: func(t *testing.T, raw map[string]any) {
				if _, ok := raw["budgets"].([]any); !ok {
					t.Errorf("budgets %v, want a list", raw["budgets"])
				}
			}},
		{name: "a write tool while writes are off", tool: "generate_report", args: map[string]any{}, refused: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			if tt.refused {
				if err == nil && !r.IsError {
					t.Fatalf("%s answered %+v, want a refusal", tt.tool, r.StructuredContent)
				}
				return
			}
			if err != nil || r.IsError {
				t.Fatalf("%s: %v %+v", tt.tool, err, r)
			}
			raw, ok := r.StructuredContent.(map[string]any)
			if !ok {
				t.Fatalf("%s: structured content %T", tt.tool, r.StructuredContent)
			}
			tt.check(t, raw)
		})
	}
}

func remarshal(t *testing.T, in, out any) {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
}

// TestWriteToolsAndResources: with writes allowed, a report written by
// the tool is listed and read back as a resource, a recommendation's
// state change is the Service's, and saved views are a resource.
func TestWriteToolsAndResources(t *testing.T) {
	svc, ctx := openService(t, true)
	cs := connect(t, ctx, svc, true)

	var rep ReportOutput
	if call(t, ctx, cs, "generate_report", map[string]any{"type": "summary", "format": "json", "period": "last_month"}, &rep) {
		t.Fatal("generate_report refused")
	}
	if !strings.HasSuffix(rep.Name, ".json") || rep.URI != reportURI(rep.Name) {
		t.Fatalf("report %+v", rep)
	}
	list, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: reportsURI})
	if err != nil || len(list.Contents) != 1 || !strings.Contains(list.Contents[0].Text, rep.URI) {
		t.Fatalf("reports resource %+v %v, want %s listed", list, err, rep.URI)
	}
	one, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: rep.URI})
	if err != nil || len(one.Contents) != 1 || one.Contents[0].MIMEType != "application/json" || !json.Valid([]byte(one.Contents[0].Text)) {
		t.Fatalf("report resource %+v %v, want the JSON report", one, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: reportsURI + "/no-such-report.json"}); err == nil {
		t.Fatal("a missing report was read")
	}

	recs, err := svc.Recommendations(ctx, service.RecommendationFilter{})
	if err != nil || len(recs) == 0 {
		t.Fatalf("recommendations %d %v: the demo history has some", len(recs), err)
	}
	var rec Rec
	if call(t, ctx, cs, "set_recommendation_state", map[string]any{"id": recs[0].ID, "state": "dismissed", "reason": "not ours"}, &rec) {
		t.Fatal("set_recommendation_state refused")
	}
	if rec.ID != recs[0].ID || rec.State != string(model.RecDismissed) {
		t.Fatalf("state change %+v", rec)
	}
	if call(t, ctx, cs, "set_recommendation_state", map[string]any{"id": recs[0].ID, "state": "dismissed"}, &rec) == false {
		t.Fatal("dismissed without a reason")
	}
	var open RecOutput
	call(t, ctx, cs, "list_recommendations", map[string]any{"top": 50}, &open)
	for _, r := range open.Items {
		if r.ID == recs[0].ID {
			t.Fatalf("the dismissed recommendation is still listed as open: %+v", r)
		}
	}

	if _, err := svc.SaveView(ctx, "by-service", model.ViewSpec{GroupBy: "service", Days: 7}, "test", false); err != nil {
		t.Fatal(err)
	}
	views, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: viewsURI})
	if err != nil || len(views.Contents) != 1 || !strings.Contains(views.Contents[0].Text, `"by-service"`) {
		t.Fatalf("views resource %+v %v", views, err)
	}
	var byView CostOutput
	if call(t, ctx, cs, "analyze_costs", map[string]any{"view": "by-service"}, &byView) || byView.GroupBy != "service" {
		t.Fatalf("analyze_costs with the view grouped by %q", byView.GroupBy)
	}
}
