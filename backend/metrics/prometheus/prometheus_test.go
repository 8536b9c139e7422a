package prometheus

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

var testNow = time.Date(2026, 6, 10, 12, 30, 0, 0, time.UTC)

// fakeSeries is one series of the fake server: its labels and its value
// per measure at a time.
type fakeSeries struct {
	labels map[string]string
	value  func(m Measure, t time.Time) string
}

// fakeProm answers POST /api/v1/query_range in the HTTP API's wire format,
// evaluating each query as the measure it reads (by its metric name).
type fakeProm struct {
	t      *testing.T
	series []fakeSeries
	// answer, when set, replaces the matrix answer.
	answer func(w http.ResponseWriter, r *http.Request) bool
	mu     sync.Mutex
	calls  int
	auth   []string
	spans  [][2]int64
}

func (f *fakeProm) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/prom/api/v1/query_range" {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "404 page not found")
		return
	}
	if err := r.ParseForm(); err != nil {
		f.t.Errorf("form: %v", err)
	}
	f.mu.Lock()
	f.calls++
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.mu.Unlock()
	if f.answer != nil && f.answer(w, r) {
		return
	}
	q := r.Form.Get("query")
	var m Measure
	switch {
	case strings.Contains(q, "node_cpu"):
		m = CPU
	case strings.Contains(q, "MemAvailable"):
		m = Memory
	case strings.Contains(q, "network"):
		m = Network
	default:
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"status":"error","errorType":"bad_data","error":"unknown query %s"}`, q)
		return
	}
	start, _ := strconv.ParseInt(r.Form.Get("start"), 10, 64)
	end, _ := strconv.ParseInt(r.Form.Get("end"), 10, 64)
	stepS, _ := strconv.ParseInt(r.Form.Get("step"), 10, 64)
	f.mu.Lock()
	f.spans = append(f.spans, [2]int64{start, end})
	f.mu.Unlock()
	type item struct {
		Metric map[string]string `json:"metric"`
		Values [][2]any          `json:"values"`
	}
	result := []item{}
	for _, s := range f.series {
		it := item{Metric: s.labels}
		for ts := start; ts <= end; ts += stepS {
			if v := s.value(m, time.Unix(ts, 0).UTC()); v != "" {
				it.Values = append(it.Values, [2]any{float64(ts), v})
			}
		}
		if len(it.Values) > 0 {
			result = append(result, it)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"status": "success", "data": map[string]any{"resultType": "matrix", "result": result}})
}

func newFake(t *testing.T, series ...fakeSeries) (*fakeProm, string) {
	f := &fakeProm{t: t, series: series}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return f, srv.URL + "/prom"
}

func newSource(t *testing.T, cfg config.PrometheusConfig) *Source {
	t.Helper()
	s, err := New(cfg, WithNow(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// steady is a machine at a fixed load.
func steady(labels map[string]string, cpu, mem, net string) fakeSeries {
	return fakeSeries{labels: labels, value: func(m Measure, _ time.Time) string {
		return map[Measure]string{CPU: cpu, Memory: mem, Network: net}[m]
	}}
}

func TestUtilizationJoinsTheThreeQueriesHourly(t *testing.T) {
	f, url := newFake(t,
		steady(map[string]string{"instance_id": "i-0aaa", "instance_type": "m5.xlarge"}, "0.05", "0.2", "1000"),
		steady(map[string]string{"instance_id": "i-0bbb"}, "0.5", "", "NaN"),
		steady(map[string]string{"instance": "10.0.0.9:9100"}, "0.9", "0.9", "1"), // no id label: unmapped
	)
	s := newSource(t, config.PrometheusConfig{URL: url, Days: 2, TypeLabel: "instance_type"})
	res, err := s.Utilization(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Two days in day-long requests, for each of the three measures.
	if f.calls != 6 {
		t.Fatalf("%d requests, want 6", f.calls)
	}
	end := testNow.Truncate(time.Hour)
	if first, last := f.spans[0], f.spans[1]; first[0] != end.Add(-48*time.Hour).Unix() || last[1] != end.Add(-time.Hour).Unix() {
		t.Fatalf("spans %v, want the 48 hours before %s", f.spans, end)
	}
	byID := map[string][]model.UtilizationSample{}
	for _, smp := range res.Samples {
		byID[smp.ResourceID] = append(byID[smp.ResourceID], smp)
	}
	if len(byID) != 2 || len(byID["i-0aaa"]) != 48 || len(byID["i-0bbb"]) != 48 {
		t.Fatalf("samples per id: aaa %d, bbb %d, ids %d; want 48 hourly samples of two ids", len(byID["i-0aaa"]), len(byID["i-0bbb"]), len(byID))
	}
	a, b := byID["i-0aaa"][0], byID["i-0bbb"][0]
	if a.CPU != 0.05 || a.Memory != 0.2 || a.NetworkBytes != 1000 || !a.Time.Equal(end.Add(-48*time.Hour)) {
		t.Fatalf("first sample of i-0aaa %+v", a)
	}
	if b.CPU != 0.5 || b.Memory != -1 || b.NetworkBytes != 0 {
		t.Fatalf("i-0bbb %+v, want memory unknown and the NaN network left out", b)
	}
	if res.Types["i-0aaa"] != "m5.xlarge" || res.Unmapped != 1 {
		t.Fatalf("types %v, unmapped %d", res.Types, res.Unmapped)
	}
}

func TestIDRegexAndToken(t *testing.T) {
	f, url := newFake(t,
		steady(map[string]string{"instance": "i-0abc:9100"}, "0.3", "0.4", "5"),
		steady(map[string]string{"instance": "bastion:9100"}, "0.3", "0.4", "5"),
	)
	t.Setenv("PROM_TOKEN", "s3cret")
	s := newSource(t, config.PrometheusConfig{URL: url, Days: 1, IDLabel: "instance", IDRegex: `^(i-[0-9a-f]+):`, BearerTokenEnv: "PROM_TOKEN"})
	if q := s.Queries()[CPU]; !strings.Contains(q, "by (instance)") {
		t.Fatalf("default cpu query %q does not group by the id label", q)
	}
	res, err := s.Utilization(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Samples) != 24 || res.Samples[0].ResourceID != "i-0abc" || res.Unmapped != 1 {
		t.Fatalf("%d samples of %q, %d unmapped; want 24 of i-0abc and the bastion unmapped", len(res.Samples), res.Samples[0].ResourceID, res.Unmapped)
	}
	if f.auth[0] != "Bearer s3cret" {
		t.Fatalf("authorization %q", f.auth[0])
	}
}

func TestUtilizationErrors(t *testing.T) {
	many := make([]fakeSeries, 3)
	for i := range many {
		many[i] = steady(map[string]string{"instance_id": fmt.Sprintf("i-%d", i)}, "0.1", "0.1", "1")
	}
	tests := []struct {
		name   string
		cfg    config.PrometheusConfig
		answer func(w http.ResponseWriter, r *http.Request) bool
		slow   bool
		why    model.ProviderFailure
	}{
		{name: "bad query", cfg: config.PrometheusConfig{CPUQuery: "rate(("}, why: model.FailureRequest},
		{name: "api error", answer: func(w http.ResponseWriter, _ *http.Request) bool {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"status":"error","errorType":"unavailable","error":"TSDB not ready"}`)
			return true
		}, why: model.FailureUnreachable},
		{name: "not the prometheus api", answer: func(w http.ResponseWriter, _ *http.Request) bool {
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, "<html>bad gateway</html>")
			return true
		}, why: model.FailureUnreachable},
		{name: "forbidden", answer: func(w http.ResponseWriter, _ *http.Request) bool {
			w.WriteHeader(http.StatusForbidden)
			return true
		}, why: model.FailurePermission},
		{name: "a vector, not a matrix", answer: func(w http.ResponseWriter, _ *http.Request) bool {
			fmt.Fprint(w, `{"status":"success","data":{"resultType":"vector","result":[]}}`)
			return true
		}, why: model.FailureRequest},
		{name: "too many series", cfg: config.PrometheusConfig{MaxSeries: 2}, why: model.FailureRequest},
		{name: "too many points", cfg: config.PrometheusConfig{MaxPoints: 50}, why: model.FailureRequest},
		{name: "timeout", slow: true, why: model.FailureUnreachable},
		{name: "malformed value", answer: func(w http.ResponseWriter, _ *http.Request) bool {
			fmt.Fprint(w, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"instance_id":"i-1"},"values":[[1.5,"lots"]]}]}}`)
			return true
		}, why: model.FailureRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, url := newFake(t, many...)
			f.answer = tt.answer
			if tt.slow {
				f.answer = func(http.ResponseWriter, *http.Request) bool { time.Sleep(300 * time.Millisecond); return false }
			}
			tt.cfg.URL, tt.cfg.Days = url, 1
			s := newSource(t, tt.cfg)
			s.timeout = 100 * time.Millisecond
			_, err := s.Utilization(context.Background())
			e, ok := apperr.As(err)
			if !ok || e.Kind != apperr.Provider {
				t.Fatalf("want a ProviderError, got %v", err)
			}
			if e.Details[model.FailureDetail] != tt.why || e.Details["measure"] != string(CPU) {
				t.Fatalf("details %v, want reason %s of the cpu query (%v)", e.Details, tt.why, err)
			}
			if strings.Contains(err.Error(), "/prom/api") {
				t.Fatalf("error %q repeats the URL", err)
			}
		})
	}
}

func TestNewRefusesCredentialsInURLAndMissingToken(t *testing.T) {
	for _, cfg := range []config.PrometheusConfig{
		{URL: "http://u:p@prom:9090"},
		{URL: "prom:9090"},
		{URL: "http://prom:9090", BearerTokenEnv: "COSTPILOT_TEST_UNSET_TOKEN"},
	} {
		if _, err := New(cfg); apperr.KindOf(err) != apperr.Configuration {
			t.Errorf("%+v: want a ConfigurationError, got %v", cfg, err)
		}
	}
}

func TestAssignAndOverlay(t *testing.T) {
	h := func(n int) time.Time { return testNow.Truncate(time.Hour).Add(time.Duration(n) * time.Hour) }
	resources := []model.Resource{
		{ResourceID: "/subscriptions/s/resourcegroups/rg/providers/microsoft.compute/virtualmachines/vm-1"},
		{ResourceID: "i-0aaa", InstanceType: "m5.large"},
	}
	res := Result{Samples: []model.UtilizationSample{
		{ResourceID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1", Time: h(0), CPU: 0.1, Memory: 0.2},
		{ResourceID: "i-0aaa", Time: h(0), CPU: 0.3, Memory: 0.4},
		{ResourceID: "i-gone", Time: h(0), CPU: 0.3, Memory: 0.4},
	}, Types: map[string]string{"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1": "Standard_D2s_v3", "i-0aaa": "m5.xlarge"}}
	got, unknown := Assign(res, resources)
	if len(got) != 2 || got[0].ResourceID != resources[0].ResourceID || unknown != 1 {
		t.Fatalf("assigned %+v, %d unknown", got, unknown)
	}
	if resources[0].InstanceType != "Standard_D2s_v3" || resources[1].InstanceType != "m5.large" {
		t.Fatalf("types %q %q: the label fills a missing type only", resources[0].InstanceType, resources[1].InstanceType)
	}
	base := []model.UtilizationSample{{ResourceID: "i-0aaa", Time: h(0), CPU: 0.9, Memory: -1}, {ResourceID: "i-0aaa", Time: h(1), CPU: 0.8, Memory: -1}}
	merged := Overlay(base, got[1:])
	if len(merged) != 2 || merged[0].Time != h(1) || merged[1].CPU != 0.3 || merged[1].Memory != 0.4 {
		t.Fatalf("overlay %+v", merged)
	}
}
