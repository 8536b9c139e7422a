package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// APIToken is an API token for non-browser clients. Only a hash of the
// token is stored; the token itself is shown once, at creation.
type APIToken struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
	LastUsed  string `json:"last_used"`
	RevokedAt string `json:"revoked_at"`
}

const insertTokenSQL = `INSERT INTO api_tokens(name, token_hash, created_at) VALUES (?, ?, ?)`

// CreateToken stores a token hash under a name.
func (s *Store) CreateToken(ctx context.Context, name, tokenHash string, at time.Time) (APIToken, error) {
	ts := at.UTC().Format(time.RFC3339)
	res, err := s.w.ExecContext(ctx, insertTokenSQL, name, tokenHash, ts)
	if err != nil {
		if isUniqueViolation(err) {
			return APIToken{}, ErrDuplicate
		}
		return APIToken{}, fmt.Errorf("store: create token: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return APIToken{}, fmt.Errorf("store: create token: %w", err)
	}
	return APIToken{ID: id, Name: name, CreatedAt: ts}, nil
}

const tokenByHashSQL = `SELECT id, name, created_at, last_used, revoked_at FROM api_tokens WHERE token_hash = ?`

// TokenByHash returns the token with that hash, revoked or not;
// ErrNotFound if none.
func (s *Store) TokenByHash(ctx context.Context, tokenHash string) (APIToken, error) {
	var t APIToken
	err := s.r.QueryRowContext(ctx, tokenByHashSQL, tokenHash).Scan(&t.ID, &t.Name, &t.CreatedAt, &t.LastUsed, &t.RevokedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return APIToken{}, ErrNotFound
	}
	if err != nil {
		return APIToken{}, fmt.Errorf("store: token: %w", err)
	}
	return t, nil
}

const tokensSQL = `SELECT id, name, created_at, last_used, revoked_at FROM api_tokens ORDER BY id`

// Tokens lists every token, revoked ones included.
func (s *Store) Tokens(ctx context.Context) ([]APIToken, error) {
	out := []APIToken{}
	err := s.query(ctx, tokensSQL, nil, func(rows *sql.Rows) error {
		var t APIToken
		if err := rows.Scan(&t.ID, &t.Name, &t.CreatedAt, &t.LastUsed, &t.RevokedAt); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

const revokeTokenSQL = `UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at = ''`
const tokenExistsSQL = `SELECT count(*) FROM api_tokens WHERE id = ?`

// RevokeToken marks a token revoked; ErrNotFound if there is no such
// token. Revoking a revoked token keeps its first revocation time.
func (s *Store) RevokeToken(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, revokeTokenSQL, at.UTC().Format(time.RFC3339), id); err != nil {
		return fmt.Errorf("store: revoke token: %w", err)
	}
	var n int
	if err := s.w.QueryRowContext(ctx, tokenExistsSQL, id).Scan(&n); err != nil {
		return fmt.Errorf("store: revoke token: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

const touchTokenSQL = `UPDATE api_tokens SET last_used = ? WHERE id = ?`

// TouchToken records when a token was last used.
func (s *Store) TouchToken(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, touchTokenSQL, at.UTC().Format(time.RFC3339), id); err != nil {
		return fmt.Errorf("store: touch token: %w", err)
	}
	return nil
}
