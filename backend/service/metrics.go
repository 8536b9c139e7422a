package service

import (
	"context"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/store"
)

// MetricsFlushInterval is how often request counters are written to the
// store while requests come in; Close writes the rest.
const MetricsFlushInterval = time.Minute

// metricsDays is how many days of persisted counters MetricsReport lists.
const metricsDays = 30

// RecordRequest counts one dashboard request for get_metrics. Counters are
// persisted per UTC day: at most every MetricsFlushInterval, in the
// background, and by FlushMetrics.
func (s *Service) RecordRequest(d time.Duration, isError bool) {
	now := s.now()
	s.counters.RecordAt(now, d, isError)
	if s.counters.StartFlushIfDue(now, MetricsFlushInterval) {
		go func() {
			defer s.counters.FlushDone()
			// Not tied to the request that happened to trigger it.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := s.FlushMetrics(ctx); err != nil {
				s.log.Warn("cannot persist request metrics; will retry", "err", err)
			}
		}()
	}
}

// FlushMetrics writes the request counts not yet persisted (and the cache
// hit and miss counts since the last flush) to the store, added to each UTC
// day's row. The dashboard calls it on shutdown; Close should too. On
// failure the counts are kept for the next flush.
func (s *Service) FlushMetrics(ctx context.Context) error {
	return s.counters.Flush(s.now(), s.cache.Stats, func(days []monitor.DayCounts) error {
		rows := make([]store.RequestMetrics, len(days))
		for i, d := range days {
			rows[i] = store.RequestMetrics{Day: d.Day, Requests: d.Requests, Errors: d.Errors,
				DurationUS: d.Total.Microseconds(), CacheHits: d.CacheHits, CacheMisses: d.CacheMisses}
		}
		return s.store.AddRequestMetrics(ctx, rows)
	})
}

// PerformanceMetrics is GET /api/performance. total_requests, average_response_time
// and error_rate cover every request the dashboard has counted (persisted
// days plus what this process has not flushed yet); cache_hit_rate covers
// every cache lookup counted the same way; memory_usage and cpu_usage are
// this process's share of the machine. Rates are 0, never NaN, when
// nothing was counted.
func (s *Service) PerformanceMetrics(ctx context.Context) (model.PerformanceMetrics, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.PerformanceMetrics{}, err
	}
	var total store.RequestMetrics
	err := s.counters.View(s.cache.Stats, func(u monitor.DayCounts) error {
		t, err := s.store.RequestMetricsTotal(ctx)
		if err != nil {
			return err
		}
		total = addCounts(t, u)
		return nil
	})
	if err != nil {
		return model.PerformanceMetrics{}, err
	}
	return model.PerformanceMetrics{
		CacheHitRate:        ratio(total.CacheHits, total.CacheHits+total.CacheMisses),
		TotalRequests:       total.Requests,
		AverageResponseTime: ratio(total.DurationUS, total.Requests) / 1e6,
		ErrorRate:           ratio(total.Errors, total.Requests),
		MemoryUsage:         s.process.Memory(),
		MemoryBytes:         s.process.ResidentBytes(),
		CPUUsage:            s.process.CPU(),
	}, nil
}

// MetricsReport is PerformanceMetrics with the figures behind it: this
// process's counters since start and the persisted per-day counters. Its
// JSON has PerformanceMetrics' fields at the top level.
type MetricsReport struct {
	model.PerformanceMetrics
	SinceStart    RequestFigures `json:"since_start"`
	Days          []DayFigures   `json:"days"`
	UptimeSeconds float64        `json:"uptime_seconds"`
}

// RequestFigures are request counters with their rates.
type RequestFigures struct {
	Requests            int64   `json:"requests"`
	Errors              int64   `json:"errors"`
	AverageResponseTime float64 `json:"average_response_time"`
	ErrorRate           float64 `json:"error_rate"`
	CacheHits           int64   `json:"cache_hits"`
	CacheMisses         int64   `json:"cache_misses"`
	CacheHitRate        float64 `json:"cache_hit_rate"`
}

// DayFigures are one UTC day's persisted counters.
type DayFigures struct {
	Day string `json:"day"`
	RequestFigures
}

// Metrics is get_metrics: PerformanceMetrics plus the counters since this
// process started and the last 30 persisted days (the days this process
// has not flushed yet included).
func (s *Service) Metrics(ctx context.Context) (MetricsReport, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return MetricsReport{}, err
	}
	pm, err := s.PerformanceMetrics(ctx)
	if err != nil {
		return MetricsReport{}, err
	}
	snap := s.counters.Snapshot()
	hits, misses := s.cache.Stats()
	r := MetricsReport{PerformanceMetrics: pm, UptimeSeconds: s.process.Uptime().Seconds(),
		SinceStart: figures(store.RequestMetrics{Requests: snap.Requests, Errors: snap.Errors,
			DurationUS: snap.Total.Microseconds(), CacheHits: hits, CacheMisses: misses})}
	from := s.now().UTC().AddDate(0, 0, -(metricsDays - 1)).Format(model.DateLayout)
	if err := s.FlushMetrics(ctx); err != nil {
		s.log.Warn("cannot persist request metrics", "err", err)
	}
	days, err := s.store.RequestMetricsDays(ctx, from, "")
	if err != nil {
		return r, err
	}
	r.Days = make([]DayFigures, 0, len(days))
	for _, d := range days {
		r.Days = append(r.Days, DayFigures{Day: d.Day, RequestFigures: figures(d)})
	}
	return r, nil
}

func figures(m store.RequestMetrics) RequestFigures {
	return RequestFigures{Requests: m.Requests, Errors: m.Errors, AverageResponseTime: ratio(m.DurationUS, m.Requests) / 1e6,
		ErrorRate: ratio(m.Errors, m.Requests), CacheHits: m.CacheHits, CacheMisses: m.CacheMisses,
		CacheHitRate: ratio(m.CacheHits, m.CacheHits+m.CacheMisses)}
}

func addCounts(t store.RequestMetrics, u monitor.DayCounts) store.RequestMetrics {
	t.Requests += u.Requests
	t.Errors += u.Errors
	t.DurationUS += u.Total.Microseconds()
	t.CacheHits += u.CacheHits
	t.CacheMisses += u.CacheMisses
	return t
}

// ratio is a / b, 0 when b is 0, so rates are never NaN.
func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
