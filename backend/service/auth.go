package service

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/loginthrottle"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/store"
)

// Audit events.
const (
	AuditLoginSuccess = "login_success"
	AuditLoginFailure = "login_failure"
	AuditLoginLocked  = "login_refused_locked"
	AuditLogout       = "logout"
	AuditUserAdd      = "user_add"
	AuditUserPassword = "user_password"
	AuditUserDelete   = "user_delete"
	AuditTokenCreate  = "token_create"
	AuditTokenRevoke  = "token_revoke"
	AuditUserRole     = "user_role"
	AuditUserDisable  = "user_disable"
	AuditUserEnable   = "user_enable"
	AuditLoginRefused = "login_refused_disabled"
	AuditRuleSetSave  = "rule_set_save"
	AuditViewSave     = "view_save"
	AuditViewDelete   = "view_delete"
	AuditImport       = "import"
)

// LoginRequest is one login attempt. Previous is the session cookie the
// browser still sent, if any: it is ended so the id rotates at login.
type LoginRequest struct {
	Username   string
	Password   string
	ClientAddr string
	Previous   string
}

// LoginResult is a successful login: Session is the signed value for the
// cookie; it is valid until ExpiresAt.
type LoginResult struct {
	Username  string
	Role      model.Role
	Session   string
	ExpiresAt time.Time
	MaxAge    int // seconds
}

// NewToken is a token just created; Token is shown once and never stored.
type NewToken struct {
	store.APIToken
	Token string `json:"token"`
}

// errBadLogin is the one answer to a wrong password and to an unknown
// user, so a login reveals nothing about which usernames exist.
func errBadLogin() error {
	return apperr.E(apperr.Unauthenticated, "invalid username or password")
}

