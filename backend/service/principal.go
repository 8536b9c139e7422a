package service

import (
	"context"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Principal kinds: who a request acts as.
const (
	PrincipalSession   = "session"
	PrincipalToken     = "token"
	PrincipalAnonymous = "anonymous" // auth disabled in the configuration
	// PrincipalLocal is the CLI or the desktop: whoever can run them on
	// this machine can read and write the data dir directly, so they act
	// as an admin (docs/decisions.md).
	PrincipalLocal = "local"
	// PrincipalSystem is the Service's own scheduled work (syncs, alerts).
	PrincipalSystem = "system"
)

// Principal is the caller of a Service method. Every front door puts one
// in the context (WithPrincipal) before calling the Service, which checks
// its Role against the permission each method needs.
type Principal struct {
	Kind      string
	Username  string    // session users; the local OS user for PrincipalLocal
	UserID    int64     // session users
	SessionID string    // hash of the session id: a key for per-session limits
	TokenID   int64     // token clients
	TokenName string    // token clients
	ExpiresAt time.Time // sessions
	// Role is what the caller may do: a session's user's role, a token's
	// role capped by its creator's, admin for local front doors.
	Role model.Role
	// ClientAddr is where the call came from, for the audit log: the
	// client's address over HTTP, "cli" or "desktop" locally.
	ClientAddr string

	sso bool // a session of a single sign-on user
}

// Name is how the audit log names the caller.
func (p Principal) Name() string {
	switch p.Kind {
	case PrincipalToken:
		return "token:" + p.TokenName
	case PrincipalAnonymous, PrincipalSystem:
		return p.Kind
	}
	return p.Username
}

// LocalAdmin is the principal of the CLI and the desktop, acting for the
// OS user name (may be empty) from door ("cli" or "desktop").
func LocalAdmin(door, name string) Principal {
	p := Principal{Kind: PrincipalLocal, Role: model.RoleAdmin, ClientAddr: door, Username: door}
	if name != "" {
		p.Username = door + ":" + name
	}
	return p
}

var systemPrincipal = Principal{Kind: PrincipalSystem, Role: model.RoleAdmin, ClientAddr: "system"}

type principalKey struct{}

// WithPrincipal returns ctx carrying p as the caller.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller ctx carries; false when there is none.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// Authorize is the one permission check: nil when p may do what perm
// covers, else a SecurityError (403) naming the permission, the role it
// needs and the caller's. The HTTP server calls it with each route's
// declared permission too, so a refused request is answered before its
// body is read; the Service checks again at every method.
func Authorize(p Principal, perm model.Permission) error {
	if p.Role.Can(perm) {
		return nil
	}
	return apperr.E(apperr.Security, "your role (%s) may not do this: it needs %s", roleName(p.Role), perm.MinRole()).
		WithDetail("reason", "forbidden").WithDetail("permission", string(perm)).
		WithDetail("required_role", string(perm.MinRole())).WithDetail("role", string(p.Role))
}

func roleName(r model.Role) string {
	if r == "" {
		return "none"
	}
	return string(r)
}

// errNoPrincipal is the answer to a call without a caller: a front door
// that forgot WithPrincipal fails closed.
func errNoPrincipal() error {
	return apperr.E(apperr.Unauthenticated, "no caller: log in, or send an API token")
}

// require checks, at the top of every Service method, that the caller in
// ctx holds perm, and returns the caller for the audit log.
func (s *Service) require(ctx context.Context, perm model.Permission) (Principal, error) {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return Principal{}, errNoPrincipal()
	}
	if err := Authorize(p, perm); err != nil {
		return p, err
	}
	// The providers a call reads depend on the history (demoGate): the
	// check is a version read, nanoseconds while nothing changed.
	s.refreshDemoGate(ctx)
	return p, nil
}

// can is require for methods that need only the check.
func (s *Service) can(ctx context.Context, perm model.Permission) error {
	_, err := s.require(ctx, perm)
	return err
}
