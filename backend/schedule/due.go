// Package schedule is the delivery of scheduled reports: when a schedule
// is due, how a failed delivery is retried, the email (MIME with the
// report attached, sent over SMTP with STARTTLS or TLS and
// authentication) and the chat message with the headline numbers. It
// keeps no state: the service claims and records deliveries in the store.
package schedule

import (
	"slices"
	"time"

	"github.com/costpilot/costpilot/backend/config"
)

// Last is the latest time schedule s was due at or before t (UTC): the
// occurrence a delivery at t is for. It is the zero time for a schedule
// whose frequency is not valid.
func Last(s config.Schedule, t time.Time) time.Time {
	t = t.UTC()
	y, m, d := t.Date()
	switch s.Frequency {
	case config.Daily:
		due := time.Date(y, m, d, s.Hour, 0, 0, 0, time.UTC)
		if due.After(t) {
			due = due.AddDate(0, 0, -1)
		}
		return due
	case config.Weekly:
		wd := slices.Index(config.Weekdays, s.Weekday) // Monday is 0
		if wd < 0 {
			return time.Time{}
		}
		today := (int(t.Weekday()) + 6) % 7
		due := time.Date(y, m, d-(today-wd+7)%7, s.Hour, 0, 0, 0, time.UTC)
		if due.After(t) {
			due = due.AddDate(0, 0, -7)
		}
		return due
	case config.Monthly:
		if s.Day < 1 || s.Day > 28 {
			return time.Time{}
		}
		due := time.Date(y, m, s.Day, s.Hour, 0, 0, 0, time.UTC)
		if due.After(t) {
			due = time.Date(y, m-1, s.Day, s.Hour, 0, 0, 0, time.UTC)
		}
		return due
	}
	return time.Time{}
}

// Next is the first time schedule s is due after t (UTC); the zero time
// for a schedule whose frequency is not valid.
func Next(s config.Schedule, t time.Time) time.Time {
	last := Last(s, t)
	if last.IsZero() {
		return last
	}
	switch s.Frequency {
	case config.Daily:
		return last.AddDate(0, 0, 1)
	case config.Weekly:
		return last.AddDate(0, 0, 7)
	}
	// Day is at most 28, so the month after always has it.
	return last.AddDate(0, 1, 0)
}

// Retry policy of a failed delivery: the first retry after RetryBase,
// each later one twice as late, at most RetryMax apart, and no more than
// MaxAttempts tries in all. A delivery whose next occurrence comes first
// is given up for that one.
const (
	MaxAttempts = 5
	RetryBase   = 5 * time.Minute
	RetryMax    = 2 * time.Hour
)

// RetryAt is when a delivery that failed its attempts-th try at failed is
// tried again; the zero time when it has had MaxAttempts tries.
func RetryAt(attempts int, failed time.Time) time.Time {
	if attempts >= MaxAttempts {
		return time.Time{}
	}
	wait := RetryBase
	for i := 1; i < attempts && wait < RetryMax; i++ {
		wait *= 2
	}
	return failed.Add(min(wait, RetryMax))
}
