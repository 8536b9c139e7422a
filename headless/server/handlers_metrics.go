package server

import (
	"context"
	"fmt"
	"net/http"
	rtmetrics "runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// latencyBuckets are the histogram bounds in seconds. They start at
// 100 µs: an answer from the response cache takes well under a
// millisecond, and coarser buckets would put every one of them in the
// first.
var latencyBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Values of the cache label: whether the response cache answered.
const (
	cacheNone = "" // the route has no response cache
	cacheHit  = "hit"
	cacheMiss = "miss"
)

// seriesKey names one latency series: a route and, for cached routes,
// whether the cache answered (hits and misses cost very differently).
type seriesKey struct {
	route string
	cache string
}

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
	routes      map[seriesKey]*routeStats
	respHits    atomic.Int64
	respMisses  atomic.Int64
	rateLimited atomic.Int64
	started     time.Time
}

func newMetrics() *metrics {
	return &metrics{routes: map[seriesKey]*routeStats{}, started: time.Now()}
}

func (m *metrics) observe(route string, status int, d time.Duration, cache string) {
	sec := d.Seconds()
	k := seriesKey{route, cache}
	m.mu.Lock()
	rs := m.routes[k]
	if rs == nil {
		rs = &routeStats{codes: map[int]int64{}, buckets: make([]int64, len(latencyBuckets))}
		m.routes[k] = rs
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
	switch cache {
	case cacheHit:
		m.respHits.Add(1)
	case cacheMiss:
		m.respMisses.Add(1)
	}
}

// gauges are point-in-time figures for /metrics.
type gauges struct {
	cacheHits, cacheMisses int64
	perf                   model.PerformanceMetrics
	respEntries            int
	respBytes              int64
}

// labels renders the series labels, le last when given.
func (k seriesKey) labels(le string) string {
	out := "route=" + strconv.Quote(k.route)
	if k.cache != cacheNone {
		out += ",cache=" + strconv.Quote(k.cache)
	}
	if le != "" {
		out += ",le=" + strconv.Quote(le)
	}
	return out
}

// write renders the Prometheus text exposition format.
func (m *metrics) write(b *strings.Builder, g gauges) {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]seriesKey, 0, len(m.routes))
	for k := range m.routes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].route != keys[j].route {
			return keys[i].route < keys[j].route
		}
		return keys[i].cache < keys[j].cache
	})
	// Request and error counts are per route, summed over the cache label.
	codes := map[string]map[int]int64{}
	var routes []string
	for _, k := range keys {
		if codes[k.route] == nil {
			codes[k.route] = map[int]int64{}
			routes = append(routes, k.route)
		}
		for c, n := range m.routes[k].codes {
			codes[k.route][c] += n
		}
	}
	q := strconv.Quote
	b.WriteString("# HELP costpilot_http_requests_total HTTP requests by route and status code.\n# TYPE costpilot_http_requests_total counter\n")
	for _, n := range routes {
		cs := make([]int, 0, len(codes[n]))
		for c := range codes[n] {
			cs = append(cs, c)
		}
		sort.Ints(cs)
		for _, c := range cs {
			fmt.Fprintf(b, "costpilot_http_requests_total{route=%s,code=\"%d\"} %d\n", q(n), c, codes[n][c])
		}
	}
	b.WriteString("# HELP costpilot_http_request_errors_total HTTP requests answered with a 5xx status.\n# TYPE costpilot_http_request_errors_total counter\n")
	for _, n := range routes {
		var e int64
		for c, v := range codes[n] {
			if c >= 500 {
				e += v
			}
		}
		fmt.Fprintf(b, "costpilot_http_request_errors_total{route=%s} %d\n", q(n), e)
	}
	b.WriteString("# HELP costpilot_http_request_duration_seconds HTTP request latency, from the request reaching the handler to the last byte handed to the connection; cache says whether the response cache answered.\n# TYPE costpilot_http_request_duration_seconds histogram\n")
	for _, k := range keys {
		rs := m.routes[k]
		var cum int64
		for i, le := range latencyBuckets {
			cum += rs.buckets[i]
			fmt.Fprintf(b, "costpilot_http_request_duration_seconds_bucket{%s} %d\n", k.labels(strconv.FormatFloat(le, 'g', -1, 64)), cum)
		}
		fmt.Fprintf(b, "costpilot_http_request_duration_seconds_bucket{%s} %d\n", k.labels("+Inf"), rs.count)
		fmt.Fprintf(b, "costpilot_http_request_duration_seconds_sum{%s} %g\n", k.labels(""), rs.sum)
		fmt.Fprintf(b, "costpilot_http_request_duration_seconds_count{%s} %d\n", k.labels(""), rs.count)
	}
	fmt.Fprintf(b, "# HELP costpilot_response_cache_hits_total API answers served from the response cache.\n# TYPE costpilot_response_cache_hits_total counter\ncostpilot_response_cache_hits_total %d\n", m.respHits.Load())
	fmt.Fprintf(b, "# HELP costpilot_response_cache_misses_total API answers the response cache did not hold.\n# TYPE costpilot_response_cache_misses_total counter\ncostpilot_response_cache_misses_total %d\n", m.respMisses.Load())
	fmt.Fprintf(b, "# HELP costpilot_response_cache_entries Answers held in the response cache.\n# TYPE costpilot_response_cache_entries gauge\ncostpilot_response_cache_entries %d\n", g.respEntries)
	fmt.Fprintf(b, "# HELP costpilot_response_cache_bytes Memory held by the response cache (bodies and their compressed forms).\n# TYPE costpilot_response_cache_bytes gauge\ncostpilot_response_cache_bytes %d\n", g.respBytes)
	fmt.Fprintf(b, "# HELP costpilot_cache_hits_total Hits of the result cache (responses and computed results).\n# TYPE costpilot_cache_hits_total counter\ncostpilot_cache_hits_total %d\n", g.cacheHits)
	fmt.Fprintf(b, "# HELP costpilot_cache_misses_total Misses of the result cache.\n# TYPE costpilot_cache_misses_total counter\ncostpilot_cache_misses_total %d\n", g.cacheMisses)
	fmt.Fprintf(b, "# HELP costpilot_rate_limited_total Requests refused by a rate limit.\n# TYPE costpilot_rate_limited_total counter\ncostpilot_rate_limited_total %d\n", m.rateLimited.Load())
	fmt.Fprintf(b, "# HELP costpilot_process_memory_fraction Resident memory as a fraction of the machine's.\n# TYPE costpilot_process_memory_fraction gauge\ncostpilot_process_memory_fraction %g\n", g.perf.MemoryUsage)
	fmt.Fprintf(b, "# HELP costpilot_process_resident_memory_bytes Resident memory of the process.\n# TYPE costpilot_process_resident_memory_bytes gauge\ncostpilot_process_resident_memory_bytes %d\n", g.perf.MemoryBytes)
	fmt.Fprintf(b, "# HELP costpilot_process_cpu_fraction CPU use as a fraction of the machine's.\n# TYPE costpilot_process_cpu_fraction gauge\ncostpilot_process_cpu_fraction %g\n", g.perf.CPUUsage)
	heap, goroutines := runtimeFigures()
	fmt.Fprintf(b, "# HELP costpilot_go_heap_bytes Bytes in live and not yet swept heap objects.\n# TYPE costpilot_go_heap_bytes gauge\ncostpilot_go_heap_bytes %d\n", heap)
	fmt.Fprintf(b, "# HELP costpilot_goroutines Goroutines now (one per open connection, plus a few).\n# TYPE costpilot_goroutines gauge\ncostpilot_goroutines %d\n", goroutines)
	fmt.Fprintf(b, "# HELP costpilot_uptime_seconds Seconds since the server started.\n# TYPE costpilot_uptime_seconds gauge\ncostpilot_uptime_seconds %g\n", time.Since(m.started).Seconds())
}

