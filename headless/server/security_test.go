package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/frontend"
)

// TestLoginLockout: the sixth wrong password in a row is 429 with
// Retry-After, and the right password during the lock is refused.
func TestLoginLockout(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	tests := []struct {
		name     string
		password string
		status   int
	}{
		{"wrong 1", "wrong password 1", 401},
		{"wrong 2", "wrong password 2", 401},
		{"wrong 3", "wrong password 3", 401},
		{"wrong 4", "wrong password 4", 401},
		{"wrong 5", "wrong password 5", 401},
		{"wrong 6 is locked", "wrong password 6", 429},
		{"right password during the lock", testPassword, 429},
	}
	var bodies []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, res := e.login(testUser, tt.password)
			if res.status != tt.status || c != nil {
				t.Fatalf("status %s, cookie %v; want %d and no cookie", fmtRes(res), c, tt.status)
			}
			if tt.status == 429 && res.header.Get("Retry-After") != "900" {
				t.Fatalf("Retry-After %q", res.header.Get("Retry-After"))
			}
			if tt.status == 401 {
				bodies = append(bodies, res.body)
			}
		})
	}
	// One generic message: an unknown user reads like a wrong password
	// (checked from another address, which is not locked).
	if !strings.Contains(bodies[0], "Invalid username or password.") {
		t.Fatalf("message: %s", bodies[0])
	}
	// JSON clients get the error shape with the same status.
	res := e.do(req{method: "POST", path: "/login", form: url.Values{"username": {testUser}, "password": {testPassword}},
		header: map[string]string{"Accept": "application/json"}})
	if m, ok := res.errorShape(); res.status != 429 || !ok || m["error_type"] != "RateLimitError" {
		t.Fatalf("JSON lock answer: %s", fmtRes(res))
	}
	// When the lock expires, the right password works.
	e.advance(901 * time.Second)
	if c, res := e.login(testUser, testPassword); c == nil {
		t.Fatalf("after the lock: %s", fmtRes(res))
	}
}

// TestCostsRateLimit: for an API token the eleventh /api/costs call in a
// minute is 429 with Retry-After and the error shape, and other endpoints
// still answer; a browser session clicking once a second for a minute is
// never refused, and has its own (larger) limit.
func TestCostsRateLimit(t *testing.T) {
	e := newEnv(t, nil)
	token := e.token()
	for i := 1; i <= 10; i++ {
		if res := e.do(req{path: "/api/costs?days=7", bearer: token}); res.status != 200 {
			t.Fatalf("call %d: %s", i, fmtRes(res))
		}
	}
	res := e.do(req{path: "/api/costs?days=7", bearer: token})
	m, ok := res.errorShape()
	if res.status != 429 || !ok || m["error_type"] != "RateLimitError" || res.header.Get("Retry-After") != "6" {
		t.Fatalf("eleventh call: %s Retry-After %q", fmtRes(res), res.header.Get("Retry-After"))
	}
	if res := e.do(req{path: "/api/status", bearer: token}); res.status != 200 {
		t.Fatalf("status after the costs limit: %s", fmtRes(res))
	}
	e.advance(6 * time.Second)
	if res := e.do(req{path: "/api/costs?days=7", bearer: token}); res.status != 200 {
		t.Fatalf("after Retry-After: %s", fmtRes(res))
	}

	ck := e.mustLogin()
	groupings := []string{"provider", "service", "region", "billing_account"}
	for i := range 60 {
		e.advance(time.Second)
		path := fmt.Sprintf("/api/costs?days=%d&group_by=%s", 1+i%30, groupings[i%len(groupings)])
		if res := e.do(req{path: path, cookie: ck}); res.status != 200 {
			t.Fatalf("session call %d of 60 in a minute: %s", i+1, fmtRes(res))
		}
	}
	limited := false
	for i := 0; i < 200 && !limited; i++ {
		limited = e.do(req{path: "/api/costs?days=7", cookie: ck}).status == 429
	}
	if !limited {
		t.Fatal("a session has no /api/costs limit at all")
	}
}

