package service

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// fakeUnitsPrometheus answers /api/v1/query_range in Prometheus' wire format:
// orders as two series (summed), a NaN on one day; signups with a
// negative value; anything else a bad_data error.
func fakeUnitsPrometheus(t *testing.T, got *[]map[string]string) *httptest.Server {
	var mu sync.Mutex
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/prom/api/v1/query_range" || r.Method != http.MethodPost {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if err := r.ParseForm(); err != nil {
			t.Error(err)
		}
		mu.Lock()
		*got = append(*got, map[string]string{"query": r.Form.Get("query"), "start": r.Form.Get("start"), "end": r.Form.Get("end"),
			"step": r.Form.Get("step"), "auth": r.Header.Get("Authorization")})
		mu.Unlock()
		start, _ := strconv.ParseInt(r.Form.Get("start"), 10, 64)
		end, _ := strconv.ParseInt(r.Form.Get("end"), 10, 64)
		points := func(v func(i int) string) string {
			var ps []string
			for i, ts := 0, start; ts <= end; i, ts = i+1, ts+86400 {
				ps = append(ps, fmt.Sprintf(`[%d,"%s"]`, ts, v(i)))
			}
			return strings.Join(ps, ",")
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.Form.Get("query") {
		case "sum by (shop) (increase(orders_total[1d]))":
			fmt.Fprintf(w, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"shop":"eu"},"values":[%s]},{"metric":{"shop":"us"},"values":[%s]}]}}`,
				points(func(i int) string {
					if i == 2 {
						return "NaN"
					}
					return strconv.Itoa(100 + i)
				}), points(func(int) string { return "50" }))
		case "signups":
			fmt.Fprintf(w, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[%s]}]}}`,
				points(func(i int) string { return strconv.Itoa(1 - i) }))
		default:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected character"}`)
		}
	}))
}

// TestSyncUnitsFromPrometheus: units.sources are pulled with query_range
// at the end of each UTC day (step one day) over the source's days up to
// yesterday; each day's value is the sum of the series, a NaN day has
// none; the values are stored as an import's, scoped as configured. An
// error answer and a negative value fail their source naming it, while
// the others are stored.
func TestSyncUnitsFromPrometheus(t *testing.T) {
	var got []map[string]string
	srv := fakeUnitsPrometheus(t, &got)
	defer srv.Close()
	t.Setenv("TEST_PROM_TOKEN", "s3cret")
	cfg := config.Default()
	cfg.Units.Sources = []config.UnitSource{
		{Metric: "orders", PrometheusURL: srv.URL + "/prom", Query: "sum by (shop) (increase(orders_total[1d]))", Days: 5,
			BearerTokenEnv: "TEST_PROM_TOKEN", Scope: map[string]string{"team": "web"}},
		{Metric: "broken", PrometheusURL: srv.URL + "/prom", Query: "rate(", Days: 3},
		{Metric: "signups", PrometheusURL: srv.URL + "/prom", Query: "signups", Days: 3},
	}
	s := openDemo(t, cfg)
	ctx := adminCtx()
	res, err := s.SyncUnits(ctx)
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.Provider || !strings.Contains(err.Error(), "broken, signups") {
		t.Fatalf("want the broken and signups sources to fail: %v", err)
	}
	if len(res.Sources) != 3 || res.Sources[0].Error != "" || !strings.Contains(res.Sources[1].Error, "bad_data") ||
		!strings.Contains(res.Sources[2].Error, "negative") || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("sources %+v", res.Sources)
	}
	// Yesterday at testNow is June 9th: five days from June 5th,
	// evaluated at each day's end.
	first, _ := model.ParseDayNum("2026-06-05")
	q := got[0]
	if q["start"] != strconv.FormatInt((first+1).Time().Unix(), 10) || q["end"] != strconv.FormatInt((first+5).Time().Unix(), 10) ||
		q["step"] != "86400" || q["auth"] != "Bearer s3cret" {
		t.Fatalf("request %v", q)
	}
	if o := res.Sources[0]; o.From != "2026-06-05" || o.To != "2026-06-09" || o.Days != 5 || o.Total != 100+101+103+104+5*50 {
		t.Fatalf("orders %+v", o)
	}
	a, err := s.Costs(ctx, CostRequest{Start: "2026-06-05", End: "2026-06-09", Per: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	pu := a.Summary.PerUnit
	if pu == nil || pu.Scope["tag:team"] != "web" || len(pu.DailyCosts) != 5 {
		t.Fatalf("per unit %+v", pu)
	}
	for i, want := range []float64{150, 151, 50, 153, 154} {
		if pu.DailyCosts[i].Units != want {
			t.Errorf("day %d: %v units, want %v", i, pu.DailyCosts[i].Units, want)
		}
	}
	metrics, err := s.UnitMetrics(ctx)
	if err != nil || len(metrics) != 1 {
		t.Fatalf("only orders is stored: %+v %v", metrics, err)
	}
	// A token variable that is not set fails before any request.
	cfg.Units.Sources = []config.UnitSource{{Metric: "orders", PrometheusURL: srv.URL + "/prom", Query: "up", BearerTokenEnv: "TEST_PROM_UNSET"}}
	n := len(got)
	if _, err := openDemo(t, cfg).SyncUnits(ctx); !errors.As(err, &ae) || len(got) != n {
		t.Fatalf("unset token: %v, %d requests", err, len(got)-n)
	}
}
