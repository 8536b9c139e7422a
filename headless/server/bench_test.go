package server

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
)

// discard is a ResponseWriter that keeps nothing, so a benchmark
// measures the server rather than a recorder copying the body.
type discard struct {
	h    http.Header
	code int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }

// BenchmarkCostsNinetyDays is GET /api/costs?days=90 with a logged-in
// session through the whole middleware stack, rate limit off: after the
// first call, the response cache answers, as it does for the dashboard.
func BenchmarkCostsNinetyDays(b *testing.B) {
	e := newEnv(b, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	h := e.srv.Handler()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := httptest.NewRequest("GET", "/api/costs?days=90", nil)
		r.AddCookie(ck)
		w := &discard{h: http.Header{}}
		h.ServeHTTP(w, r)
		if w.code != http.StatusOK {
			b.Fatalf("status %d", w.code)
		}
	}
}

// BenchmarkCostsUncached is the same request with the response cache
// off, so each call runs the analysis over the stored history.
func BenchmarkCostsUncached(b *testing.B) {
	e := newEnv(b, func(c *config.Config) {
		c.Dashboard.RateLimit.Enabled = false
		c.Performance.Cache.Enabled = false
	})
	ck := e.mustLogin()
	h := e.srv.Handler()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r := httptest.NewRequest("GET", "/api/costs?days=90", nil)
		r.AddCookie(ck)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}
