// Package sso is the relying party of single sign-on with OpenID Connect
// (dashboard.auth.oidc): the authorization code flow with PKCE (S256),
// state and nonce, through github.com/coreos/go-oidc and
// golang.org/x/oauth2. It discovers the provider, builds the authorization
// URL, exchanges the code, verifies the ID token and reads who signed in;
// Policy decides whether they may and with which role. Start and Finish
// are the login around it: the login kept in flight (in the store, so any
// process on the data dir can finish it), the browser's binding cookie,
// and the user provisioned at each login. Sessions are the caller's.
package sso

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/costpilot/costpilot/backend/apperr"
)

// Reasons are the details.reason of a refused login, also written to the
// audit log.
const (
	ReasonProviderError   = "provider_error" // the provider answered with an error (the user cancelled, say)
	ReasonUnreachable     = "provider_unreachable"
	ReasonState           = "state_mismatch" // unknown, used, expired or another browser's state
	ReasonExchange        = "code_exchange_failed"
	ReasonIDToken         = "invalid_id_token" // signature, issuer, audience, expiry
	ReasonNonce           = "nonce_mismatch"
	ReasonDomain          = "domain_not_allowed"
	ReasonEmailUnverified = "email_not_verified"
	ReasonGroup           = "group_not_allowed"
	ReasonNoRole          = "no_role"
	ReasonUsernameTaken   = "username_taken" // a local user, or one of another provider, holds the name
)

// Settings configure a Client.
type Settings struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	RedirectURL  string
	Scopes       []string
	Policy       Policy
	// HTTPClient reaches the provider; nil means one with a 10 s limit.
	HTTPClient *http.Client
	// Now is the clock ID tokens are checked against; nil means time.Now.
	Now func() time.Time
}

// retryAfter is how long a failed discovery is remembered before the
// next login tries again, so a provider that is down is not hammered.
const retryAfter = 5 * time.Second

// Client is the relying party of one provider. Discovery happens on first
// use and is retried after a failure, so the dashboard starts while the
// provider is down. It is safe for concurrent use.
type Client struct {
	set Settings
	hc  *http.Client

	mu       sync.Mutex
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
	oauth    oauth2.Config
	endSess  string
	failedAt time.Time
	failErr  error
}

// New returns a Client; it does not contact the provider.
func New(s Settings) *Client {
	hc := s.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	return &Client{set: s, hc: hc}
}

// Policy returns the access policy.
func (c *Client) Policy() Policy { return c.set.Policy }

// Issuer is the provider's issuer URL.
func (c *Client) Issuer() string { return c.set.Issuer }

func (c *Client) ctx(ctx context.Context) context.Context {
	return oidc.ClientContext(ctx, c.hc) // also oauth2's HTTP client
}

// discover fetches the provider's metadata once; after a failure it
// answers the same error for retryAfter, then tries again.
func (c *Client) discover(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.provider != nil {
		return nil
	}
	if c.failErr != nil && c.set.Now().Sub(c.failedAt) < retryAfter {
		return c.failErr
	}
	p, err := oidc.NewProvider(c.ctx(ctx), c.set.Issuer)
	if err != nil {
		c.failedAt = c.set.Now()
		c.failErr = apperr.Wrap(apperr.Provider, err, "the identity provider %s cannot be reached or is misconfigured: %v", c.set.Issuer, err).
			WithDetail("reason", ReasonUnreachable)
		return c.failErr
	}
	var meta struct {
		EndSession string `json:"end_session_endpoint"`
	}
	if err := p.Claims(&meta); err != nil {
		return apperr.Wrap(apperr.Provider, err, "the identity provider %s sent unreadable metadata", c.set.Issuer).WithDetail("reason", ReasonUnreachable)
	}
	c.provider, c.endSess, c.failErr = p, meta.EndSession, nil
	// The key set outlives this request: give it only the HTTP client.
	c.verifier = p.VerifierContext(c.ctx(context.Background()), &oidc.Config{ClientID: c.set.ClientID, Now: c.set.Now})
	c.oauth = oauth2.Config{ClientID: c.set.ClientID, ClientSecret: c.set.ClientSecret, RedirectURL: c.set.RedirectURL,
		Endpoint: p.Endpoint(), Scopes: c.set.Scopes}
	return nil
}

