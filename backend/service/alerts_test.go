package service

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/store"
)

// onlyProviders is a config with just these demo providers enabled, so
// tests generate (and, under -race, pay for) less history.
func onlyProviders(t *testing.T, keys ...model.ProviderKey) *config.Config {
	t.Helper()
	y := ""
	for _, k := range keys {
		y += string(k) + ":\n  enabled: true\n"
		if k == model.AWS {
			y += "  region: us-east-1\n"
		}
	}
	cfg, err := config.Parse([]byte(y), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestBudgetAlertsOnDemoData(t *testing.T) {
	ctx := adminCtx()
	s := openDemo(t, onlyProviders(t, model.AWS, model.GCP))
	// testNow is 2026-06-10: June's spend so far is June 1..9, which the
	// analysis gives independently of the budget code.
	a, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: mustPeriod(t, "2026-06-01", "2026-06-09")})
	if err != nil {
		t.Fatal(err)
	}
	aws, all := a.Providers[model.AWS].TotalCost, a.Summary.TotalCost
	var svc string
	var svcCost float64
	for name, v := range a.Providers[model.GCP].ServiceBreakdown {
		if v > svcCost {
			svc, svcCost = name, v
		}
	}
	if aws <= 0 || svc == "" {
		t.Fatalf("no demo spend: aws %v, gcp service %q", aws, svc)
	}
	s.cfg.Budgets = []config.Budget{
		{Name: "aws-small", Amount: aws * 0.9, Period: "monthly", Scope: config.BudgetScope{Provider: model.AWS}},
		{Name: "aws-large", Amount: aws * 100, Period: "monthly", Scope: config.BudgetScope{Provider: model.AWS}},
		{Name: "everything", Amount: all * 2, Period: "monthly"},
		{Name: "gcp top service", Amount: svcCost * 0.5, Period: "monthly", Scope: config.BudgetScope{Provider: model.GCP, Service: svc}},
		{Name: "azure off", Amount: 1, Period: "quarterly", Scope: config.BudgetScope{Provider: model.Azure}},
	}
	alerts, err := s.Alerts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id       string
		kind     string
		severity string
		actual   float64
	}{
		{"budget:aws-small:2026-06:100", monitor.KindBudget, monitor.SeverityCritical, aws},
		// Nine days are half of twice June's pace: under 80%, but the
		// forecast of the rest of June passes 100%.
		{"forecast_budget:everything:2026-06:100", monitor.KindForecastBudget, monitor.SeverityWarning, all},
		{"budget:gcp-top-service:2026-06:100", monitor.KindBudget, monitor.SeverityCritical, svcCost},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			al, ok := alertByID(alerts, tt.id)
			if !ok {
				t.Fatalf("missing; got %v", ids(alerts))
			}
			if al.Kind != tt.kind || al.Severity != tt.severity {
				t.Fatalf("%s %s", al.Kind, al.Severity)
			}
			if got := al.Details["actual"].(float64); !near(got, tt.actual, 0.01) {
				t.Fatalf("actual %v, analysis says %v", got, tt.actual)
			}
		})
	}
	if len(alerts) != len(tests) {
		t.Fatalf("alerts %v, want only %d", ids(alerts), len(tests))
	}
}

func alertByID(as []model.Alert, id string) (model.Alert, bool) {
	for _, a := range as {
		if a.ID == id {
			return a, true
		}
	}
	return model.Alert{}, false
}

func mustPeriod(t *testing.T, from, to string) model.Period {
	p, err := PeriodForDates(from, to)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func near(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }

func ids(as []model.Alert) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}