// runtimeFigures reads the heap size and goroutine count without
// stopping the world (runtime/metrics, unlike ReadMemStats).
func runtimeFigures() (heap, goroutines uint64) {
	samples := []rtmetrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/sched/goroutines:goroutines"}}
	rtmetrics.Read(samples)
	if samples[0].Value.Kind() == rtmetrics.KindUint64 {
		heap = samples[0].Value.Uint64()
	}
	if samples[1].Value.Kind() == rtmetrics.KindUint64 {
		goroutines = samples[1].Value.Uint64()
	}
	return heap, goroutines
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
		g := gauges{perf: perf}
		g.cacheHits, g.cacheMisses = s.svc.Cache().Stats()
		g.respEntries, g.respBytes = s.resp.usage()
		var b strings.Builder
		s.metrics.write(&b, g)
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

// healthzBody is GET /healthz for a logged-in caller: the statuses and
// messages of every check.
type healthzBody struct {
	Status string              `json:"status"`
	Checks []model.HealthCheck `json:"checks"`
}

// publicHealth is GET /healthz for anyone else: ok or degraded and
// nothing more, since the checks would tell a stranger which providers
// are enabled and what is failing.
type publicHealth struct {
	Status string `json:"status"`
}

func (s *Server) healthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := s.health.get(r.Context(), s.svc.CheckHealth)
		status := http.StatusOK
		if h.Status == "unhealthy" {
			status = http.StatusServiceUnavailable
		}
		if p, _ := s.identify(r, true); p == nil {
			out := publicHealth{Status: "ok"}
			if h.Status != "healthy" {
				out.Status = "degraded"
			}
			writeJSON(w, status, out)
			return
		}
		writeJSON(w, status, healthzBody{Status: h.Status, Checks: h.Checks})
	})
}
