package server

import (
	"math"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
)

// rate is an allowance of limit requests per period.
type rate struct {
	limit  int
	period time.Duration
}

// limitKey is one allowance a request draws on.
type limitKey struct {
	key  string
	rate rate
}

// limiter enforces allowances with the generic cell rate algorithm: each
// key keeps one time (its "theoretical arrival time"), a burst of up to
// limit requests passes, and after that one request per period/limit.
// It needs no per-request history, and Retry-After is exact.
type limiter struct {
	mu        sync.Mutex
	tat       map[string]time.Time
	now       func() time.Time
	lastSweep time.Time
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{tat: map[string]time.Time{}, now: now}
}

// allow draws one request from every allowance, or from none: a request
// refused by one allowance does not use up the others. When refused, it
// returns how long until the request would pass.
func (l *limiter) allow(keys []limitKey) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	next := make([]time.Time, len(keys))
	var wait time.Duration
	for i, k := range keys {
		if k.rate.limit <= 0 {
			continue
		}
		interval := k.rate.period / time.Duration(k.rate.limit)
		t := l.tat[k.key]
		if t.Before(now) {
			t = now
		}
		next[i] = t.Add(interval)
		if over := next[i].Sub(now) - k.rate.period; over > 0 && over > wait {
			wait = over
		}
	}
	if wait > 0 {
		return false, wait
	}
	for i, k := range keys {
		if k.rate.limit > 0 {
			l.tat[k.key] = next[i]
		}
	}
	return true, 0
}

// sweep drops keys whose allowance is whole again, at most once a minute,
// so the map holds only clients active in the last period.
func (l *limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < time.Minute {
		return
	}
	l.lastSweep = now
	for k, t := range l.tat {
		if !t.After(now) {
			delete(l.tat, k)
		}
	}
}

// errRateLimited is the 429 answer with details.retry_after in seconds.
func errRateLimited(wait time.Duration) error {
	sec := int(math.Ceil(wait.Seconds()))
	if sec < 1 {
		sec = 1
	}
	return apperr.E(apperr.RateLimited, "rate limit exceeded: try again in %d seconds", sec).WithDetail("retry_after", sec)
}
