package service

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/sso"
	"github.com/costpilot/costpilot/backend/store"
)

// ReasonUserDisabled is details.reason of a single sign-on refused because
// an admin disabled the user.
const ReasonUserDisabled = "user_disabled"

// Audit events of single sign-on.
const (
	AuditSSOLogin   = "sso_login_success"
	AuditSSOUser    = "sso_user_provision" // a user created or changed by a login
	AuditSSORefused = "sso_login_refused"
)

// ssoLoginTTL is how long a login may stay at the identity provider.
const ssoLoginTTL = 10 * time.Minute

// SSOEnabled reports whether single sign-on is configured
// (dashboard.auth.oidc.enabled, with auth on).
func (s *Service) SSOEnabled() bool {
	a := s.cfg.Dashboard.Auth
	return a.Enabled && a.OIDC.Enabled
}

// CheckSSO reads the client secret and prepares the relying party, so the
// dashboard refuses to start, naming the setting, rather than fail every
// login. It does not contact the provider: that happens at the first login
// and again after a failure, so the dashboard starts while it is down.
func (s *Service) CheckSSO() error {
	_, err := s.ssoClient()
	return err
}

// ssoClient returns the relying party, built once.
func (s *Service) ssoClient() (*sso.Client, error) {
	if !s.SSOEnabled() {
		return nil, apperr.E(apperr.NotFound, "single sign-on is not configured (dashboard.auth.oidc)")
	}
	s.ssoMu.Lock()
	defer s.ssoMu.Unlock()
	if s.sso != nil {
		return s.sso, nil
	}
	o := s.cfg.Dashboard.Auth.OIDC
	secret, err := o.ReadClientSecret()
	if err != nil {
		return nil, err
	}
	// ID tokens are checked against the wall clock, not the Service's: the
	// provider mints them by its own.
	s.sso = sso.New(sso.Settings{Issuer: o.Issuer, ClientID: o.ClientID, ClientSecret: secret, RedirectURL: o.RedirectURL,
		Scopes: o.Scopes, Policy: sso.PolicyFrom(o)})
	return s.sso, nil
}

// SSOStart is a login sent to the identity provider.
type SSOStart struct {
	// URL is where the browser goes to log in.
	URL string
	// Binding is the value of the short-lived cookie that ties the login
	// to this browser: the signed state. The callback must bring it back.
	Binding string
	MaxAge  int // seconds
}

// StartSSO begins a login at the identity provider: fresh state, nonce and
// PKCE verifier, kept in the database (any process on the data dir can
// finish it) for ten minutes, and the URL to send the browser to.
func (s *Service) StartSSO(ctx context.Context) (SSOStart, error) {
	c, err := s.ssoClient()
	if err != nil {
		return SSOStart{}, err
	}
	keys, err := s.keys()
	if err != nil {
		return SSOStart{}, err
	}
	l, err := sso.NewLogin()
	if err != nil {
		return SSOStart{}, err
	}
	u, err := c.AuthCodeURL(ctx, l)
	if err != nil {
		return SSOStart{}, err
	}
	now := s.now()
	if err := s.store.CreateSSOLogin(ctx, store.SSOLogin{StateHash: security.HashToken(l.State), Nonce: l.Nonce,
		Verifier: l.Verifier, CreatedAt: now, ExpiresAt: now.Add(ssoLoginTTL)}, now); err != nil {
		return SSOStart{}, err
	}
	return SSOStart{URL: u, Binding: keys.Sign(l.State), MaxAge: int(ssoLoginTTL.Seconds())}, nil
}

// SSOCallback is what the browser brings back from the identity provider.
type SSOCallback struct {
	State            string // query: state
	Code             string // query: code
	Error            string // query: error, when the provider refused
	ErrorDescription string // query: error_description
	Binding          string // the cookie StartSSO set
	ClientAddr       string
	Previous         string // the session cookie the browser still sent, if any
}