// MaxUsernameLen bounds usernames (in bytes: they are ASCII).
const MaxUsernameLen = 64

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`)

// ValidateUsername checks a new username: 1 to 64 letters, digits and
// . _ @ -, starting with a letter or digit.
func ValidateUsername(name string) error {
	if !usernameRE.MatchString(name) {
		return apperr.E(apperr.Validation, "username must be 1 to 64 letters, digits or . _ @ -, starting with a letter or digit").WithDetail("field", "username")
	}
	return nil
}

// ValidatePassword checks a new password's length (in characters).
func ValidatePassword(pw string) error {
	n := utf8.RuneCountInString(pw)
	if n < security.MinPasswordLen {
		return apperr.E(apperr.Validation, "password must be at least %d characters, got %d", security.MinPasswordLen, n).WithDetail("field", "password")
	}
	if len(pw) > security.MaxPasswordLen {
		return apperr.E(apperr.Validation, "password must be at most %d bytes", security.MaxPasswordLen).WithDetail("field", "password")
	}
	return nil
}

// keys derives the encryption and signing keys from the secret key. HKDF
// is microseconds, so they are derived per call rather than cached.
func (s *Service) keys() (*security.Keys, error) {
	k, err := s.SecretKey()
	if err != nil {
		return nil, err
	}
	return security.NewKeys(k)
}

// CheckSecretKey reports whether the secret key is usable, so the
// dashboard can refuse to start rather than fail every login.
func (s *Service) CheckSecretKey() error {
	_, err := s.keys()
	return err
}

// auditEvent is an audit line of event, now; the username and address
// are bounded, since a failed login's username is whatever the caller
// sent. A state change hands it to the store, which writes both in one
// transaction.
func (s *Service) auditEvent(event, username, addr string, details map[string]any) store.AuditEvent {
	if details == nil {
		details = map[string]any{}
	}
	return store.AuditEvent{Time: s.now().UTC().Format(time.RFC3339), Event: event, Username: Bounded(username, maxAuditLen),
		ClientAddr: Bounded(addr, maxAuditLen), Details: details}
}

// auditBy is the audit line of event done by p: it names p and p's address.
func (s *Service) auditBy(p Principal, event string, details map[string]any) store.AuditEvent {
	return s.auditEvent(event, p.Name(), p.ClientAddr, details)
}

// audit appends an event that changes nothing else (a refused login). It
// fails the call when it cannot be written: nothing goes unaudited.
func (s *Service) audit(ctx context.Context, event, username, addr string, details map[string]any) error {
	e := s.auditEvent(event, username, addr, details)
	if err := s.store.AddAudit(ctx, e, s.now()); err != nil {
		s.log.Error("cannot write the audit log", "event", event, "err", err)
		return err
	}
	return nil
}

// HasUsers reports whether any dashboard user exists.
func (s *Service) HasUsers(ctx context.Context) (bool, error) {
	n, err := s.store.CountUsers(ctx)
	return n > 0, err
}

// HasLocalUsers reports whether a user with a password exists: the way in
// when single sign-on's provider is down.
func (s *Service) HasLocalUsers(ctx context.Context) (bool, error) {
	users, err := s.store.Users(ctx)
	if err != nil {
		return false, err
	}
	for _, u := range users {
		if u.SSOIssuer == "" {
			return true, nil
		}
	}
	return false, nil
}

// NewUser is a local user to create (POST /api/users).
type NewUser struct {
	Username string `json:"username"`
	Password string `json:"password"`
	// Role defaults to viewer, or to admin for the first user, who must be
	// able to manage the others.
	Role model.Role `json:"role,omitempty"`
}

// AddUser creates a local dashboard user with a salted argon2id hash of
// the password. Admin only.
func (s *Service) AddUser(ctx context.Context, nu NewUser) (store.User, error) {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return store.User{}, err
	}
	if err := ValidateUsername(nu.Username); err != nil {
		return store.User{}, err
	}
	if nu.Role == "" {
		nu.Role = model.RoleViewer
		if n, err := s.store.CountUsers(ctx); err != nil {
			return store.User{}, err
		} else if n == 0 {
			nu.Role = model.RoleAdmin
		}
	}
	if err := apperr.OneOf("role", nu.Role, model.Roles); err != nil {
		return store.User{}, err
	}
	if err := ValidatePassword(nu.Password); err != nil {
		return store.User{}, err
	}
	h, err := security.HashPassword(ctx, nu.Password)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.store.CreateUser(ctx, nu.Username, h, nu.Role, s.auditBy(p, AuditUserAdd, map[string]any{"user": nu.Username, "role": string(nu.Role)}))
	if errors.Is(err, store.ErrDuplicate) {
		return store.User{}, apperr.E(apperr.Validation, "user %s already exists", nu.Username).WithDetail("field", "username")
	}
	if err != nil {
		return store.User{}, err
	}
	return u, nil
}

// SetUserPassword replaces a user's password and ends the user's
// sessions. Admin only.
func (s *Service) SetUserPassword(ctx context.Context, username, password string) error {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return err
	}
	if err := ValidatePassword(password); err != nil {
		return err
	}
	u, err := s.userByName(ctx, username)
	if err != nil {
		return err
	}
	if u.SSOIssuer != "" {
		return apperr.E(apperr.Validation, "%s signs in with single sign-on at %s and has no password here", username, u.SSOIssuer).WithDetail("field", "username")
	}
	h, err := security.HashPassword(ctx, password)
	if err != nil {
		return err
	}
	return s.store.SetPassword(ctx, u.ID, h, s.auditBy(p, AuditUserPassword, map[string]any{"user": u.Username}))
}

// Users lists the dashboard users (without hashes). Admin only.
func (s *Service) Users(ctx context.Context) ([]store.User, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return nil, err
	}
	return s.store.Users(ctx)
}

// UserChange is PATCH /api/users/{name}: each field present is changed.
type UserChange struct {
	Role     *model.Role `json:"role,omitempty"`
	Disabled *bool       `json:"disabled,omitempty"`
	Password *string     `json:"password,omitempty"`
}

// UpdateUser changes a user's role, enables or disables the user, or
// resets the password, and returns the user. Admin only. A single
// sign-on user's role comes from the identity provider at each login, so
// it cannot be set here; such a user can still be disabled. No change may
// leave the dashboard without an enabled admin. Disabling ends the user's
// sessions and stops the user's tokens at once, in every process.
func (s *Service) UpdateUser(ctx context.Context, username string, c UserChange) (store.User, error) {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.userByName(ctx, username)
	if err != nil {
		return store.User{}, err
	}
	if c.Role == nil && c.Disabled == nil && c.Password == nil {
		return store.User{}, apperr.E(apperr.Validation, "nothing to change: give role, disabled or password")
	}
	if c.Role != nil {
		if err := apperr.OneOf("role", *c.Role, model.Roles); err != nil {
			return store.User{}, err
		}
		if u.SSOIssuer != "" && *c.Role != u.Role {
			return store.User{}, apperr.E(apperr.Validation, "%s signs in with single sign-on: the role comes from the identity provider at each login", username).WithDetail("field", "role")
		}
	}
	if c.Password != nil {
		if err := s.SetUserPassword(ctx, username, *c.Password); err != nil {
			return store.User{}, err
		}
	}
	if c.Role != nil && *c.Role != u.Role {
		ev := s.auditBy(p, AuditUserRole, map[string]any{"user": u.Username, "from": string(u.Role), "to": string(*c.Role)})
		if err := lastAdmin(s.store.SetUserRole(ctx, u.ID, *c.Role, ev)); err != nil {
			return store.User{}, err
		}
	}
	if c.Disabled != nil && *c.Disabled != u.Disabled {
		kind := AuditUserEnable
		if *c.Disabled {
			kind = AuditUserDisable
		}
		ev := s.auditBy(p, kind, map[string]any{"user": u.Username})
		if err := lastAdmin(s.store.SetUserDisabled(ctx, u.ID, *c.Disabled, s.now(), ev)); err != nil {
			return store.User{}, err
		}
	}
	return s.userByName(ctx, username)
}

// lastAdmin words store.ErrLastAdmin for the caller.
func lastAdmin(err error) error {
	if errors.Is(err, store.ErrLastAdmin) {
		return apperr.E(apperr.Validation, "this is the last enabled admin: make another user an admin first").
			WithDetail("reason", "last_admin")
	}
	return err
}

// DeleteUser removes a user, the user's sessions and tokens. Admin only;
// the last enabled admin cannot be deleted.
func (s *Service) DeleteUser(ctx context.Context, username string) error {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return err
	}
	u, err := s.userByName(ctx, username)
	if err != nil {
		return err
	}
	return lastAdmin(s.store.DeleteUser(ctx, u.ID, s.auditBy(p, AuditUserDelete, map[string]any{"user": u.Username})))
}

func (s *Service) userByName(ctx context.Context, username string) (store.User, error) {
	u, err := s.store.UserByName(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, apperr.E(apperr.NotFound, "no user called %s", username).WithDetail("field", "username")
	}
	return u, err
}

// Login checks a username and password. Each attempt first reserves one
// of the max_login_attempts allowed per username and per client address,
// in the same database transaction that reads their locks, so that
// parallel attempts check at most that many passwords in all; while either
// is locked, every attempt is refused with a RateLimited error carrying
// details.retry_after, even with the right password. A wrong password and
// an unknown user get the same Unauthenticated error after the same work.
// On success the failures are forgotten, the previous session, if any, is
// ended and a new one is created.
func (s *Service) Login(ctx context.Context, r LoginRequest) (LoginResult, error) {
	subjects := loginthrottle.Subjects(r.Username, r.ClientAddr, func(v string) string { return Bounded(v, maxAuditLen) })
	locked, err := loginthrottle.PolicyFrom(s.cfg.Dashboard.Auth).Reserve(ctx, s.store, subjects, s.now())
	if locked {
		if err := s.audit(ctx, AuditLoginLocked, r.Username, r.ClientAddr, nil); err != nil {
			return LoginResult{}, err
		}
		return LoginResult{}, err
	}
	if err != nil {
		return LoginResult{}, err
	}
	keys, err := s.keys()
	if err != nil {
		return LoginResult{}, err
	}
	ok := false
	u, err := store.User{}, store.ErrNotFound
	if len(r.Username) <= MaxUsernameLen {
		u, err = s.store.UserByName(ctx, r.Username)
	}
	switch {
	case errors.Is(err, store.ErrNotFound) || len(r.Password) > security.MaxPasswordLen:
		if err := security.BurnVerification(ctx, r.Password); err != nil {
			return LoginResult{}, err
		}
	case err != nil:
		return LoginResult{}, err
	case u.PasswordHash == "":
		// A single sign-on user has no password: same answer, same work.
		if err := security.BurnVerification(ctx, r.Password); err != nil {
			return LoginResult{}, err
		}
	default:
		if ok, err = security.VerifyPassword(ctx, r.Password, u.PasswordHash); err != nil {
			return LoginResult{}, err
		}
	}
	if !ok {
		if err := s.audit(ctx, AuditLoginFailure, r.Username, r.ClientAddr, nil); err != nil {
			return LoginResult{}, err
		}
		return LoginResult{}, errBadLogin()
	}
	if u.Disabled {
		// Said only to whoever knows the password.
		if err := s.audit(ctx, AuditLoginRefused, u.Username, r.ClientAddr, nil); err != nil {
			return LoginResult{}, err
		}
		return LoginResult{}, errDisabled()
	}
	return s.newSession(ctx, keys, u, r.Previous, subjects, s.auditEvent(AuditLoginSuccess, u.Username, r.ClientAddr, nil))
}

// newSession ends the browser's previous session, if any, so the id
// rotates at every login, creates a new one for u, forgets the login
// failures of clear and writes the login's audit event, all in one
// transaction. Local and single sign-on logins end here alike.
func (s *Service) newSession(ctx context.Context, keys *security.Keys, u store.User, previous string, clear []store.ThrottleSubject, ev store.AuditEvent) (LoginResult, error) {
	now := s.now()
	st := store.SessionStart{Clear: clear, Audit: ev}
	if previous != "" {
		if id, err := keys.Unsign(previous); err == nil {
			st.Previous = security.HashToken(id)
		}
	}
	id, err := security.RandomString(32)
	if err != nil {
		return LoginResult{}, err
	}
	timeout := time.Duration(s.cfg.Dashboard.Auth.SessionTimeout) * time.Second
	se := store.Session{IDHash: security.HashToken(id), UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(timeout), ClientAddr: ev.ClientAddr}
	st.Session = se
	if err := s.store.StartSession(ctx, st, now); err != nil {
		return LoginResult{}, err
	}
	return LoginResult{Username: u.Username, Role: u.Role, Session: keys.Sign(id), ExpiresAt: se.ExpiresAt, MaxAge: int(timeout.Seconds())}, nil
}

// errDisabled refuses a disabled user's login.
func errDisabled() error {
	return apperr.E(apperr.Unauthenticated, "this account is disabled: ask an administrator").WithDetail("reason", "disabled")
}

func errNoSession() error {
	return apperr.E(apperr.Unauthenticated, "not logged in or the session expired: log in again")
}

// Authenticate returns the user of a session cookie value. A forged,
// unknown or expired session is Unauthenticated; an expired one is deleted.
func (s *Service) Authenticate(ctx context.Context, cookie string) (Principal, error) {
	keys, err := s.keys()
	if err != nil {
		return Principal{}, err
	}
	id, err := keys.Unsign(cookie)
	if err != nil {
		return Principal{}, errNoSession()
	}
	h := security.HashToken(id)
	se, err := s.store.SessionByHash(ctx, h)
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, errNoSession()
	}
	if err != nil {
		return Principal{}, err
	}
	if !s.now().Before(se.ExpiresAt) {
		if err := s.store.DeleteSession(ctx, h); err != nil {
			s.log.Warn("cannot delete an expired session", "err", err)
		}
		return Principal{}, errNoSession()
	}
	return Principal{Kind: PrincipalSession, Username: se.Username, UserID: se.UserID, SessionID: h, ExpiresAt: se.ExpiresAt,
		Role: se.Role, sso: se.SSOIssuer != ""}, nil
}

// Logout ends the session of a cookie value; an unknown one is ignored.
// For a user of single sign-on it returns the identity provider's logout
// URL, when the provider has one, so the browser logs out there too;
// else "".
func (s *Service) Logout(ctx context.Context, cookie, clientAddr string) (string, error) {
	p, err := s.Authenticate(ctx, cookie)
	if err != nil {
		return "", nil // nothing to end
	}
	if err := s.store.EndSession(ctx, p.SessionID, s.auditEvent(AuditLogout, p.Username, clientAddr, nil)); err != nil {
		return "", err
	}
	if !p.sso {
		return "", nil
	}
	return s.ssoLogoutURL(ctx), nil
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

// Audit log bounds: GET /api/audit?limit=.
const (
	AuditDefault = 100
	AuditMax     = 1000
)

// AuditLog returns the newest limit events of the audit log (0: 100; at
// most 1000). Admin only.
func (s *Service) AuditLog(ctx context.Context, limit int) ([]store.AuditEvent, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return nil, err
	}
	if limit == 0 {
		limit = AuditDefault
	}
	if limit < 1 || limit > AuditMax {
		return nil, apperr.E(apperr.Validation, "limit must be 1 to %d, got %d", AuditMax, limit).WithDetail("field", "limit")
	}
	return s.store.AuditEvents(ctx, limit)
}
