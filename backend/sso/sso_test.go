package sso

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/internal/testop"
)

const (
	redirect   = "http://127.0.0.1:1/auth/oidc/callback" // never opened: testop.Login stops before it
	postLogout = "http://127.0.0.1:1/login"
	password   = "correct horse"
)

var users = []testop.User{
	{ID: "u-alice", Username: "alice", Password: password, Email: "alice@example.com", Name: "Alice", Groups: []string{"staff", "finops-admins"}},
	{ID: "u-bob", Username: "bob", Password: password, Email: "bob@example.com", Groups: []string{"staff"}},
	{ID: "u-eve", Username: "eve", Password: password, Email: "eve@elsewhere.test", Groups: []string{"finops-admins"}},
	{ID: "u-carol", Username: "carol", Password: password, Email: "carol@example.com", EmailUnverified: true, Groups: []string{"staff"}},
	{ID: "u-dave", Username: "dave", Password: password, Email: "dave@example.com", Groups: []string{"contractors"}},
}

var policy = Policy{
	AllowedDomains: []string{"example.com"},
	AllowedGroups:  []string{"staff", "finops-admins"},
	GroupsClaim:    "groups",
	Roles:          map[string]model.Role{"finops-admins": model.RoleAdmin, "staff": model.RoleEditor},
	DefaultRole:    model.RoleViewer,
}

