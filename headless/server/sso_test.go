package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/internal/testop"
)

const (
	opPassword   = "op password"
	ssoSecret    = "client-secret-of-costpilot"
	ssoSecretEnv = "COSTPILOT_TEST_SSO_SECRET"
)

var opUsers = []testop.User{
	{ID: "u-alice", Username: "alice", Password: opPassword, Email: "alice@example.com", Groups: []string{"staff", "finops-admins"}},
	{ID: "u-bob", Username: "bob", Password: opPassword, Email: "bob@example.com", Groups: []string{"staff"}},
	{ID: "u-eve", Username: "eve", Password: opPassword, Email: "eve@elsewhere.test", Groups: []string{"finops-admins"}},
}

// ssoEnv is a dashboard with single sign-on at a real OpenID Provider on
// loopback (zitadel/oidc's op), which knows the dashboard as client
// "costpilot" and another application as "other" with the same redirect.
type ssoEnv struct {
	*env
	op *httptest.Server
}

func newSSOEnv(t *testing.T) *ssoEnv {
	t.Helper()
	t.Setenv(ssoSecretEnv, ssoSecret)
	var op *httptest.Server
	e := newEnvAt(t, func(c *config.Config, base string) {
		var err error
		op, err = testop.Start(testop.Config{Users: opUsers, Clients: []testop.Client{
			{ID: "costpilot", Secret: ssoSecret, RedirectURIs: []string{base + "/auth/oidc/callback"}, PostLogoutRedirectURIs: []string{base + "/login"}},
			{ID: "other", Secret: "other-secret", RedirectURIs: []string{base + "/auth/oidc/callback"}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(op.Close)
		c.Dashboard.RateLimit.Enabled = false
		c.Dashboard.Auth.OIDC = config.OIDCConfig{Enabled: true, Issuer: op.URL, ClientID: "costpilot", ClientSecretEnv: ssoSecretEnv,
			RedirectURL: base + "/auth/oidc/callback", Scopes: []string{"openid", "email", "profile", testop.ScopeGroups},
			AllowedDomains: []string{"example.com"}, GroupsClaim: "groups",
			Roles: map[string]model.Role{"finops-admins": model.RoleAdmin, "staff": model.RoleEditor}, DefaultRole: model.RoleViewer}
	})
	return &ssoEnv{env: e, op: op}
}

// start opens GET /auth/oidc/login and returns the provider URL it sends
// the browser to and the binding cookie it sets.
func (e *ssoEnv) start() (string, *http.Cookie) {
	e.t.Helper()
	res := e.do(req{path: "/auth/oidc/login"})
	loc := res.header.Get("Location")
	if res.status != http.StatusSeeOther || !strings.HasPrefix(loc, e.op.URL+"/") {
		e.t.Fatalf("start: %s to %q", fmtRes(res), loc)
	}
	return loc, cookieOf(e.t, res, ssoCookie)
}

// atProvider logs user in at the provider and returns the callback URL
// (path and query) the provider sends the browser back to.
func (e *ssoEnv) atProvider(authURL, user string) string {
	e.t.Helper()
	back, err := testop.Login(context.Background(), authURL, user, opPassword)
	if err != nil {
		e.t.Fatal(err)
	}
	if !strings.HasPrefix(back.String(), e.ts.URL+"/auth/oidc/callback?") {
		e.t.Fatalf("provider sent the browser to %s", back)
	}
	return back.RequestURI()
}

func cookieOf(t testing.TB, res response, name string) *http.Cookie {
	t.Helper()
	for _, line := range res.header.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err == nil && c.Name == name && c.Value != "" {
			return c
		}
	}
	return nil
}

// callback opens the callback as a browser (binding may be nil), with
// Accept: application/json when asJSON, so refusals are the error shape.
func (e *ssoEnv) callback(path string, binding *http.Cookie, asJSON bool) response {
	e.t.Helper()
	q := req{path: path, cookie: binding}
	if asJSON {
		q.header = map[string]string{"Accept": "application/json"}
	}
	return e.do(q)
}

// ssoLogin does a whole login as user and returns the session cookie.
func (e *ssoEnv) ssoLogin(user string) *http.Cookie {
	e.t.Helper()
	authURL, binding := e.start()
	res := e.callback(e.atProvider(authURL, user), binding, false)
	s := cookieOf(e.t, res, cookieName)
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/" || s == nil {
		e.t.Fatalf("callback: %s, session cookie %v", fmtRes(res), s)
	}
	if c, _ := http.ParseSetCookie(findSetCookie(res, ssoCookie)); c == nil || c.MaxAge >= 0 {
		e.t.Fatal("the binding cookie was not cleared")
	}
	return s
}

func findSetCookie(res response, name string) string {
	for _, line := range res.header.Values("Set-Cookie") {
		if strings.HasPrefix(line, name+"=") {
			return line
		}
	}
	return ""
}

func (e *ssoEnv) session(c *http.Cookie) (sessionInfo, int) {
	e.t.Helper()
	res := e.do(req{path: "/api/session", cookie: c})
	var s sessionInfo
	if res.status == http.StatusOK {
		if err := json.Unmarshal([]byte(res.body), &s); err != nil {
			e.t.Fatal(err)
		}
	}
	return s, res.status
}

func reasonOf(t testing.TB, res response) string {
	t.Helper()
	m, ok := res.errorShape()
	if !ok {
		t.Fatalf("not the error shape: %s", fmtRes(res))
	}
	d, _ := m["details"].(map[string]any)
	r, _ := d["reason"].(string)
	return r
}

// TestSSOLoginRoleAndLogout: login at the provider, the role from the
// group claim, the same session as a local login, and logout at both.
func TestSSOLoginRoleAndLogout(t *testing.T) {
	e := newSSOEnv(t)
	tests := []struct {
		user, name string
		role       model.Role
	}{
		{"alice", "alice@example.com", model.RoleAdmin},
		{"bob", "bob@example.com", model.RoleEditor},
	}
	for _, tt := range tests {
		t.Run(tt.user, func(t *testing.T) {
			c := e.ssoLogin(tt.user)
			s, status := e.session(c)
			if status != http.StatusOK || s.Username != tt.name || s.Role != tt.role || s.AuthKind != "session" {
				t.Fatalf("session %d %+v, want %s as %s", status, s, tt.name, tt.role)
			}
			if res := e.do(req{path: "/api/status", cookie: c}); res.status != http.StatusOK {
				t.Fatalf("API with the SSO session: %s", fmtRes(res))
			}

			res := e.do(req{method: "POST", path: "/logout", cookie: c})
			u, err := url.Parse(res.header.Get("Location"))
			if res.status != http.StatusSeeOther || err != nil || !strings.HasPrefix(u.String(), e.op.URL+"/") ||
				u.Query().Get("client_id") != "costpilot" || u.Query().Get("post_logout_redirect_uri") != e.ts.URL+"/login" {
				t.Fatalf("logout: %s to %q, want the provider's end session", fmtRes(res), res.header.Get("Location"))
			}
			if _, status := e.session(c); status != http.StatusUnauthorized {
				t.Fatalf("session after logout: %d, want 401", status)
			}
		})
	}
	// The users exist now, without a password: the form refuses them.
	if c, res := e.login("alice@example.com", ""); c != nil || res.status != http.StatusUnauthorized {
		t.Fatalf("password login of an SSO user: %s", fmtRes(res))
	}
	if c, res := e.login("alice@example.com", "anything at all, long enough"); c != nil || res.status != http.StatusUnauthorized {
		t.Fatalf("password login of an SSO user: %s", fmtRes(res))
	}
}

// TestSSORefusals: whatever is wrong, no session is created, and the
// answer says why.
func TestSSORefusals(t *testing.T) {
	e := newSSOEnv(t)
	type outcome struct {
		status int
		reason string
	}
	tests := []struct {
		name string
		// run returns the callback to open and the binding cookie to send.
		run  func(t *testing.T) (string, *http.Cookie)
		want outcome
	}{
		{"user outside the allowed domain", func(t *testing.T) (string, *http.Cookie) {
			authURL, b := e.start()
			return e.atProvider(authURL, "eve"), b
		}, outcome{403, "domain_not_allowed"}},
		{"tampered state", func(t *testing.T) (string, *http.Cookie) {
			authURL, b := e.start()
			return tamper(e.atProvider(authURL, "alice"), "state"), b
		}, outcome{403, "state_mismatch"}},
		{"no binding cookie (another browser)", func(t *testing.T) (string, *http.Cookie) {
			authURL, _ := e.start()
			return e.atProvider(authURL, "alice"), nil
		}, outcome{403, "state_mismatch"}},
		{"forged binding cookie", func(t *testing.T) (string, *http.Cookie) {
			authURL, b := e.start()
			forged := *b
			forged.Value = tamperValue(b.Value)
			return e.atProvider(authURL, "alice"), &forged
		}, outcome{403, "state_mismatch"}},
		{"tampered code", func(t *testing.T) (string, *http.Cookie) {
			authURL, b := e.start()
			return tamper(e.atProvider(authURL, "alice"), "code"), b
		}, outcome{403, "code_exchange_failed"}},
		{"code of another login (PKCE)", func(t *testing.T) (string, *http.Cookie) {
			authURL1, b1 := e.start()
			authURL2, _ := e.start()
			cb1 := e.atProvider(authURL1, "alice")
			cb2 := e.atProvider(authURL2, "alice")
			return withParam(cb1, "code", paramOf(cb2, "code")), b1
		}, outcome{403, "code_exchange_failed"}},
		{"code issued to another client", func(t *testing.T) (string, *http.Cookie) {
			authURL, b := e.start()
			other := withParam(authURL, "client_id", "other")
			return withParam(e.atProvider(authURL, "alice"), "code", paramOf(e.atProvider(other, "alice"), "code")), b
		}, outcome{403, "code_exchange_failed"}},
		{"provider refused", func(t *testing.T) (string, *http.Cookie) {
			authURL, b := e.start()
			st := paramOf(authURL, "state")
			return "/auth/oidc/callback?error=access_denied&error_description=user+cancelled&state=" + url.QueryEscape(st), b
		}, outcome{401, "provider_error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, binding := tt.run(t)
			res := e.callback(path, binding, true)
			if res.status != tt.want.status || reasonOf(t, res) != tt.want.reason || cookieOf(t, res, cookieName) != nil {
				t.Fatalf("got %s (reason %q), want %d %s and no session", fmtRes(res), reasonOf(t, res), tt.want.status, tt.want.reason)
			}
		})
	}

	t.Run("the page says why", func(t *testing.T) {
		authURL, b := e.start()
		res := e.callback(e.atProvider(authURL, "eve"), b, false)
		if res.status != http.StatusForbidden || !strings.Contains(res.body, "eve@elsewhere.test may not use this dashboard") ||
			!strings.Contains(res.body, `href="/auth/oidc/login"`) || !strings.Contains(res.body, `name="password"`) {
			t.Fatalf("refusal page: %s", fmtRes(res))
		}
	})
	t.Run("a callback is used once", func(t *testing.T) {
		authURL, b := e.start()
		cb := e.atProvider(authURL, "alice")
		if res := e.callback(cb, b, true); res.status != http.StatusSeeOther {
			t.Fatalf("first use: %s", fmtRes(res))
		}
		if res := e.callback(cb, b, true); res.status != http.StatusForbidden || reasonOf(t, res) != "state_mismatch" {
			t.Fatalf("replay: %s", fmtRes(res))
		}
	})
	t.Run("a tampered state spends the login", func(t *testing.T) {
		authURL, b := e.start()
		cb := e.atProvider(authURL, "alice")
		if res := e.callback(tamper(cb, "state"), b, true); res.status != http.StatusForbidden {
			t.Fatalf("tampered: %s", fmtRes(res))
		}
		if res := e.callback(cb, b, true); res.status != http.StatusForbidden || reasonOf(t, res) != "state_mismatch" {
			t.Fatalf("the genuine callback after a tampered one: %s", fmtRes(res))
		}
	})
}

// TestSSOBreakGlass: with single sign-on on, the login page offers it and
// keeps the local form, and local users log in as before, as admins.
func TestSSOBreakGlass(t *testing.T) {
	e := newSSOEnv(t)
	page := e.do(req{path: "/login"})
	if page.status != http.StatusOK || !strings.Contains(page.body, "Sign in with SSO") || !strings.Contains(page.body, `action="/login"`) {
		t.Fatalf("login page: %s", fmtRes(page))
	}
	// Logging out goes to the provider, so forms may be sent on there.
	if p := page.header.Get("Content-Security-Policy"); !strings.Contains(p, "form-action 'self' "+e.op.URL) {
		t.Fatalf("CSP %q", p)
	}
	// The test user is local: no warning about break-glass.
	for _, w := range e.srv.Warnings(context.Background()) {
		if strings.Contains(w, "single sign-on") {
			t.Fatalf("warning %q with a local user", w)
		}
	}
	c := e.mustLogin()
	s, _ := e.session(c)
	if s.Username != testUser || s.Role != model.RoleAdmin {
		t.Fatalf("local session %+v", s)
	}
	res := e.do(req{method: "POST", path: "/logout", cookie: c})
	if res.status != http.StatusSeeOther || res.header.Get("Location") != "/login" {
		t.Fatalf("local logout: %s to %q, want /login", fmtRes(res), res.header.Get("Location"))
	}
}

func TestSSOOff(t *testing.T) {
	e := newEnv(t, nil)
	for _, p := range []string{"/auth/oidc/login", "/auth/oidc/callback?code=x&state=y"} {
		if res := e.do(req{path: p, header: map[string]string{"Accept": "application/json"}}); res.status != http.StatusNotFound {
			t.Fatalf("%s without SSO: %s", p, fmtRes(res))
		}
	}
	page := e.do(req{path: "/login"})
	if strings.Contains(page.body, "Sign in with SSO") || strings.Contains(page.header.Get("Content-Security-Policy"), "http") {
		t.Fatalf("login page offers SSO: %s", fmtRes(page))
	}
}

// TestSSONeedsItsSecret: the dashboard does not start without the client
// secret, and says which setting names it; with it, it warns when no
// local user is left for break-glass.
func TestSSONeedsItsSecret(t *testing.T) {
	t.Setenv("COSTPILOT_TEST_SSO_NO_SECRET", "")
	cfg := testConfig()
	cfg.Dashboard.Security.SecretKey = "server-test-secret-key-0123456789"
	cfg.Dashboard.Auth.OIDC = config.OIDCConfig{Enabled: true, Issuer: "http://127.0.0.1:1", ClientID: "costpilot",
		ClientSecretEnv: "COSTPILOT_TEST_SSO_NO_SECRET", RedirectURL: "http://127.0.0.1:2/auth/oidc/callback", Scopes: []string{"openid"}}
	svc, err := service.OpenWith(context.Background(), cfg, service.Options{DataDir: t.TempDir(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	_, err = New(svc)
	var e *apperr.Error
	if !errors.As(err, &e) || e.Kind != apperr.Configuration || !strings.Contains(e.Message, "COSTPILOT_TEST_SSO_NO_SECRET") {
		t.Fatalf("New without the secret: %v", err)
	}
	// With the secret it starts, and warns that no local user exists.
	t.Setenv("COSTPILOT_TEST_SSO_NO_SECRET", "now set")
	srv, err := New(svc)
	if err != nil {
		t.Fatal(err)
	}
	if w := srv.Warnings(context.Background()); len(w) == 0 || !strings.Contains(w[0], "no local user") {
		t.Fatalf("warnings %q", w)
	}
}

// tamper changes one character of a query parameter of path.
func tamper(path, param string) string {
	return withParam(path, param, tamperValue(paramOf(path, param)))
}

func tamperValue(v string) string {
	b := []byte(v)
	if b[0] == 'A' {
		b[0] = 'B'
	} else {
		b[0] = 'A'
	}
	return string(b)
}

func paramOf(raw, param string) string {
	u, _ := url.Parse(raw)
	return u.Query().Get(param)
}

func withParam(raw, param, v string) string {
	u, _ := url.Parse(raw)
	q := u.Query()
	q.Set(param, v)
	u.RawQuery = q.Encode()
	return u.String()
}
