package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// APIToken is an API token for non-browser clients. Only a hash of the
// token is stored; the token itself is shown once, at creation.
type APIToken struct {
	ID   int64      `json:"id"`
	Name string     `json:"name"`
	Role model.Role `json:"role"`
	// CreatedBy names who created it: a dashboard user, or the CLI or
	// desktop ("cli", "desktop:NAME").
	CreatedBy string `json:"created_by"`
	CreatedAt string `json:"created_at"`
	// LastUsed is written at most once a minute per token.
	LastUsed  string `json:"last_used"`
	RevokedAt string `json:"revoked_at"`

	// Creator is the dashboard user who created the token, nil for a
	// local front door or a deleted user: the user's current role caps
	// the token's, and a disabled user's tokens do not work.
	Creator *TokenCreator `json:"-"`
}

// TokenCreator is the current state of a token's creator.
type TokenCreator struct {
	ID       int64
	Role     model.Role
	Disabled bool
}

// NewAPIToken is what CreateToken stores.
type NewAPIToken struct {
	Name      string
	Hash      string
	Role      model.Role
	CreatorID int64 // 0: a local front door
	CreatedBy string
}

const insertTokenSQL = `INSERT INTO api_tokens(name, token_hash, role, creator_id, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)`

// CreateToken stores a token hash under a name, and its audit event (the
// token's id added to its details) in the same transaction.
func (s *Store) CreateToken(ctx context.Context, t NewAPIToken, at time.Time, audit AuditEvent) (APIToken, error) {
	ts := at.UTC().Format(time.RFC3339)
	var creator any
	if t.CreatorID != 0 {
		creator = t.CreatorID
	}
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, insertTokenSQL, t.Name, t.Hash, t.Role, creator, t.CreatedBy, ts)
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		audit.Details = withDetail(audit.Details, "token_id", id)
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		if isUniqueViolation(err) {
			return APIToken{}, ErrDuplicate
		}
		return APIToken{}, fmt.Errorf("store: create token: %w", err)
	}
	return APIToken{ID: id, Name: t.Name, Role: t.Role, CreatedBy: t.CreatedBy, CreatedAt: ts}, nil
}

// tokenColumns are the columns scanToken reads, in its order: the token
// and its creator's current role and state.
const tokenColumns = `t.id, t.name, t.role, t.created_by, t.created_at, t.last_used, t.revoked_at,
	u.id, coalesce(u.role, ''), coalesce(u.disabled_at, 0) <> 0
	FROM api_tokens t LEFT JOIN users u ON u.id = t.creator_id`

func scanToken(sc interface{ Scan(...any) error }) (APIToken, error) {
	var t APIToken
	var uid sql.NullInt64
	var c TokenCreator
	if err := sc.Scan(&t.ID, &t.Name, &t.Role, &t.CreatedBy, &t.CreatedAt, &t.LastUsed, &t.RevokedAt, &uid, &c.Role, &c.Disabled); err != nil {
		return APIToken{}, err
	}
	if uid.Valid {
		c.ID = uid.Int64
		t.Creator = &c
	}
	return t, nil
}

const tokenByHashSQL = `SELECT ` + tokenColumns + ` WHERE t.token_hash = ?`

// TokenByHash returns the token with that hash, revoked or not;
// ErrNotFound if none.
func (s *Store) TokenByHash(ctx context.Context, tokenHash string) (APIToken, error) {
	t, err := scanToken(s.r.QueryRowContext(ctx, tokenByHashSQL, tokenHash))
	if errors.Is(err, sql.ErrNoRows) {
		return APIToken{}, ErrNotFound
	}
	if err != nil {
		return APIToken{}, fmt.Errorf("store: token: %w", err)
	}
	return t, nil
}

const tokensSQL = `SELECT ` + tokenColumns + ` ORDER BY t.id`

// Tokens lists every token, revoked ones included.
func (s *Store) Tokens(ctx context.Context) ([]APIToken, error) {
	out := []APIToken{}
	err := s.query(ctx, tokensSQL, nil, func(rows *sql.Rows) error {
		t, err := scanToken(rows)
		if err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

const revokeTokenSQL = `UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at = ''`
const tokenExistsSQL = `SELECT count(*) FROM api_tokens WHERE id = ?`

// RevokeToken marks a token revoked, with its audit event in the same
// transaction; ErrNotFound if there is no such token. Revoking a revoked
// token keeps its first revocation time.
func (s *Store) RevokeToken(ctx context.Context, id int64, at time.Time, audit AuditEvent) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, tokenExistsSQL, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, revokeTokenSQL, at.UTC().Format(time.RFC3339), id); err != nil {
			return err
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("store: revoke token: %w", err)
	}
	return err
}

const touchTokenSQL = `UPDATE api_tokens SET last_used = ? WHERE id = ?`

// TouchToken records when a token was last used.
func (s *Store) TouchToken(ctx context.Context, id int64, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, touchTokenSQL, at.UTC().Format(time.RFC3339), id); err != nil {
		return fmt.Errorf("store: touch token: %w", err)
	}
	return nil
}