// startOP serves a test provider with the users above and two clients:
// "costpilot" (claims in the ID token) and "costpilot-ui" (claims only
// from userinfo).
func startOP(t *testing.T) *httptest.Server {
	t.Helper()
	srv, err := testop.Start(testop.Config{Users: users, Clients: []testop.Client{
		{ID: "costpilot", Secret: "s1", RedirectURIs: []string{redirect}, PostLogoutRedirectURIs: []string{postLogout}},
		{ID: "costpilot-ui", Secret: "s2", RedirectURIs: []string{redirect}, ClaimsFromUserinfoOnly: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

func newClient(issuer, id, secret string) *Client {
	return New(Settings{Issuer: issuer, ClientID: id, ClientSecret: secret, RedirectURL: redirect,
		Scopes: []string{"openid", "email", "profile", testop.ScopeGroups}, Policy: policy})
}

// begin starts a login and logs user in at the provider; it returns the
// login and the code the provider sent back.
func begin(t *testing.T, c *Client, user string) (Login, string) {
	t.Helper()
	ctx := context.Background()
	l, err := NewLogin()
	if err != nil {
		t.Fatal(err)
	}
	authURL, err := c.AuthCodeURL(ctx, l)
	if err != nil {
		t.Fatal(err)
	}
	back, err := testop.Login(ctx, authURL, user, password)
	if err != nil {
		t.Fatal(err)
	}
	q := back.Query()
	if q.Get("state") != l.State || q.Get("code") == "" {
		t.Fatalf("provider sent back %s, want code and state %s", back, l.State)
	}
	return l, q.Get("code")
}

func wantReason(t *testing.T, err error, reason string) {
	t.Helper()
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Security || ReasonOf(err) != reason {
		t.Fatalf("got %v (reason %q), want a SecurityError with reason %s", err, ReasonOf(err), reason)
	}
}

func TestAuthCodeURLSendsStateNonceAndPKCE(t *testing.T) {
	op := startOP(t)
	c := newClient(op.URL, "costpilot", "s1")
	l, err := NewLogin()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := c.AuthCodeURL(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(raw)
	q := u.Query()
	if !strings.HasPrefix(raw, op.URL) || q.Get("state") != l.State || q.Get("nonce") != l.Nonce ||
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || strings.Contains(raw, l.Verifier) ||
		q.Get("client_id") != "costpilot" || q.Get("redirect_uri") != redirect || q.Get("response_type") != "code" {
		t.Fatalf("authorization URL %s", raw)
	}
	l2, _ := NewLogin()
	if l2.State == l.State || l2.Nonce == l.Nonce || l2.Verifier == l.Verifier {
		t.Fatal("two logins share a value")
	}
}

// TestLoginAndPolicy runs the whole flow at the real provider for each
// user and checks the role the policy gives, or why it refuses.
func TestLoginAndPolicy(t *testing.T) {
	op := startOP(t)
	tests := []struct {
		name, user, client, secret string
		role                       model.Role
		reason                     string
	}{
		{name: "admin from a group claim", user: "alice", client: "costpilot", secret: "s1", role: model.RoleAdmin},
		{name: "editor from a group claim", user: "bob", client: "costpilot", secret: "s1", role: model.RoleEditor},
		{name: "claims from userinfo only", user: "alice", client: "costpilot-ui", secret: "s2", role: model.RoleAdmin},
		{name: "outside the allowed domain", user: "eve", client: "costpilot", secret: "s1", reason: ReasonDomain},
		{name: "unverified email", user: "carol", client: "costpilot", secret: "s1", reason: ReasonEmailUnverified},
		{name: "no allowed group", user: "dave", client: "costpilot", secret: "s1", reason: ReasonGroup},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(op.URL, tt.client, tt.secret)
			l, code := begin(t, c, tt.user)
			id, err := c.Exchange(context.Background(), code, l)
			if err != nil {
				t.Fatal(err)
			}
			if id.Issuer != op.URL || id.Subject != "u-"+tt.user || !strings.HasPrefix(id.Email, tt.user+"@") || len(id.Groups) == 0 {
				t.Fatalf("identity %+v", id)
			}
			role, err := c.Policy().Decide(id)
			if tt.reason != "" {
				wantReason(t, err, tt.reason)
				return
			}
			if err != nil || role != tt.role {
				t.Fatalf("role %q %v, want %s", role, err, tt.role)
			}
		})
	}
}

func TestExchangeRefusals(t *testing.T) {
	op := startOP(t)
	ctx := context.Background()
	c := newClient(op.URL, "costpilot", "s1")

	t.Run("wrong PKCE verifier", func(t *testing.T) {
		l, code := begin(t, c, "alice")
		other, _ := NewLogin()
		l.Verifier = other.Verifier
		_, err := c.Exchange(ctx, code, l)
		wantReason(t, err, ReasonExchange)
	})
	t.Run("code used twice", func(t *testing.T) {
		l, code := begin(t, c, "alice")
		if _, err := c.Exchange(ctx, code, l); err != nil {
			t.Fatal(err)
		}
		_, err := c.Exchange(ctx, code, l)
		wantReason(t, err, ReasonExchange)
	})
	t.Run("nonce of another login", func(t *testing.T) {
		l, code := begin(t, c, "alice")
		other, _ := NewLogin()
		l.Nonce = other.Nonce
		_, err := c.Exchange(ctx, code, l)
		wantReason(t, err, ReasonNonce)
	})
	t.Run("wrong client secret", func(t *testing.T) {
		bad := newClient(op.URL, "costpilot", "not-the-secret")
		l, code := begin(t, bad, "alice")
		_, err := bad.Exchange(ctx, code, l)
		wantReason(t, err, ReasonExchange)
	})
}

// TestIDTokenForAnotherClient takes a valid ID token issued to one
// client and offers it to another: the audience check refuses it.
func TestIDTokenForAnotherClient(t *testing.T) {
	op := startOP(t)
	ctx := context.Background()
	a := newClient(op.URL, "costpilot", "s1")
	l, code := begin(t, a, "alice")
	tok, err := a.oauth.Exchange(a.ctx(ctx), code, oauth2.VerifierOption(l.Verifier))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if _, err := a.verify(ctx, raw, l.Nonce, tok.AccessToken); err != nil {
		t.Fatalf("the token is not valid for its own client: %v", err)
	}
	b := newClient(op.URL, "costpilot-ui", "s2")
	if err := b.discover(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = b.verify(ctx, raw, l.Nonce, tok.AccessToken)
	wantReason(t, err, ReasonIDToken)

	// A token signed by someone else (here: its signature cut off and
	// replaced) is refused too.
	parts := strings.Split(raw, ".")
	forged := parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2]))
	_, err = a.verify(ctx, forged, l.Nonce, tok.AccessToken)
	wantReason(t, err, ReasonIDToken)

	// An expired token: the client's clock is past its expiry.
	late := New(Settings{Issuer: op.URL, ClientID: "costpilot", ClientSecret: "s1", RedirectURL: redirect,
		Now: func() time.Time { return time.Now().Add(time.Hour) }})
	if err := late.discover(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = late.verify(ctx, raw, l.Nonce, tok.AccessToken)
	wantReason(t, err, ReasonIDToken)
}

// TestDiscoveryRetries starts with the provider down: the first login
// fails as a ProviderError, the next within the retry delay gets the same
// answer without a request, and a later one succeeds.
func TestDiscoveryRetries(t *testing.T) {
	var down atomic.Bool
	var hits atomic.Int32
	down.Store(true)
	srv := httptest.NewUnstartedServer(nil)
	h, err := testop.New(testop.Config{Issuer: "http://" + srv.Listener.Addr().String(), Users: users,
		Clients: []testop.Client{{ID: "costpilot", Secret: "s1", RedirectURIs: []string{redirect}}}})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
	srv.Start()
	defer srv.Close()

	now := time.Now()
	c := New(Settings{Issuer: srv.URL, ClientID: "costpilot", ClientSecret: "s1", RedirectURL: redirect,
		Scopes: []string{"openid"}, Now: func() time.Time { return now }})
	l, _ := NewLogin()
	ctx := context.Background()
	_, err = c.AuthCodeURL(ctx, l)
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Provider || ReasonOf(err) != ReasonUnreachable {
		t.Fatalf("provider down: %v", err)
	}
	down.Store(false)
	before := hits.Load()
	if _, err := c.AuthCodeURL(ctx, l); err == nil || hits.Load() != before {
		t.Fatalf("retried at once (err %v, %d requests)", err, hits.Load()-before)
	}
	now = now.Add(retryAfter)
	if _, err := c.AuthCodeURL(ctx, l); err != nil {
		t.Fatalf("after the delay: %v", err)
	}
}

func TestEndSessionURL(t *testing.T) {
	op := startOP(t)
	c := newClient(op.URL, "costpilot", "s1")
	raw := c.EndSessionURL(context.Background(), postLogout)
	u, err := url.Parse(raw)
	if err != nil || !strings.HasPrefix(raw, op.URL) || u.Query().Get("client_id") != "costpilot" || u.Query().Get("post_logout_redirect_uri") != postLogout {
		t.Fatalf("end session URL %q", raw)
	}
	// The provider accepts it and sends the browser back.
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := hc.Get(raw)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode/100 != 3 || loc != postLogout {
		t.Fatalf("end session: HTTP %d to %q, want a redirect to %s", res.StatusCode, loc, postLogout)
	}

	down := New(Settings{Issuer: "http://127.0.0.1:1", ClientID: "x"})
	if got := down.EndSessionURL(context.Background(), postLogout); got != "" {
		t.Fatalf("unreachable provider: %q, want none", got)
	}
}

func TestPolicyDecide(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name   string
		p      Policy
		id     Identity
		role   model.Role
		reason string
	}{
		{name: "no restrictions, default role", p: Policy{DefaultRole: model.RoleViewer}, id: Identity{Subject: "s"}, role: model.RoleViewer},
		{name: "highest mapped role wins", p: policy, id: Identity{Email: "a@example.com", Groups: []string{"staff", "finops-admins"}, RoleValues: []string{"staff", "finops-admins"}}, role: model.RoleAdmin},
		{name: "domain is case-insensitive", p: policy, id: Identity{Email: "a@EXAMPLE.com", EmailVerified: &yes, Groups: []string{"staff"}, RoleValues: []string{"staff"}}, role: model.RoleEditor},
		{name: "subdomain is another domain", p: policy, id: Identity{Email: "a@x.example.com", Groups: []string{"staff"}}, reason: ReasonDomain},
		{name: "no email with allowed domains", p: policy, id: Identity{Subject: "s", Groups: []string{"staff"}}, reason: ReasonDomain},
		{name: "unverified email", p: policy, id: Identity{Email: "a@example.com", EmailVerified: &no, Groups: []string{"staff"}}, reason: ReasonEmailUnverified},
		{name: "unmapped with default", p: Policy{Roles: map[string]model.Role{"ops": model.RoleAdmin}, DefaultRole: model.RoleViewer}, id: Identity{RoleValues: []string{"dev"}}, role: model.RoleViewer},
		{name: "unmapped without default", p: Policy{Roles: map[string]model.Role{"ops": model.RoleAdmin}}, id: Identity{RoleValues: []string{"dev"}}, reason: ReasonNoRole},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			role, err := tt.p.Decide(tt.id)
			if tt.reason != "" {
				wantReason(t, err, tt.reason)
				return
			}
			if err != nil || role != tt.role {
				t.Fatalf("role %q %v, want %s", role, err, tt.role)
			}
		})
	}
}

func TestClaimValues(t *testing.T) {
	claims := map[string]any{
		"groups":       []any{"a", 1, "b"},
		"role":         "admin",
		"realm_access": map[string]any{"roles": []any{"x"}},
		"dotted.name":  "literal",
	}
	tests := map[string][]string{"groups": {"a", "b"}, "role": {"admin"}, "realm_access.roles": {"x"}, "dotted.name": {"literal"}, "missing": nil}
	for name, want := range tests {
		if got := values(claims, name); strings.Join(got, ",") != strings.Join(want, ",") || (want == nil) != (got == nil) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	if !errors.Is(refused(ReasonNonce, nil, "x"), apperr.E(apperr.Security, "")) {
		t.Fatal("a refusal is not a SecurityError")
	}
}
