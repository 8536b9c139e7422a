package service

import (
	"context"
	"net/url"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/sso"
	"github.com/costpilot/costpilot/backend/store"
)

// ReasonUserDisabled is details.reason of a single sign-on refused because
// an admin disabled the user.
const ReasonUserDisabled = sso.ReasonUserDisabled

// Audit events of single sign-on.
const (
	AuditSSOLogin   = "sso_login_success"
	AuditSSOUser    = "sso_user_provision" // a user created or changed by a login
	AuditSSORefused = "sso_login_refused"
)

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
	st, err := c.Start(ctx, s.store, keys, s.now())
	if err != nil {
		return SSOStart{}, err
	}
	return SSOStart{URL: st.URL, Binding: st.Binding, MaxAge: st.MaxAge}, nil
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

func (s *Service) finishSSO(ctx context.Context, c *sso.Client, keys *security.Keys, cb SSOCallback) (LoginResult, string, error) {
	p, who, err := c.Finish(ctx, s.store, keys, sso.Callback{State: cb.State, Code: cb.Code, Error: cb.Error,
		ErrorDescription: cb.ErrorDescription, Binding: cb.Binding}, s.now(), func(who string, d map[string]any) store.AuditEvent {
		return s.auditEvent(AuditSSOUser, who, cb.ClientAddr, d)
	})
	if err != nil {
		return LoginResult{}, who, err
	}
	ev := s.auditEvent(AuditSSOLogin, p.User.Username, cb.ClientAddr, map[string]any{"issuer": p.Identity.Issuer, "role": string(p.Role), "created": p.Created})
	res, err := s.newSession(ctx, keys, p.User, cb.Previous, nil, ev)
	if err != nil {
		return LoginResult{}, who, err
	}
	return res, who, nil
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