// FinishSSO completes a login: the state must be the one this browser
// started (its cookie) and still pending (it is used once); the code is
// exchanged with the login's PKCE verifier; the ID token is verified,
// nonce included; the user's domain and groups must be allowed and a role
// must follow from the claims. The user is created on a first login, with
// no password, and the role updated at every login. Then a session is
// created as for a local login. Refusals are SecurityErrors with
// details.reason (package sso) and are audited.
func (s *Service) FinishSSO(ctx context.Context, cb SSOCallback) (LoginResult, error) {
	c, err := s.ssoClient()
	if err != nil {
		return LoginResult{}, err
	}
	keys, err := s.keys()
	if err != nil {
		return LoginResult{}, err
	}
	res, who, err := s.finishSSO(ctx, c, keys, cb)
	if err != nil {
		d := map[string]any{"reason": sso.ReasonOf(err)}
		if d["reason"] == "" {
			d["error"] = err.Error()
		}
		if aerr := s.audit(ctx, AuditSSORefused, who, cb.ClientAddr, d); aerr != nil {
			return LoginResult{}, aerr
		}
		return LoginResult{}, err
	}
	return res, nil
}

func errState(msg string) error {
	return apperr.E(apperr.Security, "%s: start the login again", msg).WithDetail("reason", sso.ReasonState)
}

func (s *Service) finishSSO(ctx context.Context, c *sso.Client, keys *security.Keys, cb SSOCallback) (LoginResult, string, error) {
	bound, err := keys.Unsign(cb.Binding)
	if cb.Binding == "" || err != nil {
		return LoginResult{}, "", errState("this login was not started in this browser or took too long")
	}
	// The pending login is taken whatever follows, so a state is tried once.
	pending, err := s.store.TakeSSOLogin(ctx, security.HashToken(bound), s.now())
	if errors.Is(err, store.ErrNotFound) {
		return LoginResult{}, "", errState("this login has expired or was already used")
	}
	if err != nil {
		return LoginResult{}, "", err
	}
	if subtle.ConstantTimeCompare([]byte(cb.State), []byte(bound)) != 1 {
		return LoginResult{}, "", errState("the identity provider's answer does not match the login this browser started")
	}
	if cb.Error != "" {
		return LoginResult{}, "", apperr.E(apperr.Unauthenticated, "the identity provider did not log you in: %s", providerError(cb.Error, cb.ErrorDescription)).
			WithDetail("reason", sso.ReasonProviderError)
	}
	if cb.Code == "" {
		return LoginResult{}, "", apperr.E(apperr.Validation, "the identity provider sent no code").WithDetail("field", "code")
	}
	id, err := c.Exchange(ctx, cb.Code, sso.Login{State: bound, Nonce: pending.Nonce, Verifier: pending.Verifier})
	if err != nil {
		return LoginResult{}, "", err
	}
	who := id.DashboardName()
	role, err := c.Policy().Decide(id)
	if err != nil {
		return LoginResult{}, who, err
	}
	u, created, err := s.store.UpsertSSOUser(ctx, store.SSOUser{Issuer: id.Issuer, Subject: id.Subject, Username: who, Role: role},
		s.auditEvent(AuditSSOUser, who, cb.ClientAddr, map[string]any{"issuer": id.Issuer, "role": string(role)}))
	if errors.Is(err, store.ErrDuplicate) {
		return LoginResult{}, who, apperr.E(apperr.Security, "the dashboard already has a user called %s (a local one, or one of another identity provider): an administrator must delete it (costpilot user delete) before %s can sign in with single sign-on", who, who).
			WithDetail("reason", sso.ReasonUsernameTaken)
	}
	if err != nil {
		return LoginResult{}, who, err
	}
	if u.Disabled {
		// The provider says who it is; an admin here said it may not come in.
		return LoginResult{}, who, apperr.E(apperr.Security, "%s is disabled on this dashboard: ask an administrator", who).
			WithDetail("reason", ReasonUserDisabled)
	}
	ev := s.auditEvent(AuditSSOLogin, u.Username, cb.ClientAddr, map[string]any{"issuer": id.Issuer, "role": string(role), "created": created})
	res, err := s.newSession(ctx, keys, u, cb.Previous, nil, ev)
	if err != nil {
		return LoginResult{}, who, err
	}
	return res, who, nil
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

// ssoLogoutURL is the identity provider's logout URL, coming back to the
// dashboard's login page; "" when the provider offers none.
func (s *Service) ssoLogoutURL(ctx context.Context) string {
	c, err := s.ssoClient()
	if err != nil {
		return ""
	}
	u, err := url.Parse(s.cfg.Dashboard.Auth.OIDC.RedirectURL)
	if err != nil {
		return ""
	}
	back := url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/login"}
	return c.EndSessionURL(ctx, back.String())
}