// injectSpike multiplies one service's cost on one day of a provider's
// demo history, rewriting that day through the store as a sync would.
func injectSpike(t *testing.T, s *Service, k model.ProviderKey, dayStr string, pick func(map[string]float64) string, extraOfDay float64) string {
	t.Helper()
	ctx := adminCtx()
	sc := store.Scope{Sources: map[model.ProviderKey]model.SourceKind{k: model.SourceDemo}, From: dayStr, To: dayStr}
	lines, err := s.store.Lines(ctx, sc) // one day: the daily lines
	if err != nil || len(lines) == 0 {
		t.Fatalf("%d lines: %v", len(lines), err)
	}
	bySvc := map[string]float64{}
	total := 0.0
	for _, l := range lines {
		bySvc[l.Service] += l.Billed.Float64()
		total += l.Billed.Float64()
	}
	svc := pick(bySvc)
	factor := 1 + extraOfDay*total/bySvc[svc]
	for i := range lines {
		if lines[i].Service == svc {
			l := &lines[i]
			l.Billed = model.NanosFromFloat(l.Billed.Float64() * factor)
			l.Effective = model.NanosFromFloat(l.Effective.Float64() * factor)
			l.List = model.NanosFromFloat(l.List.Float64() * factor)
		}
	}
	err = s.store.ReplaceHistory(ctx, model.Batch{Provider: k, Source: model.SourceDemo, From: dayStr, To: dayStr, Lines: lines})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// anomaliesOf runs the anomaly check of Alerts over every enabled
// provider's fresh history.
func anomaliesOf(ctx context.Context, s *Service) ([]monitor.Anomaly, string, error) {
	keys, err := s.providers("")
	if err != nil {
		return nil, "", err
	}
	if err := s.refresh(ctx, keys); err != nil {
		return nil, "", err
	}
	found, _, cur, err := s.anomalies(ctx, keys, monitor.AnomalyOptions{})
	return found, cur, err
}

func TestInjectedSpikeIsAnAnomalyWithItsService(t *testing.T) {
	ctx := adminCtx()
	s := openDemo(t, onlyProviders(t, model.Azure))
	const spikeDay = "2026-06-09" // yesterday
	before, _, err := anomaliesOf(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range before {
		if a.Provider == model.Azure && a.Day == spikeDay {
			t.Fatalf("the demo already has an anomaly there: %+v", a)
		}
	}
	// A middling service (not the largest), so the test shows drivers
	// are found by their excess, not by their size.
	svc := injectSpike(t, s, model.Azure, spikeDay, func(m map[string]float64) string {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return m[names[i]] > m[names[j]] })
		return names[len(names)/2]
	}, 0.6)
	after, cur, err := anomaliesOf(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	var found *monitor.Anomaly
	for i, a := range after {
		if a.Provider == model.Azure && a.Day == spikeDay {
			found = &after[i]
		}
	}
	if found == nil {
		t.Fatalf("spike not found; anomalies %+v", after)
	}
	if len(found.Drivers) == 0 || found.Drivers[0].Service != svc || found.Drivers[0].Share < 0.8 {
		t.Fatalf("drivers %+v, want %s first", found.Drivers, svc)
	}
	alerts, err := s.Alerts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	al, ok := alertByID(alerts, "anomaly:azure:"+spikeDay)
	if !ok || !strings.Contains(al.Message, svc) || al.Details["currency"] != cur {
		t.Fatalf("alert %+v in %v", al, ids(alerts))
	}
}

// hookReceiver is a loopback webhook that fails the first `fail` posts.
type hookReceiver struct {
	mu       sync.Mutex
	fail     int
	posts    int
	accepted map[string]int // alert id → times accepted
}

var idInContext = regexp.MustCompile("id `([^`]+)`")

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.posts++
	if h.posts <= h.fail {
		http.Error(w, "try later", http.StatusServiceUnavailable)
		return
	}
	b, _ := io.ReadAll(r.Body)
	var m struct {
		Text   string `json:"text"`
		Blocks []struct {
			Elements []struct {
				Text string `json:"text"`
			} `json:"elements"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Text == "" || len(m.Blocks) != 2 || len(m.Blocks[1].Elements) != 1 {
		http.Error(w, "bad payload", http.StatusBadRequest)
		return
	}
	id := idInContext.FindStringSubmatch(m.Blocks[1].Elements[0].Text)
	if id == nil {
		http.Error(w, "no id", http.StatusBadRequest)
		return
	}
	h.accepted[id[1]]++
}

func TestSendAlertsToWebhookOnce(t *testing.T) {
	ctx := adminCtx()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "gone", http.StatusNotFound) // permanent: no retries within the call
	}))
	defer down.Close()
	cfg := onlyProviders(t, model.OCI)
	cfg.Budgets = []config.Budget{{Name: "tiny", Amount: 1, Period: "monthly"}}
	cfg.Dashboard.Features.Notifications = true
	cfg.Alerts.WebhookURL = down.URL + "/services/T0/B0/SECRET"
	s := openDemo(t, cfg)
	const id = "budget:tiny:2026-06:100"

	// A hook that refuses: nothing is delivered, the error says so, and
	// the alert stays due.
	res, err := s.SendAlerts(ctx)
	if apperr.KindOf(err) != apperr.Base || len(res.Failed) == 0 || len(res.Sent) != 0 || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("%+v %v", res, err)
	}
	if st, _ := s.store.AlertDeliveryState(ctx, id); st != store.DeliveryFailed {
		t.Fatalf("state %q", st)
	}

	// A hook that fails twice, then answers: every alert arrives once.
	rec := &hookReceiver{fail: 2, accepted: map[string]int{}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	s.cfg.Alerts.WebhookURL = srv.URL + "/services/T0/B0/SECRET"
	res, err = s.SendAlerts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Enabled || len(res.Sent) != res.Alerts || res.Alerts == 0 || len(res.Failed) != 0 {
		t.Fatalf("result %+v", res)
	}
	if rec.accepted[id] != 1 {
		t.Fatalf("budget alert accepted %d times; got %v", rec.accepted[id], rec.accepted)
	}
	for aid, n := range rec.accepted {
		if n != 1 {
			t.Fatalf("%s accepted %d times", aid, n)
		}
	}
	if len(rec.accepted) != res.Alerts || rec.posts != res.Alerts+2 {
		t.Fatalf("%d accepted, %d posts for %d alerts", len(rec.accepted), rec.posts, res.Alerts)
	}
	if st, err := s.store.AlertDeliveryState(ctx, id); err != nil || st != store.DeliveryDelivered {
		t.Fatalf("delivery state %q %v", st, err)
	}

	// Again: nothing is sent twice.
	res2, err := s.SendAlerts(ctx)
	if err != nil || len(res2.Sent) != 0 || res2.Skipped != res.Alerts || rec.posts != res.Alerts+2 {
		t.Fatalf("second run %+v %v, %d posts", res2, err, rec.posts)
	}

	// Notifications off: nothing is even evaluated.
	s.cfg.Dashboard.Features.Notifications = false
	if res, err := s.SendAlerts(ctx); err != nil || res.Enabled || res.Alerts != 0 {
		t.Fatalf("off: %+v %v", res, err)
	}
}
