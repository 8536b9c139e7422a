package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUnitsSyncCommand: units sync pulls units.sources from a Prometheus
// server (a local one speaking its API) and lists what it stored; a
// source whose query the server refuses exits non-zero naming the error.
func TestUnitsSyncCommand(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	prom := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.URL.Path != "/api/v1/query_range" {
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		if r.Form.Get("query") != "sum(increase(orders_total[1d]))" {
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"status":"error","errorType":"execution","error":"many-to-many matching not allowed"}`)
			return
		}
		start, _ := strconv.ParseInt(r.Form.Get("start"), 10, 64)
		end, _ := strconv.ParseInt(r.Form.Get("end"), 10, 64)
		var ps []string
		for ts := start; ts <= end; ts += 86400 {
			ps = append(ps, fmt.Sprintf(`[%d,"7"]`, ts))
		}
		fmt.Fprintf(w, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[%s]}]}}`, strings.Join(ps, ","))
	}))
	defer prom.Close()
	cfg := filepath.Join(dir, "costpilot.yaml")
	write := func(query string) {
		body := fmt.Sprintf("units:\n  sources:\n    - {metric: orders, prometheus_url: '%s', query: '%s', days: 10}\n", prom.URL, query)
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("sum(increase(orders_total[1d]))")
	code, out, errs := run(t, "units", "sync", "--config", cfg, "--data-dir", data)
	if code != 0 || !strings.Contains(out, "orders") || !strings.Contains(out, " 10 ") || !strings.Contains(out, " 70") {
		t.Fatalf("sync: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ := run(t, "units", "list", "--config", cfg, "--data-dir", data); code != 0 || !strings.Contains(out, "orders") {
		t.Fatalf("not stored: %s", out)
	}
	write("sum(orders_total) * on() group_left orders_info")
	code, out, errs = run(t, "units", "sync", "--config", cfg, "--data-dir", data)
	if code == 0 || !strings.Contains(errs+out, "many-to-many matching not allowed") {
		t.Fatalf("a refused query: exit %d\n%s\n%s", code, out, errs)
	}
}