// TestAddressRateLimit: without a session, 50 requests an hour per
// address; static files and /healthz are exempt.
func TestAddressRateLimit(t *testing.T) {
	e := newEnv(t, nil)
	for i := 1; i <= 50; i++ {
		if res := e.do(req{path: "/login"}); res.status != 200 {
			t.Fatalf("call %d: %s", i, fmtRes(res))
		}
	}
	if res := e.do(req{path: "/api/status"}); res.status != 429 || res.header.Get("Retry-After") != "72" {
		t.Fatalf("51st call: %s %q", fmtRes(res), res.header.Get("Retry-After"))
	}
	exempt := []string{"/healthz", "/login.css"}
	if frontend.Built() {
		exempt = append(exempt, "/favicon.svg") // a UI asset exists only once the UI is built
	}
	for _, p := range exempt {
		if res := e.do(req{path: p}); res.status != 200 {
			t.Fatalf("%s is limited: %s", p, fmtRes(res))
		}
	}
}

// TestSessions: expiry, cookie attributes, rotation, logout.
func TestSessions(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	if !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteLaxMode || ck.MaxAge != 3600 || ck.Path != "/" {
		t.Fatalf("cookie attributes %+v", ck)
	}
	// A second login with the old cookie rotates the id: the old one dies.
	res := e.do(req{method: "POST", path: "/login", cookie: ck, form: url.Values{"username": {testUser}, "password": {testPassword}}})
	var ck2 *http.Cookie
	for _, line := range res.header.Values("Set-Cookie") {
		if c, err := http.ParseSetCookie(line); err == nil && c.Name == cookieName {
			ck2 = c
		}
	}
	if ck2 == nil || ck2.Value == ck.Value {
		t.Fatal("no new session id at login")
	}
	if res := e.do(req{path: "/api/session", cookie: ck}); res.status != 401 {
		t.Fatalf("old session after rotation: %s", fmtRes(res))
	}
	tests := []struct {
		name    string
		advance time.Duration
		status  int
	}{
		{"fresh", 0, 200},
		{"59 minutes", 59 * time.Minute, 200},
		{"older than session_timeout", 61 * time.Minute, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.now.Store(testNow.Add(tt.advance).UnixNano())
			if res := e.do(req{path: "/api/session", cookie: ck2}); res.status != tt.status {
				t.Fatalf("status %s, want %d", fmtRes(res), tt.status)
			}
		})
	}
	// Sessions survive a restart (a new server over the same store).
	e.now.Store(testNow.UnixNano())
	ck3 := e.mustLogin()
	srv2, err := New(e.svc)
	if err != nil {
		t.Fatal(err)
	}
	e.ts.Config.Handler = srv2.Handler()
	if res := e.do(req{path: "/api/session", cookie: ck3}); res.status != 200 {
		t.Fatalf("after restart: %s", fmtRes(res))
	}
	// Logout ends the session.
	if res := e.do(req{method: "POST", path: "/logout", cookie: ck3}); res.status != 303 || res.header.Get("Location") != "/login" {
		t.Fatalf("logout: %s", fmtRes(res))
	}
	if res := e.do(req{path: "/api/session", cookie: ck3}); res.status != 401 {
		t.Fatalf("after logout: %s", fmtRes(res))
	}
}

// TestBearerToken: a token works for /api/costs, a revoked one does not,
// and tokens do not open pages.
func TestBearerToken(t *testing.T) {
	e := newEnv(t, nil)
	nt, err := e.svc.CreateToken(adminCtx(), service.TokenRequest{Name: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if res := e.do(req{path: "/api/costs?days=7", bearer: nt.Token}); res.status != 200 || !strings.Contains(res.body, `"summary"`) {
		t.Fatalf("token: %s", fmtRes(res))
	}
	if res := e.do(req{path: "/", bearer: nt.Token}); res.status != 303 {
		t.Fatalf("token on a page: %s", fmtRes(res))
	}
	if err := e.svc.RevokeToken(adminCtx(), nt.ID); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, token string
	}{
		{"revoked", nt.Token},
		{"unknown", "cp_not-a-real-token"},
		{"garbage", "xyz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.do(req{path: "/api/costs?days=7", bearer: tt.token})
			if m, ok := res.errorShape(); res.status != 401 || !ok || m["error_type"] != "AuthenticationError" {
				t.Fatalf("%s", fmtRes(res))
			}
		})
	}
}

