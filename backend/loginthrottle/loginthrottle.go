// Package loginthrottle is the brute-force rule of dashboard logins: what
// a login counts against (its username and its client address), how many
// failures lock them and for how long, and the RateLimited refusal. The
// counting itself is one store transaction (store.ReserveLoginAttempt);
// this package decides what it is asked and what its answer means.
package loginthrottle

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/store"
)

// Defaults when the configuration leaves a setting at zero.
const (
	DefaultMaxAttempts = 5
	DefaultWindow      = 900 * time.Second
)

// Policy is how many failed logins lock a username or address, and for
// how long: a lock lasts Window, and failures count towards one for
// Window.
type Policy struct {
	Window      time.Duration
	MaxAttempts int
}

// PolicyFrom reads dashboard.auth's max_login_attempts and
// lockout_seconds, with their defaults.
func PolicyFrom(a config.AuthConfig) Policy {
	p := Policy{Window: DefaultWindow, MaxAttempts: DefaultMaxAttempts}
	if a.LockoutSeconds > 0 {
		p.Window = time.Duration(a.LockoutSeconds) * time.Second
	}
	if a.MaxLoginAttempts > 0 {
		p.MaxAttempts = a.MaxLoginAttempts
	}
	return p
}

// Subjects are the username (case-folded, so case games do not multiply
// the allowance) and the client address a login counts against, each
// passed through bound (the caller's length rule for recorded strings).
func Subjects(username, addr string, bound func(string) string) []store.ThrottleSubject {
	return []store.ThrottleSubject{
		{Scope: store.ThrottleUser, Subject: bound(strings.ToLower(username))},
		{Scope: store.ThrottleAddr, Subject: bound(addr)},
	}
}

// Reserver reserves one login attempt against subjects in one
// transaction: *store.Store.
type Reserver interface {
	ReserveLoginAttempt(ctx context.Context, subjects []store.ThrottleSubject, now time.Time, window time.Duration, max int) (store.LoginLock, error)
}

// Reserve takes one of the allowed attempts for subjects before a
// password is checked. While a subject is locked it returns locked true
// and the RateLimited refusal (with details.retry_after) to give the
// caller, even for the right password; any other error is the store's.
func (p Policy) Reserve(ctx context.Context, r Reserver, subjects []store.ThrottleSubject, now time.Time) (locked bool, err error) {
	l, err := r.ReserveLoginAttempt(ctx, subjects, now, p.Window, p.MaxAttempts)
	if err != nil {
		return false, err
	}
	if l.LockedUntil.After(now) {
		return true, RetryAfter(l.LockedUntil, now)
	}
	return false, nil
}

// RetryAfter is the RateLimited error for a lock lasting until `until`:
// details.retry_after is the whole seconds left, at least one.
func RetryAfter(until, now time.Time) error {
	sec := int(math.Ceil(until.Sub(now).Seconds()))
	if sec < 1 {
		sec = 1
	}
	return apperr.E(apperr.RateLimited, "too many failed login attempts: try again in %d seconds", sec).WithDetail("retry_after", sec)
}
