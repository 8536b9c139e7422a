package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Session is a dashboard login. Only a hash of its id is stored.
type Session struct {
	IDHash     string
	UserID     int64
	Username   string
	Role       model.Role
	SSOIssuer  string // the user's identity provider; empty for local users
	CreatedAt  time.Time
	ExpiresAt  time.Time
	ClientAddr string
}

const insertSessionSQL = `INSERT INTO sessions(id_hash, user_id, created_at, expires_at, client_addr) VALUES (?, ?, ?, ?, ?)`

// CreateSession stores a session.
func (s *Store) CreateSession(ctx context.Context, se Session) error {
	_, err := s.w.ExecContext(ctx, insertSessionSQL, se.IDHash, se.UserID, se.CreatedAt.Unix(), se.ExpiresAt.Unix(), se.ClientAddr)
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	return nil
}

// SessionStart is a login: its new session, the session the browser still
// had (ended, so the id rotates), the login failures it forgets and its
// audit event.
type SessionStart struct {
	Session  Session
	Previous string // id hash; "" for none
	Clear    []ThrottleSubject
	Audit    AuditEvent
}

// StartSession ends the previous and the expired sessions, stores the new
// one, forgets the failures and writes the audit event, in one
// transaction: a login is all of it or none.
func (s *Store) StartSession(ctx context.Context, st SessionStart, now time.Time) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if st.Previous != "" {
			if _, err := tx.ExecContext(ctx, deleteSessionSQL, st.Previous); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, deleteExpiredSessionsSQL, now.Unix()); err != nil {
			return err
		}
		se := st.Session
		if _, err := tx.ExecContext(ctx, insertSessionSQL, se.IDHash, se.UserID, se.CreatedAt.Unix(), se.ExpiresAt.Unix(), se.ClientAddr); err != nil {
			return err
		}
		for _, c := range st.Clear {
			if _, err := tx.ExecContext(ctx, clearFailuresSQL, c.Scope, c.Subject); err != nil {
				return err
			}
		}
		return addAudit(ctx, tx, st.Audit)
	})
	if err != nil {
		return fmt.Errorf("store: start session: %w", err)
	}
	return nil
}

// EndSession removes a session at logout with its audit event, in one
// transaction.
func (s *Store) EndSession(ctx context.Context, idHash string, audit AuditEvent) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, deleteSessionSQL, idHash); err != nil {
			return err
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		return fmt.Errorf("store: end session: %w", err)
	}
	return nil
}

const sessionSQL = `SELECT s.id_hash, s.user_id, u.username, u.role, u.sso_issuer, s.created_at, s.expires_at, s.client_addr
	FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ? AND u.disabled_at = 0`

// SessionByHash returns the session with that id hash, expired or not;
// ErrNotFound if none or if its user is disabled. The caller judges expiry against its clock.
func (s *Store) SessionByHash(ctx context.Context, idHash string) (Session, error) {
	var se Session
	var created, expires int64
	err := s.r.QueryRowContext(ctx, sessionSQL, idHash).Scan(&se.IDHash, &se.UserID, &se.Username, &se.Role, &se.SSOIssuer, &created, &expires, &se.ClientAddr)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, ErrNotFound
	}
	if err != nil {
		return Session{}, fmt.Errorf("store: session: %w", err)
	}
	se.CreatedAt, se.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	return se, nil
}

const deleteSessionSQL = `DELETE FROM sessions WHERE id_hash = ?`