// TestHardening: foreign Origin, body size, security headers.
func TestHardening(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	big := `{"method":"tag_based","tags":["` + strings.Repeat("x", 2<<20) + `"]}`
	tests := []struct {
		name   string
		q      req
		status int
		kind   string
	}{
		{"foreign origin", req{method: "POST", path: "/api/credentials/validate", cookie: ck, header: map[string]string{"Origin": "https://evil.example"}}, 403, "SecurityError"},
		{"cross-site fetch", req{method: "POST", path: "/api/credentials/validate", cookie: ck, header: map[string]string{"Sec-Fetch-Site": "cross-site"}}, 403, "SecurityError"},
		{"foreign origin login", req{method: "POST", path: "/login", form: url.Values{"username": {testUser}, "password": {testPassword}}, header: map[string]string{"Origin": "https://evil.example"}}, 403, "SecurityError"},
		{"same origin", req{method: "POST", path: "/api/credentials/validate", cookie: ck, header: map[string]string{"Origin": e.ts.URL, "Sec-Fetch-Site": "same-origin"}}, 200, ""},
		{"no origin (script)", req{method: "POST", path: "/api/credentials/validate", cookie: ck}, 200, ""},
		{"2 MB body", req{method: "POST", path: "/api/allocate", cookie: ck, body: big}, 413, "ValidationError"},
		{"2 MB login form", req{method: "POST", path: "/login", body: big}, 413, "ValidationError"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.do(tt.q)
			if res.status != tt.status {
				t.Fatalf("status %s, want %d", fmtRes(res), tt.status)
			}
			if tt.kind != "" {
				if m, ok := res.errorShape(); !ok || m["error_type"] != tt.kind {
					t.Fatalf("body %s", res.body)
				}
			}
		})
	}
	res := e.do(req{path: "/login"})
	want := map[string]string{
		"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "same-origin",
	}
	for k, v := range want {
		if !strings.HasPrefix(res.header.Get(k), v) {
			t.Fatalf("%s = %q", k, res.header.Get(k))
		}
	}
	if !strings.Contains(res.body, `name="username"`) || !strings.Contains(res.body, `name="password"`) || !strings.Contains(res.body, "costpilot") {
		t.Fatalf("login page: %s", res.body)
	}
}

// TestPanicRecovery: a panicking handler gives the 500 error body and
// the server keeps serving.
func TestPanicRecovery(t *testing.T) {
	e := newEnv(t, nil)
	rt := route{Route: Route{"GET", "/boom"}, access: accessPublic}
	e.srv.mux.Handle("GET /boom", e.srv.wrap(rt, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("kaboom")
	})))
	res := e.do(req{path: "/boom"})
	if res.status != 500 || res.body != `{"error":"Internal server error","message":"kaboom"}` {
		t.Fatalf("panic answer: %s", fmtRes(res))
	}
	if res := e.do(req{path: "/healthz"}); res.status != 200 {
		t.Fatalf("after the panic: %s", fmtRes(res))
	}
}

