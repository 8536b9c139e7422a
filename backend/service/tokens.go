package service

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/store"
)

// NewToken is a token just created; Token is shown once and never stored.
type NewToken struct {
	store.APIToken
	Token string `json:"token"`
}

// tokenTouchEvery bounds how often last_used is written: one write per
// minute per token instead of one per request.
const tokenTouchEvery = time.Minute

// AuthenticateToken returns the client of an API token (sent as
// Authorization: Bearer). Unknown and revoked tokens are Unauthenticated.
func (s *Service) AuthenticateToken(ctx context.Context, token string) (Principal, error) {
	bad := apperr.E(apperr.Unauthenticated, "invalid or revoked API token")
	if !strings.HasPrefix(token, security.TokenPrefix) || len(token) > 256 {
		return Principal{}, bad
	}
	t, err := s.store.TokenByHash(ctx, security.HashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, bad
	}
	if err != nil {
		return Principal{}, err
	}
	if t.RevokedAt != "" {
		return Principal{}, bad
	}
	role := t.Role
	if c := t.Creator; c != nil {
		// The creator's current state: a disabled creator's tokens stop,
		// a demoted creator's are capped at the new role.
		if c.Disabled {
			return Principal{}, bad
		}
		if c.Role.Rank() < role.Rank() {
			role = c.Role
		}
	}
	now := s.now()
	if last, err := time.Parse(time.RFC3339, t.LastUsed); err != nil || now.Sub(last) >= tokenTouchEvery {
		if err := s.store.TouchToken(ctx, t.ID, now); err != nil {
			s.log.Warn("cannot record token use", "token_id", t.ID, "err", err)
		}
	}
	return Principal{Kind: PrincipalToken, TokenID: t.ID, TokenName: t.Name, Role: role}, nil
}

// TokenRequest is POST /api/tokens.
type TokenRequest struct {
	Name string `json:"name"`
	// Role defaults to the creator's; it may not be above it.
	Role model.Role `json:"role,omitempty"`
}

// CreateToken creates an API token. The token is in the result only; the
// store keeps its hash. Admin only; the token's role is at most the
// creator's, and a dashboard user's tokens follow the user: capped by
// the user's role, stopped while the user is disabled, revoked when the
// user is deleted.
func (s *Service) CreateToken(ctx context.Context, r TokenRequest) (NewToken, error) {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return NewToken{}, err
	}
	name := strings.TrimSpace(r.Name)
	if name == "" || utf8.RuneCountInString(name) > 100 {
		return NewToken{}, apperr.E(apperr.Validation, "token name must be 1 to 100 characters").WithDetail("field", "name")
	}
	if r.Role == "" {
		r.Role = p.Role
	}
	if err := apperr.OneOf("role", r.Role, model.Roles); err != nil {
		return NewToken{}, err
	}
	if !p.Role.AtLeast(r.Role) {
		return NewToken{}, apperr.E(apperr.Security, "a token's role may not be above its creator's (%s)", p.Role).
			WithDetail("reason", "role_above_creator").WithDetail("field", "role")
	}
	tok, err := security.NewAPIToken()
	if err != nil {
		return NewToken{}, err
	}
	nt := store.NewAPIToken{Name: name, Hash: security.HashToken(tok), Role: r.Role, CreatedBy: p.Name()}
	if p.Kind == PrincipalSession {
		nt.CreatorID = p.UserID
	}
	t, err := s.store.CreateToken(ctx, nt, s.now(), s.auditBy(p, AuditTokenCreate, map[string]any{"name": name, "role": string(r.Role)}))
	if err != nil {
		return NewToken{}, err
	}
	return NewToken{APIToken: t, Token: tok}, nil
}

// Tokens lists the API tokens (never the tokens themselves) with their
// last use. Admin only.
func (s *Service) Tokens(ctx context.Context) ([]store.APIToken, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return nil, err
	}
	return s.store.Tokens(ctx)
}

// RevokeToken revokes an API token by id; it stops working at once, in
// every process. Admin only.
func (s *Service) RevokeToken(ctx context.Context, id int64) error {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return err
	}
	err = s.store.RevokeToken(ctx, id, s.now(), s.auditBy(p, AuditTokenRevoke, map[string]any{"token_id": id}))
	if errors.Is(err, store.ErrNotFound) {
		return apperr.E(apperr.NotFound, "no API token with id %d", id).WithDetail("field", "id")
	}
	return err
}