// Login is one authorization request: state and nonce are sent to the
// provider, the PKCE verifier only its S256 challenge. All three are
// random and used once.
type Login struct {
	State    string
	Nonce    string
	Verifier string
}

// NewLogin returns fresh random values for one login.
func NewLogin() (Login, error) {
	st, err := random()
	if err != nil {
		return Login{}, err
	}
	nonce, err := random()
	if err != nil {
		return Login{}, err
	}
	return Login{State: st, Nonce: nonce, Verifier: oauth2.GenerateVerifier()}, nil
}

func random() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", apperr.Wrap(apperr.Security, err, "cannot generate random bytes")
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// AuthCodeURL is where the browser goes to log in at the provider.
func (c *Client) AuthCodeURL(ctx context.Context, l Login) (string, error) {
	if err := c.discover(ctx); err != nil {
		return "", err
	}
	return c.oauth.AuthCodeURL(l.State, oidc.Nonce(l.Nonce), oauth2.S256ChallengeOption(l.Verifier)), nil
}

// Identity is who the provider says logged in.
type Identity struct {
	Issuer        string
	Subject       string
	Email         string
	EmailVerified *bool // nil when the provider does not say
	Name          string
	Username      string   // preferred_username
	Groups        []string // values of the groups claim
	RoleValues    []string // values of the role claim
}

// Exchange redeems the code of login l with its PKCE verifier, verifies
// the ID token (signature, issuer, audience and authorized party, expiry,
// nonce, access token hash) and reads the identity from its claims, and
// from the userinfo endpoint for claims the token lacks. Every failure is
// a SecurityError with a reason, or a ProviderError when the provider
// cannot be reached.
func (c *Client) Exchange(ctx context.Context, code string, l Login) (Identity, error) {
	if err := c.discover(ctx); err != nil {
		return Identity{}, err
	}
	tok, err := c.oauth.Exchange(c.ctx(ctx), code, oauth2.VerifierOption(l.Verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return Identity{}, refused(ReasonExchange, err, "the identity provider refused the login code: %s", re.ErrorCode)
		}
		return Identity{}, apperr.Wrap(apperr.Provider, err, "the identity provider %s cannot be reached: %v", c.set.Issuer, err).WithDetail("reason", ReasonUnreachable)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, refused(ReasonIDToken, nil, "the identity provider sent no ID token: is openid among the scopes?")
	}
	claims, err := c.verify(ctx, raw, l.Nonce, tok.AccessToken)
	if err != nil {
		return Identity{}, err
	}
	if c.needsUserinfo(claims) {
		if err := c.mergeUserinfo(ctx, tok, claims); err != nil {
			return Identity{}, err
		}
	}
	return c.identity(claims), nil
}

// verify checks a raw ID token for this client and login and returns its
// claims.
func (c *Client) verify(ctx context.Context, raw, nonce, accessToken string) (map[string]any, error) {
	idt, err := c.verifier.Verify(c.ctx(ctx), raw)
	if err != nil {
		return nil, refused(ReasonIDToken, err, "the ID token is not valid for this dashboard: %v", err)
	}
	// A token with several audiences must name this client as the party it
	// was issued to (OpenID Connect Core 3.1.3.7).
	var azp struct {
		AZP string `json:"azp"`
	}
	if err := idt.Claims(&azp); err != nil {
		return nil, refused(ReasonIDToken, err, "the ID token's claims are unreadable")
	}
	if (azp.AZP != "" && azp.AZP != c.set.ClientID) || (len(idt.Audience) > 1 && azp.AZP == "") {
		return nil, refused(ReasonIDToken, nil, "the ID token was issued to another client")
	}
	if nonce == "" || idt.Nonce != nonce {
		return nil, refused(ReasonNonce, nil, "the ID token does not belong to this login (nonce mismatch)")
	}
	if idt.AccessTokenHash != "" && accessToken != "" {
		if err := idt.VerifyAccessToken(accessToken); err != nil {
			return nil, refused(ReasonIDToken, err, "the access token does not match the ID token")
		}
	}
	claims := map[string]any{}
	if err := idt.Claims(&claims); err != nil {
		return nil, refused(ReasonIDToken, err, "the ID token's claims are unreadable")
	}
	claims["iss"], claims["sub"] = idt.Issuer, idt.Subject
	return claims, nil
}