// TestUIAndCache: the SPA fallback, public assets, the response cache.
func TestUIAndCache(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	home := e.do(req{path: "/", cookie: ck})
	deep := e.do(req{path: "/forecast/deep/link", cookie: ck})
	if home.status != 200 || deep.status != 200 || home.body != deep.body || !strings.Contains(home.body, "<html") {
		t.Fatalf("home %s, deep %s", fmtRes(home), fmtRes(deep))
	}
	first := e.do(req{path: "/api/costs?days=30&provider=aws", cookie: ck})
	second := e.do(req{path: "/api/costs?provider=aws&days=30", cookie: ck})
	if first.header.Get("X-Cache") != "MISS" || second.header.Get("X-Cache") != "HIT" || first.body != second.body {
		t.Fatalf("cache: %q then %q", first.header.Get("X-Cache"), second.header.Get("X-Cache"))
	}
	// A history change drops the cached answers.
	if _, err := e.svc.Sync(adminCtx(), "aws", 0); err != nil {
		t.Fatal(err)
	}
	if third := e.do(req{path: "/api/costs?days=30&provider=aws", cookie: ck}); third.header.Get("X-Cache") != "MISS" {
		t.Fatalf("after a sync: %q", third.header.Get("X-Cache"))
	}
	m := e.do(req{path: "/metrics", cookie: ck})
	if !strings.Contains(m.body, `costpilot_http_requests_total{route="GET /api/costs",code="200"} 3`) || !strings.Contains(m.body, "costpilot_response_cache_hits_total 1") {
		t.Fatalf("metrics: %s", m.body)
	}
}

// TestAuthDisabled: no login needed; the session endpoint still answers.
func TestAuthDisabled(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.Auth.Enabled = false })
	if res := e.do(req{path: "/api/status"}); res.status != 200 {
		t.Fatalf("%s", fmtRes(res))
	}
	if res := e.do(req{path: "/"}); res.status != 200 {
		t.Fatalf("%s", fmtRes(res))
	}
	if w := e.srv.Warnings(context.Background()); len(w) != 2 || !strings.Contains(w[0], "auth") {
		t.Fatalf("warnings %v", w)
	}
}

// TestSecurityHeadersByKind: a data answer (JSON) carries the API set
// (no framing by CSP, no sniffing); a page the full document set; an answer
// the handler never wrote, or flushed before writing, gets them too.
func TestSecurityHeadersByKind(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	api := e.do(req{path: "/api/costs?days=7", cookie: ck})
	page := e.do(req{path: "/login"})
	if api.status != 200 || page.status != 200 {
		t.Fatalf("api %s, page %s", fmtRes(api), fmtRes(page))
	}
	for k, want := range map[string]string{"Content-Security-Policy": "frame-ancestors 'none'", "X-Content-Type-Options": "nosniff",
		"X-Frame-Options": "", "Referrer-Policy": "", "Cross-Origin-Opener-Policy": ""} {
		if got := api.header.Get(k); got != want {
			t.Errorf("JSON answer: %s = %q, want %q", k, got, want)
		}
	}
	for _, k := range []string{"Referrer-Policy", "Cross-Origin-Opener-Policy", "X-Frame-Options", "X-Content-Type-Options"} {
		if page.header.Get(k) == "" {
			t.Errorf("page: no %s", k)
		}
	}
	if !strings.Contains(page.header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("page CSP %q", page.header.Get("Content-Security-Policy"))
	}
	rt := route{Route: Route{"GET", "/x-unwritten"}, access: accessPublic}
	e.srv.mux.Handle("GET /x-unwritten", e.srv.wrap(rt, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})))
	if res := e.do(req{path: "/x-unwritten"}); res.status != 200 || res.header.Get("X-Frame-Options") != "DENY" || res.header.Get("Content-Security-Policy") == "" {
		t.Errorf("unwritten answer: %s, headers %v", fmtRes(res), res.header)
	}
	// A flush before any write sends the header: with them.
	under := httptest.NewRecorder()
	rec := &recorder{ResponseWriter: under, srv: e.srv}
	if err := http.NewResponseController(rec).Flush(); err != nil {
		t.Fatal(err)
	}
	if h := under.Result().Header; h.Get("X-Frame-Options") != "DENY" || h.Get("Content-Security-Policy") == "" {
		t.Errorf("flushed answer's headers %v", h)
	}
}
