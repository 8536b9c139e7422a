package sso

import (
	"context"
	"crypto/subtle"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/store"
)

// LoginTTL is how long a login may stay at the identity provider.
const LoginTTL = 10 * time.Minute

// ReasonUserDisabled is details.reason of a login refused because an
// admin disabled the user here.
const ReasonUserDisabled = "user_disabled"

// Logins keeps the logins in flight, so any process on the data dir can
// finish one, and the users single sign-on provisions: *store.Store.
type Logins interface {
	CreateSSOLogin(ctx context.Context, l store.SSOLogin, now time.Time) error
	TakeSSOLogin(ctx context.Context, stateHash string, now time.Time) (store.SSOLogin, error)
	UpsertSSOUser(ctx context.Context, su store.SSOUser, audit store.AuditEvent) (store.User, bool, error)
}

// Signer signs the state into the value of the cookie that ties a login
// to its browser: *security.Keys.
type Signer interface {
	Sign(value string) string
	Unsign(signed string) (string, error)
}

// Started is a login sent to the identity provider: URL is where the
// browser goes; Binding is the value of the short-lived cookie (the
// signed state) the callback must bring back, for MaxAge seconds.
type Started struct {
	URL     string
	Binding string
	MaxAge  int
}

// Start begins a login: fresh state, nonce and PKCE verifier, kept in
// logins for LoginTTL, and the URL to send the browser to.
func (c *Client) Start(ctx context.Context, logins Logins, keys Signer, now time.Time) (Started, error) {
	l, err := NewLogin()
	if err != nil {
		return Started{}, err
	}
	u, err := c.AuthCodeURL(ctx, l)
	if err != nil {
		return Started{}, err
	}
	if err := logins.CreateSSOLogin(ctx, store.SSOLogin{StateHash: security.HashToken(l.State), Nonce: l.Nonce,
		Verifier: l.Verifier, CreatedAt: now, ExpiresAt: now.Add(LoginTTL)}, now); err != nil {
		return Started{}, err
	}
	return Started{URL: u, Binding: keys.Sign(l.State), MaxAge: int(LoginTTL.Seconds())}, nil
}

// Callback is what the browser brings back from the identity provider.
type Callback struct {
	State            string // query: state
	Code             string // query: code
	Error            string // query: error, when the provider refused
	ErrorDescription string // query: error_description
	Binding          string // the cookie Start set
}

// Provisioned is the user a login signed in: created on a first login,
// with no password, its role updated at every login.
type Provisioned struct {
	User     store.User
	Identity Identity
	Role     model.Role
	Created  bool
}

// Finish completes a login: the state must be the one this browser
// started (its cookie) and still pending (it is used once); the code is
// exchanged with the login's PKCE verifier; the ID token is verified,
// nonce included; the user's domain and groups must be allowed and a role
// must follow from the claims. The user is then created or updated, with
// the audit event provision makes of the name and details, and must not
// be disabled here. who is the user's dashboard name once the provider
// said it ("" before), for auditing a refusal.
func (c *Client) Finish(ctx context.Context, logins Logins, keys Signer, cb Callback, now time.Time,
	provision func(who string, details map[string]any) store.AuditEvent) (p Provisioned, who string, err error) {
	bound, err := keys.Unsign(cb.Binding)
	if cb.Binding == "" || err != nil {
		return Provisioned{}, "", errState("this login was not started in this browser or took too long")
	}
	// The pending login is taken whatever follows, so a state is tried once.
	pending, err := logins.TakeSSOLogin(ctx, security.HashToken(bound), now)
	if errors.Is(err, store.ErrNotFound) {
		return Provisioned{}, "", errState("this login has expired or was already used")
	}
	if err != nil {
		return Provisioned{}, "", err
	}
	if subtle.ConstantTimeCompare([]byte(cb.State), []byte(bound)) != 1 {
		return Provisioned{}, "", errState("the identity provider's answer does not match the login this browser started")
	}
	if cb.Error != "" {
		return Provisioned{}, "", apperr.E(apperr.Unauthenticated, "the identity provider did not log you in: %s", providerError(cb.Error, cb.ErrorDescription)).
			WithDetail("reason", ReasonProviderError)
	}
	if cb.Code == "" {
		return Provisioned{}, "", apperr.E(apperr.Validation, "the identity provider sent no code").WithDetail("field", "code")
	}
	id, err := c.Exchange(ctx, cb.Code, Login{State: bound, Nonce: pending.Nonce, Verifier: pending.Verifier})
	if err != nil {
		return Provisioned{}, "", err
	}
	who = id.DashboardName()
	role, err := c.Policy().Decide(id)
	if err != nil {
		return Provisioned{}, who, err
	}
	u, created, err := logins.UpsertSSOUser(ctx, store.SSOUser{Issuer: id.Issuer, Subject: id.Subject, Username: who, Role: role},
		provision(who, map[string]any{"issuer": id.Issuer, "role": string(role)}))
	if errors.Is(err, store.ErrDuplicate) {
		return Provisioned{}, who, apperr.E(apperr.Security, "the dashboard already has a user called %s (a local one, or one of another identity provider): an administrator must delete it (costpilot user delete) before %s can sign in with single sign-on", who, who).
			WithDetail("reason", ReasonUsernameTaken)
	}
	if err != nil {
		return Provisioned{}, who, err
	}
	if u.Disabled {
		// The provider says who it is; an admin here said it may not come in.
		return Provisioned{}, who, apperr.E(apperr.Security, "%s is disabled on this dashboard: ask an administrator", who).
			WithDetail("reason", ReasonUserDisabled)
	}
	return Provisioned{User: u, Identity: id, Role: role, Created: created}, who, nil
}

func errState(msg string) error {
	return apperr.E(apperr.Security, "%s: start the login again", msg).WithDetail("reason", ReasonState)
}

// providerError is the provider's error code and description, made safe
// to show: bounded and on one line.
func providerError(code, desc string) string {
	clean := func(v string, n int) string {
		v = strings.Join(strings.Fields(v), " ")
		if utf8.RuneCountInString(v) > n {
			v = string([]rune(v)[:n]) + "…"
		}
		return v
	}
	out := clean(code, 64)
	if d := clean(desc, 200); d != "" {
		out += " (" + d + ")"
	}
	return out
}
