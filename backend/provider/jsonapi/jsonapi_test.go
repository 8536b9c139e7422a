package jsonapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

type page struct {
	Cursor
	Items []int `json:"items"`
}

// TestWalkBounds: a walk follows next_page to the end, and stops with an
// error (not a loop, not a short history) on a repeated cursor, a
// has_more without a cursor, or more pages than allowed.
func TestWalkBounds(t *testing.T) {
	tests := []struct {
		name     string
		next     func(n int) string // the n-th page's next_page; "" is null
		pages    int                // pages the server has
		maxPages int
		want     model.ProviderFailure
		calls    int
	}{
		{"to the end", func(n int) string { return fmt.Sprintf("p%d", n+1) }, 3, 10, "", 3},
		{"repeated cursor", func(int) string { return "same" }, 100, 10, model.FailureUnreachable, 2},
		{"more without a cursor", func(int) string { return "" }, 100, 10, model.FailureUnreachable, 1},
		{"too many pages", func(n int) string { return fmt.Sprintf("p%d", n+1) }, 100, 4, model.FailureRequest, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r providertest.Recorder
			srv := providertest.Serve(t, func(w http.ResponseWriter, req *http.Request) {
				n := r.Hit("list")
				if want := map[bool]string{true: "", false: tt.next(n - 1)}[n == 1]; req.URL.Query().Get("page") != want {
					t.Errorf("request %d page = %q, want %q", n, req.URL.Query().Get("page"), want)
				}
				var next any
				if s := tt.next(n); s != "" {
					next = s
				}
				_ = json.NewEncoder(w).Encode(map[string]any{"items": []int{n}, "has_more": n < tt.pages, "next_page": next})
			})
			c := New("openai", srv.URL, nil).Apply([]Option{WithLimits(1<<20, tt.maxPages)})
			var got []int
			err := Walk(context.Background(), c, "/list", nil, func(p *page) error {
				got = append(got, p.Items...)
				return nil
			})
			if tt.want == "" {
				if err != nil || len(got) != tt.pages {
					t.Errorf("items = %v, err = %v; want %d pages", got, err, tt.pages)
				}
			} else {
				providertest.AssertFailure(t, err, "openai", tt.want)
			}
			if n := r.Count("list"); n != tt.calls {
				t.Errorf("requests = %d, want %d", n, tt.calls)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{"fraction", http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{"date", http.Header{"Retry-After": {now.Add(30 * time.Second).Format(http.TimeFormat)}}, 30 * time.Second},
		{"past date", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"milliseconds first", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"1"}}, 250 * time.Millisecond},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := retryAfter(tt.h, now); got != tt.want {
				t.Errorf("retryAfter = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDecimal(t *testing.T) {
	tests := []struct {
		json        string
		units, cent string // "" for an error
	}{
		{`0.8958740000000000`, "0.895874", "0.00895874"},
		{`"123.45"`, "123.45", "1.2345"},
		{`12`, "12", "0.12"},
		{`null`, "0", "0"},
		{`"0.0000001"`, "0.0000001", "0.000000001"},
		{`"0.00000005"`, "0.00000005", "0.000000001"}, // half a nano rounds away from zero
		{`"-250"`, "-250", "-2.5"},
		{`1e-3`, "0.001", "0.00001"},
		{`"1/3"`, "", ""},
		{`"12,5"`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			var d Decimal
			if err := json.Unmarshal([]byte(tt.json), &d); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name string
				f    func() (model.Nanos, error)
				want string
			}{{"units", d.Nanos, tt.units}, {"cents", d.Cents, tt.cent}} {
				got, err := c.f()
				if c.want == "" {
					if err == nil {
						t.Errorf("%s = %s, want an error", c.name, got)
					}
					continue
				}
				want, _ := model.ParseNanos(c.want)
				if err != nil || got != want {
					t.Errorf("%s = %s, %v; want %s", c.name, got, err, want)
				}
			}
		})
	}
}

// TestLines: lines of one identity and day are summed, whatever page
// they came on; all-zero lines are dropped.
func TestLines(t *testing.T) {
	var s Lines
	line := func(day, sub, svc string, n model.Nanos) model.CostLine {
		return model.CostLine{Day: day, SubAccount: sub, Service: svc, Currency: "USD", Billed: n, Effective: n, List: n}
	}
	s.Add(line("2026-11-02", "p", "m", 5))
	s.Add(line("2026-11-01", "p", "m", 1))
	s.Add(line("2026-11-02", "p", "m", 7))
	s.Add(line("2026-11-02", "q", "m", 0))
	got := s.List()
	if len(got) != 2 || got[0].Day != "2026-11-01" || got[1].Billed != 12 || got[1].List != 12 {
		t.Errorf("lines = %+v", got)
	}
}

func TestSpan(t *testing.T) {
	start, end, days, err := Span("openai", "2026-11-17", "2026-11-19")
	if err != nil || start.Unix() != 1794873600 || end.Unix() != 1795132800 || days != 3 {
		t.Errorf("span = %v %v %d %v", start, end, days, err)
	}
	for _, bad := range [][2]string{{"2026-11-19", "2026-11-17"}, {"yesterday", "2026-11-17"}} {
		if _, _, _, err := Span("openai", bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "YYYY-MM-DD") {
			t.Errorf("span %v: err = %v", bad, err)
		}
	}
}
