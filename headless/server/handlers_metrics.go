package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// latencyBuckets are the histogram bounds in seconds.
var latencyBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

type routeStats struct {
	codes   map[int]int64
	buckets []int64 // cumulative counts are computed at scrape time
	sum     float64
	count   int64
}

// metrics are the server's own counters for /metrics, by route pattern
// (a bounded set: never raw paths).
type metrics struct {
	mu          sync.Mutex
	routes      map[string]*routeStats
	respHits    atomic.Int64
	rateLimited atomic.Int64
	started     time.Time
}

func newMetrics() *metrics {
	return &metrics{routes: map[string]*routeStats{}, started: time.Now()}
}

func (m *metrics) observe(route string, status int, d time.Duration, cacheHit bool) {
	sec := d.Seconds()
	m.mu.Lock()
	rs := m.routes[route]
	if rs == nil {
		rs = &routeStats{codes: map[int]int64{}, buckets: make([]int64, len(latencyBuckets))}
		m.routes[route] = rs
	}
	rs.codes[status]++
	for i, b := range latencyBuckets {
		if sec <= b {
			rs.buckets[i]++
			break
		}
	}
	rs.sum += sec
	rs.count++
	m.mu.Unlock()
	if cacheHit {
		m.respHits.Add(1)
	}
}

// write renders the Prometheus text exposition format.
func (m *metrics) write(b *strings.Builder, cacheHits, cacheMisses int64, perf model.PerformanceMetrics) {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, 0, len(m.routes))
	for k := range m.routes {
		names = append(names, k)
	}
	sort.Strings(names)
	q := strconv.Quote
	b.WriteString("# HELP costpilot_http_requests_total HTTP requests by route and status code.\n# TYPE costpilot_http_requests_total counter\n")
	for _, n := range names {
		codes := make([]int, 0)
		for c := range m.routes[n].codes {
			codes = append(codes, c)
		}
		sort.Ints(codes)
		for _, c := range codes {
			fmt.Fprintf(b, "costpilot_http_requests_total{route=%s,code=\"%d\"} %d\n", q(n), c, m.routes[n].codes[c])
		}
	}
	b.WriteString("# HELP costpilot_http_request_errors_total HTTP requests answered with a 5xx status.\n# TYPE costpilot_http_request_errors_total counter\n")
	for _, n := range names {
		var e int64
		for c, v := range m.routes[n].codes {
			if c >= 500 {
				e += v
			}
		}
		fmt.Fprintf(b, "costpilot_http_request_errors_total{route=%s} %d\n", q(n), e)
	}
	b.WriteString("# HELP costpilot_http_request_duration_seconds HTTP request latency.\n# TYPE costpilot_http_request_duration_seconds histogram\n")
	for _, n := range names {
		rs := m.routes[n]
		var cum int64
		for i, le := range latencyBuckets {
			cum += rs.buckets[i]
			fmt.Fprintf(b, "costpilot_http_request_duration_seconds_bucket{route=%s,le=\"%g\"} %d\n", q(n), le, cum)
		}
		fmt.Fprintf(b, "costpilot_http_request_duration_seconds_bucket{route=%s,le=\"+Inf\"} %d\n", q(n), rs.count)
		fmt.Fprintf(b, "costpilot_http_request_duration_seconds_sum{route=%s} %g\n", q(n), rs.sum)
		fmt.Fprintf(b, "costpilot_http_request_duration_seconds_count{route=%s} %d\n", q(n), rs.count)
	}
	fmt.Fprintf(b, "# HELP costpilot_response_cache_hits_total API answers served from the response cache.\n# TYPE costpilot_response_cache_hits_total counter\ncostpilot_response_cache_hits_total %d\n", m.respHits.Load())
	fmt.Fprintf(b, "# HELP costpilot_cache_hits_total Hits of the result cache (responses and computed results).\n# TYPE costpilot_cache_hits_total counter\ncostpilot_cache_hits_total %d\n", cacheHits)
	fmt.Fprintf(b, "# HELP costpilot_cache_misses_total Misses of the result cache.\n# TYPE costpilot_cache_misses_total counter\ncostpilot_cache_misses_total %d\n", cacheMisses)
	fmt.Fprintf(b, "# HELP costpilot_rate_limited_total Requests refused by a rate limit.\n# TYPE costpilot_rate_limited_total counter\ncostpilot_rate_limited_total %d\n", m.rateLimited.Load())
	fmt.Fprintf(b, "# HELP costpilot_process_memory_fraction Resident memory as a fraction of the machine's.\n# TYPE costpilot_process_memory_fraction gauge\ncostpilot_process_memory_fraction %g\n", perf.MemoryUsage)
	fmt.Fprintf(b, "# HELP costpilot_process_cpu_fraction CPU use as a fraction of the machine's.\n# TYPE costpilot_process_cpu_fraction gauge\ncostpilot_process_cpu_fraction %g\n", perf.CPUUsage)
	fmt.Fprintf(b, "# HELP costpilot_uptime_seconds Seconds since the server started.\n# TYPE costpilot_uptime_seconds gauge\ncostpilot_uptime_seconds %g\n", time.Since(m.started).Seconds())
}

// promMetrics is GET /metrics (Prometheus text) when
// monitoring.metrics.enabled.
func (s *Server) promMetrics() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.svc.Config().Monitoring.Metrics.Enabled {
			writeError(w, r, apperr.E(apperr.NotFound, "metrics are off: set monitoring.metrics.enabled"))
			return
		}
		perf, err := s.svc.PerformanceMetrics(r.Context())
		if err != nil {
			writeError(w, r, err)
			return
		}
		hits, misses := s.svc.Cache().Stats()
		var b strings.Builder
		s.metrics.write(&b, hits, misses, perf)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(b.String()))
	})
}

// healthCache keeps the last health check briefly: /healthz is public and
// exempt from rate limits, so it must not run the checks on every call.
type healthCache struct {
	mu  sync.Mutex
	at  time.Time
	val model.Health
}

const healthTTL = 10 * time.Second

func (h *healthCache) get(ctx context.Context, check func(context.Context) model.Health) model.Health {
	h.mu.Lock()
	defer h.mu.Unlock()
	if time.Since(h.at) < healthTTL {
		return h.val
	}
	h.val, h.at = check(ctx), time.Now()
	return h.val
}

// healthzBody is GET /healthz. Check messages name paths and errors, so
// only logged-in callers see them; anyone sees the statuses.
type healthzBody struct {
	Status string              `json:"status"`
	Checks []model.HealthCheck `json:"checks"`
}

func (s *Server) healthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := s.health.get(r.Context(), s.svc.CheckHealth)
		out := healthzBody{Status: h.Status}
		p, _ := s.identify(r, true)
		for _, c := range h.Checks {
			if p == nil {
				c.Message = ""
			}
			out.Checks = append(out.Checks, c)
		}
		status := http.StatusOK
		if h.Status == "unhealthy" {
			status = http.StatusServiceUnavailable
		}
		writeJSON(w, status, out)
	})
}
