package service

import (
	"context"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
)

// RecordRequest counts one dashboard request for get_metrics.
func (s *Service) RecordRequest(d time.Duration, isError bool) {
	s.counters.Record(d, isError)
}

// PerformanceMetrics is SPEC.md 2.7: the cache hit rate, the request
// counters of this process, and its memory and CPU as fractions of the
// machine. Rates are 0, never NaN, when nothing was counted.
func (s *Service) PerformanceMetrics(ctx context.Context) (model.PerformanceMetrics, error) {
	snap := s.counters.Snapshot()
	return model.PerformanceMetrics{
		CacheHitRate:        s.cache.HitRate(),
		TotalRequests:       snap.Requests,
		AverageResponseTime: snap.AverageSeconds(),
		ErrorRate:           snap.ErrorRate(),
		MemoryUsage:         s.process.Memory(),
		CPUUsage:            s.process.CPU(),
	}, nil
}

// CounterSnapshot returns the raw request counters.
func (s *Service) CounterSnapshot() monitor.Snapshot { return s.counters.Snapshot() }