// needsUserinfo reports whether a claim the policy reads is missing from
// the ID token: many providers put email or groups only in userinfo.
func (c *Client) needsUserinfo(claims map[string]any) bool {
	p := c.set.Policy
	want := []string{"email"}
	if p.GroupsClaim != "" {
		want = append(want, p.GroupsClaim)
	}
	if rc := p.roleClaim(); rc != "" {
		want = append(want, rc)
	}
	for _, w := range want {
		if _, ok := lookup(claims, w); !ok {
			return true
		}
	}
	return false
}

// mergeUserinfo adds the userinfo endpoint's claims that the ID token
// lacks. Its subject must be the token's, or it describes someone else.
func (c *Client) mergeUserinfo(ctx context.Context, tok *oauth2.Token, claims map[string]any) error {
	if c.provider.UserInfoEndpoint() == "" {
		return nil
	}
	ui, err := c.provider.UserInfo(c.ctx(ctx), oauth2.StaticTokenSource(tok))
	if err != nil {
		return apperr.Wrap(apperr.Provider, err, "cannot read the user's claims from the identity provider: %v", err).WithDetail("reason", ReasonUnreachable)
	}
	if ui.Subject != claims["sub"] {
		return refused(ReasonIDToken, nil, "the userinfo answer is about another user")
	}
	extra := map[string]any{}
	if err := ui.Claims(&extra); err != nil {
		return refused(ReasonIDToken, err, "the userinfo answer is unreadable")
	}
	for k, v := range extra {
		if _, ok := claims[k]; !ok {
			claims[k] = v
		}
	}
	return nil
}

func (c *Client) identity(claims map[string]any) Identity {
	str := func(k string) string { s, _ := claims[k].(string); return s }
	id := Identity{Issuer: str("iss"), Subject: str("sub"), Email: str("email"), Name: str("name"), Username: str("preferred_username")}
	switch v := claims["email_verified"].(type) {
	case bool:
		id.EmailVerified = &v
	case string: // some providers send "true"
		b := v == "true"
		id.EmailVerified = &b
	}
	p := c.set.Policy
	if p.GroupsClaim != "" {
		id.Groups = values(claims, p.GroupsClaim)
	}
	if rc := p.roleClaim(); rc != "" {
		id.RoleValues = values(claims, rc)
	}
	return id
}

// EndSessionURL is where the browser goes to log out at the provider too
// (RP-initiated logout), coming back to postLogout; "" when the provider
// offers no end_session_endpoint or cannot be reached.
func (c *Client) EndSessionURL(ctx context.Context, postLogout string) string {
	if err := c.discover(ctx); err != nil || c.endSess == "" {
		return ""
	}
	u, err := url.Parse(c.endSess)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set("client_id", c.set.ClientID)
	if postLogout != "" {
		q.Set("post_logout_redirect_uri", postLogout)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// refused is a SecurityError with a reason. The message never holds a
// token or code.
func refused(reason string, cause error, format string, args ...any) error {
	e := apperr.E(apperr.Security, format, args...).WithDetail("reason", reason)
	e.Err = cause
	return e
}

// ReasonOf returns the reason of a refusal, "" for other errors.
func ReasonOf(err error) string {
	if e, ok := apperr.As(err); ok {
		r, _ := e.Details["reason"].(string)
		return r
	}
	return ""
}

// String hides the secret when Settings are printed.
func (s Settings) String() string {
	return fmt.Sprintf("sso.Settings{Issuer: %q, ClientID: %q, RedirectURL: %q}", s.Issuer, s.ClientID, s.RedirectURL)
}
