// Package monitor measures costpilot itself: request counters, process
// CPU and memory as fractions of the machine, health, and alerts.
package monitor

import (
	"sync/atomic"
	"time"
)

// Counters count the dashboard's requests since start. They are safe for
// concurrent use.
type Counters struct {
	requests atomic.Int64
	errors   atomic.Int64
	totalUS  atomic.Int64
}

// Record counts one request; isError marks 5xx answers.
func (c *Counters) Record(d time.Duration, isError bool) {
	c.requests.Add(1)
	c.totalUS.Add(d.Microseconds())
	if isError {
		c.errors.Add(1)
	}
}

// Snapshot is a copy of the counters.
type Snapshot struct {
	Requests int64
	Errors   int64
	Total    time.Duration
}

// Snapshot returns the current counts.
func (c *Counters) Snapshot() Snapshot {
	return Snapshot{Requests: c.requests.Load(), Errors: c.errors.Load(), Total: time.Duration(c.totalUS.Load()) * time.Microsecond}
}

// AverageSeconds is the mean response time in seconds (0 with no requests).
func (s Snapshot) AverageSeconds() float64 {
	if s.Requests == 0 {
		return 0
	}
	return s.Total.Seconds() / float64(s.Requests)
}

// ErrorRate is errors / requests (0 with no requests).
func (s Snapshot) ErrorRate() float64 {
	if s.Requests == 0 {
		return 0
	}
	return float64(s.Errors) / float64(s.Requests)
}