// DeleteSession removes a session; removing a missing one is not an error.
func (s *Store) DeleteSession(ctx context.Context, idHash string) error {
	if _, err := s.w.ExecContext(ctx, deleteSessionSQL, idHash); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

const deleteExpiredSessionsSQL = `DELETE FROM sessions WHERE expires_at <= ?`

// DeleteExpiredSessions removes sessions expired at now and returns how many.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.w.ExecContext(ctx, deleteExpiredSessionsSQL, now.Unix())
	if err != nil {
		return 0, fmt.Errorf("store: delete expired sessions: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// Login throttling (brute-force protection) state lives beside the sessions
// it guards.

// Login throttle scopes.
const (
	ThrottleUser = "user"
	ThrottleAddr = "addr"
)

// LoginLock is the throttle state of one username or client address.
type LoginLock struct {
	Failures    int
	FirstAt     time.Time
	LockedUntil time.Time
}

const loginLockSQL = `SELECT failures, first_at, locked_until FROM login_failures WHERE scope = ? AND subject = ?`

// LoginLock returns the state of (scope, subject); zero when none.
func (s *Store) LoginLock(ctx context.Context, scope, subject string) (LoginLock, error) {
	var l LoginLock
	var first, until int64
	err := s.r.QueryRowContext(ctx, loginLockSQL, scope, subject).Scan(&l.Failures, &first, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return LoginLock{}, nil
	}
	if err != nil {
		return LoginLock{}, fmt.Errorf("store: login lock: %w", err)
	}
	l.FirstAt, l.LockedUntil = time.Unix(first, 0).UTC(), time.Unix(until, 0).UTC()
	return l, nil
}

const upsertFailureSQL = `INSERT INTO login_failures(scope, subject, failures, first_at, locked_until) VALUES (?, ?, 1, ?, 0)
	ON CONFLICT(scope, subject) DO UPDATE SET
		failures = CASE WHEN first_at <= ? AND locked_until <= ? THEN 1 ELSE failures + 1 END,
		first_at = CASE WHEN first_at <= ? AND locked_until <= ? THEN excluded.first_at ELSE first_at END,
		locked_until = CASE WHEN first_at <= ? AND locked_until <= ? THEN 0 ELSE locked_until END
	RETURNING failures`
const lockSQL = `UPDATE login_failures SET locked_until = ? WHERE scope = ? AND subject = ?`
const pruneFailuresSQL = `DELETE FROM login_failures WHERE first_at <= ? AND locked_until <= ?`

// ThrottleSubject is one thing a login counts against: a scope
// (ThrottleUser, ThrottleAddr) and its subject.
type ThrottleSubject struct{ Scope, Subject string }

// ReserveLoginAttempt decides whether a login may check its password, in
// one write transaction, so that parallel attempts (from any process on
// the data dir: SQLite's write lock orders them) cannot all read the same
// unlocked state. When a subject is locked at now, nothing changes and its
// lock is returned (LockedUntil after now). Otherwise every subject's
// failure count goes up by one before the password is checked: the
// attempt counts as a failure until ClearLoginFailures says it succeeded.
// A run of failures older than window (with no lock in force) starts over;
// the count reaching max locks the subject until now+window, so at most
// max passwords are checked per subject and window however many attempts
// arrive at once. Stale rows are pruned, so attempts with random usernames
// cannot grow the table without bound.
func (s *Store) ReserveLoginAttempt(ctx context.Context, subjects []ThrottleSubject, now time.Time, window time.Duration, max int) (LoginLock, error) {
	var locked LoginLock
	stale := now.Add(-window).Unix()
	n := now.Unix()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, pruneFailuresSQL, stale, n); err != nil {
			return err
		}
		for _, sub := range subjects {
			var l LoginLock
			var first, until int64
			err := tx.QueryRowContext(ctx, loginLockSQL, sub.Scope, sub.Subject).Scan(&l.Failures, &first, &until)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			if until > n {
				locked = LoginLock{Failures: l.Failures, FirstAt: time.Unix(first, 0).UTC(), LockedUntil: time.Unix(until, 0).UTC()}
				return nil
			}
		}
		for _, sub := range subjects {
			var failures int
			if err := tx.QueryRowContext(ctx, upsertFailureSQL, sub.Scope, sub.Subject, n, stale, n, stale, n, stale, n).Scan(&failures); err != nil {
				return err
			}
			if failures >= max {
				if _, err := tx.ExecContext(ctx, lockSQL, now.Add(window).Unix(), sub.Scope, sub.Subject); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return LoginLock{}, fmt.Errorf("store: reserve login attempt: %w", err)
	}
	return locked, nil
}

const clearFailuresSQL = `DELETE FROM login_failures WHERE scope = ? AND subject = ?`

// ClearLoginFailures forgets the failures of (scope, subject), after a
// successful login.
func (s *Store) ClearLoginFailures(ctx context.Context, scope, subject string) error {
	if _, err := s.w.ExecContext(ctx, clearFailuresSQL, scope, subject); err != nil {
		return fmt.Errorf("store: clear login failures: %w", err)
	}
	return nil
}
