package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// SSOLogin is a login sent to the identity provider and not yet back. Only
// the state's hash is kept; the nonce and verifier check the answer.
type SSOLogin struct {
	StateHash string
	Nonce     string
	Verifier  string
	CreatedAt time.Time
	ExpiresAt time.Time
}

const (
	insertSSOLoginSQL = `INSERT INTO sso_logins(state_hash, nonce, verifier, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`
	pruneSSOLoginsSQL = `DELETE FROM sso_logins WHERE expires_at <= ?`
	takeSSOLoginSQL   = `DELETE FROM sso_logins WHERE state_hash = ? RETURNING nonce, verifier, created_at, expires_at`
)

// CreateSSOLogin stores a login begun at now, and drops expired ones so
// abandoned logins cannot grow the table.
func (s *Store) CreateSSOLogin(ctx context.Context, l SSOLogin, now time.Time) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, pruneSSOLoginsSQL, now.Unix()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, insertSSOLoginSQL, l.StateHash, l.Nonce, l.Verifier, l.CreatedAt.Unix(), l.ExpiresAt.Unix())
		return err
	})
	if err != nil {
		return fmt.Errorf("store: create sso login: %w", err)
	}
	return nil
}

// TakeSSOLogin removes and returns the login with that state hash, so a
// state is accepted once. An unknown or expired one is ErrNotFound.
func (s *Store) TakeSSOLogin(ctx context.Context, stateHash string, now time.Time) (SSOLogin, error) {
	l := SSOLogin{StateHash: stateHash}
	var created, expires int64
	err := s.w.QueryRowContext(ctx, takeSSOLoginSQL, stateHash).Scan(&l.Nonce, &l.Verifier, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return SSOLogin{}, ErrNotFound
	}
	if err != nil {
		return SSOLogin{}, fmt.Errorf("store: take sso login: %w", err)
	}
	l.CreatedAt, l.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	if !now.Before(l.ExpiresAt) {
		return SSOLogin{}, ErrNotFound
	}
	return l, nil
}
