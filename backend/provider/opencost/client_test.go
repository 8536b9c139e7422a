package opencost

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestClientAsksForDaysDownToPods: the request OpenCost receives, the
// answer read, and a failure named without the answer's body beyond a
// line.
func TestClientAsksForDaysDownToPods(t *testing.T) {
	var got string
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.Path + "?" + r.URL.RawQuery
		if status != http.StatusOK {
			http.Error(w, "prometheus unreachable", status)
			return
		}
		_, _ = w.Write([]byte(`{"code":200,"data":[{"ns/api-1":{"name":"ns/api-1","properties":{"cluster":"default-cluster","node":"n1",
			"namespace":"ns","pod":"api-1","providerID":"i-0abc1234def567890"},"window":{"start":"2026-05-01T00:00:00Z","end":"2026-05-02T00:00:00Z"},
			"cpuCost":1,"totalCost":1}}]}`))
	}))
	defer srv.Close()
	c := &Client{Cluster: "prod", BaseURL: srv.URL + "/", Currency: "USD", HTTP: srv.Client()}
	from, _ := model.ParseDayNum("2026-05-01")
	set, err := c.Allocations(context.Background(), from, from+2)
	if err != nil {
		t.Fatal(err)
	}
	want := "/allocation?accumulate=false&aggregate=cluster%2Cnode%2Cnamespace%2Ccontroller%2Cpod&idleByNode=true&includeIdle=true&step=1d" +
		"&window=2026-05-01T00%3A00%3A00Z%2C2026-05-04T00%3A00%3A00Z"
	if got != want {
		t.Errorf("asked %s\nwant  %s", got, want)
	}
	// The configured name wins over OpenCost's cluster id; every day asked
	// for is replaced.
	if len(set.Allocations) != 1 || set.Allocations[0].Cluster != "prod" || set.Days["prod"] != [2]model.DayNum{from, from + 2} {
		t.Errorf("set = %+v", set)
	}
	status = http.StatusInternalServerError
	if _, err := c.Allocations(context.Background(), from, from); err == nil || !strings.Contains(err.Error(), "prod") ||
		!strings.Contains(err.Error(), "500") {
		t.Errorf("a failing OpenCost: %v", err)
	}
}
