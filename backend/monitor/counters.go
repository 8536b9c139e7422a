// Package monitor measures costpilot itself: request counters (since start
// and per UTC day, for persisting), process CPU and memory as fractions of
// the machine, budget and anomaly evaluation, and webhook notifications.
package monitor

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Counters count the dashboard's requests since start, and per UTC day
// the counts not yet flushed to the store. They are safe for concurrent
// use.
type Counters struct {
	requests atomic.Int64
	errors   atomic.Int64
	totalUS  atomic.Int64

	mu      sync.Mutex // guards pending and the day's name
	pending map[string]DayCounts
	// dayNum and day name the UTC day of the last request counted: a
	// request names its day without formatting a date.
	dayNum int64
	day    string

	// flushMu serialises flushes and reads that combine the store with
	// what is pending, so a count is never seen twice or not at all.
	flushMu      sync.Mutex
	flushedHits  int64 // cache counters already flushed
	flushedMiss  int64
	lastFlush    atomic.Int64 // unix nanoseconds
	flushRunning atomic.Bool
}

// DayCounts are the counts of one UTC day.
type DayCounts struct {
	Day         string
	Requests    int64
	Errors      int64
	Total       time.Duration
	CacheHits   int64
	CacheMisses int64
}

// Zero reports whether nothing was counted.
func (d DayCounts) Zero() bool {
	return d.Requests == 0 && d.Errors == 0 && d.Total == 0 && d.CacheHits == 0 && d.CacheMisses == 0
}

func (d *DayCounts) add(o DayCounts) {
	d.Requests += o.Requests
	d.Errors += o.Errors
	d.Total += o.Total
	d.CacheHits += o.CacheHits
	d.CacheMisses += o.CacheMisses
}

// RecordAt counts one request that ended at t; isError marks 5xx answers.
func (c *Counters) RecordAt(t time.Time, d time.Duration, isError bool) {
	c.requests.Add(1)
	c.totalUS.Add(d.Microseconds())
	var e int64
	if isError {
		c.errors.Add(1)
		e = 1
	}
	n := t.Unix() / 86400
	c.mu.Lock()
	if c.day == "" || n != c.dayNum {
		c.dayNum, c.day = n, t.UTC().Format(model.DateLayout)
	}
	day := c.day
	if c.pending == nil {
		c.pending = map[string]DayCounts{}
	}
	p := c.pending[day]
	p.Day = day
	// Whole microseconds, as the store keeps them, so flushed and
	// since-start figures agree.
	p.add(DayCounts{Requests: 1, Errors: e, Total: time.Duration(d.Microseconds()) * time.Microsecond})
	c.pending[day] = p
	c.mu.Unlock()
}

// Snapshot is a copy of the counters.
type Snapshot struct {
	Requests int64
	Errors   int64
	Total    time.Duration
}

// Snapshot returns the counts since start.
func (c *Counters) Snapshot() Snapshot {
	return Snapshot{Requests: c.requests.Load(), Errors: c.errors.Load(), Total: time.Duration(c.totalUS.Load()) * time.Microsecond}
}

// CacheStats returns the cache's cumulative hit and miss counts.
type CacheStats func() (hits, misses int64)

// Flush hands write the request counts not yet flushed, one DayCounts per
// day, with the cache counters' growth since the last flush added to the
// day of now. When write fails the counts are kept for the next flush.
// Flushes are serialised; nothing is written when nothing was counted.
func (c *Counters) Flush(now time.Time, cache CacheStats, write func([]DayCounts) error) error {
	c.flushMu.Lock()
	defer c.flushMu.Unlock()
	days, hits, misses := c.take(now, cache)
	if len(days) == 0 {
		c.lastFlush.Store(now.UnixNano())
		return nil
	}
	if err := write(days); err != nil {
		c.putBack(days)
		return err
	}
	c.flushedHits, c.flushedMiss = hits, misses
	c.lastFlush.Store(now.UnixNano())
	return nil
}

// take removes the pending counts and adds the cache growth to today's.
func (c *Counters) take(now time.Time, cache CacheStats) ([]DayCounts, int64, int64) {
	c.mu.Lock()
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	var hits, misses int64
	if cache != nil {
		hits, misses = cache()
	}
	if dh, dm := hits-c.flushedHits, misses-c.flushedMiss; dh > 0 || dm > 0 {
		day := now.UTC().Format(model.DateLayout)
		if pending == nil {
			pending = map[string]DayCounts{}
		}
		p := pending[day]
		p.Day = day
		p.add(DayCounts{CacheHits: max(dh, 0), CacheMisses: max(dm, 0)})
		pending[day] = p
	}
	out := make([]DayCounts, 0, len(pending))
	for _, d := range pending {
		if !d.Zero() {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Day < out[j].Day })
	return out, hits, misses
}

// putBack returns request counts a failed flush took; the cache part is
// recomputed from the cache's counters next time, so it is dropped here.
func (c *Counters) putBack(days []DayCounts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		c.pending = map[string]DayCounts{}
	}
	for _, d := range days {
		d.CacheHits, d.CacheMisses = 0, 0
		p := c.pending[d.Day]
		p.Day = d.Day
		p.add(d)
		c.pending[d.Day] = p
	}
}

// View calls fn with the counts not yet flushed (summed over days, cache
// growth included) while no flush can run, so fn can add them to what the
// store holds without counting anything twice.
func (c *Counters) View(cache CacheStats, fn func(unflushed DayCounts) error) error {
	c.flushMu.Lock()
	defer c.flushMu.Unlock()
	var sum DayCounts
	c.mu.Lock()
	for _, d := range c.pending {
		sum.add(d)
	}
	c.mu.Unlock()
	if cache != nil {
		h, m := cache()
		sum.CacheHits += max(h-c.flushedHits, 0)
		sum.CacheMisses += max(m-c.flushedMiss, 0)
	}
	return fn(sum)
}

// StartFlushIfDue reports whether a periodic flush should start now: the
// last one is older than every and none is running. A true result marks a
// flush as running until FlushDone is called.
func (c *Counters) StartFlushIfDue(now time.Time, every time.Duration) bool {
	last := c.lastFlush.Load()
	if last == 0 {
		// The first request starts the clock, so a short-lived process
		// flushes on Close rather than on its first request.
		c.lastFlush.CompareAndSwap(0, now.UnixNano())
		return false
	}
	if now.Sub(time.Unix(0, last)) < every {
		return false
	}
	if !c.flushRunning.CompareAndSwap(false, true) {
		return false
	}
	// A failing store is retried after every, not on each request.
	c.lastFlush.Store(now.UnixNano())
	return true
}

// FlushDone ends a flush started by StartFlushIfDue.
func (c *Counters) FlushDone() { c.flushRunning.Store(false) }
