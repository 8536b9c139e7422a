package server

import (
	"net/url"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/service"
)

// formHeader posts a form; formJSON also asks for a JSON answer, as a
// script does.
var (
	formHeader = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	formJSON   = map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
)

func loginForm(user, password, next string) string {
	v := url.Values{"username": {user}, "password": {password}}
	if next != "" {
		v.Set("next", next)
	}
	return v.Encode()
}

// TestAuthHandlers: the login page, a failed and a successful login (the
// session cookie's attributes, where the browser goes next), logging
// out, and the lock after too many failures, each with its audit event.
func TestAuthHandlers(t *testing.T) {
	se := newScenarioEnv(t, func(c *config.Config) { c.Dashboard.Auth.MaxLoginAttempts = 3 })
	se.run(t, []scenario{
		{name: "the login page", path: "/login?next=/explore", wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/html", "Cache-Control": "no-store"},
			wantText:   []string{`<form`, `name="username"`, `name="password"`, `value="/explore"`}},
		{name: "a wrong password, as a form", method: "POST", path: "/login", header: formHeader, body: loginForm("alice", "wrong", ""),
			wantStatus: 401, wantText: []string{"Invalid username or password.", `value="alice"`},
			wantAudit: []auditWant{{event: service.AuditLoginFailure, username: "alice"}}},
		{name: "an unknown user, as JSON", method: "POST", path: "/login", header: formJSON, body: loginForm("mallory", "x", ""),
			wantStatus: 401, wantJSON: errorJSON("AuthenticationError", nil),
			wantAudit: []auditWant{{event: service.AuditLoginFailure, username: "mallory"}}},
		{name: "logged in, sent on", method: "POST", path: "/login", header: formHeader, body: loginForm("alice", testPassword, "/explore?days=7"),
			wantStatus: 303, wantLocation: "/explore?days=7", wantHeader: map[string]string{"Set-Cookie": cookieName + "="},
			wantAudit: []auditWant{{event: service.AuditLoginSuccess, username: "alice"}}},
		{name: "the cookie is HttpOnly, Secure and Lax", method: "POST", path: "/login", header: formHeader, body: loginForm("alice", testPassword, ""),
			wantStatus: 303, wantLocation: "/", wantHeader: map[string]string{"Set-Cookie": "; HttpOnly; Secure; SameSite=Lax"}},
		{name: "no leaving the site after a login", method: "POST", path: "/login", header: formHeader,
			body: loginForm("alice", testPassword, "//evil.example/x"), wantStatus: 303, wantLocation: "/"},
		{name: "a logged-in browser skips the page", path: "/login?next=/budgets", role: "admin", wantStatus: 303,
			wantLocation: "/budgets"},
		{name: "logout", method: "POST", path: "/logout", role: "admin", wantStatus: 303,
			wantLocation: "/login", wantHeader: map[string]string{"Set-Cookie": cookieName + "=; Path=/; Max-Age=0"},
			wantAudit: []auditWant{{event: service.AuditLogout, username: "alice"}}},
		// A login clears the user's failures: three more lock it.
		{name: "a failure after the logins", method: "POST", path: "/login", header: formJSON, body: loginForm("alice", "wrong", ""),
			wantStatus: 401, wantJSON: errorJSON("AuthenticationError", nil)},
		{name: "a second", method: "POST", path: "/login", header: formJSON, body: loginForm("alice", "wrong", ""), wantStatus: 401},
		{name: "the third still checks the password", method: "POST", path: "/login", header: formJSON, body: loginForm("alice", "wrong", ""),
			wantStatus: 401, wantAudit: []auditWant{{event: service.AuditLoginFailure, username: "alice"}}},
		{name: "then the user is locked, even with the right password", method: "POST", path: "/login", header: formHeader,
			body: loginForm("alice", testPassword, ""), wantStatus: 429,
			wantHeader: map[string]string{"Retry-After": "900"}, wantText: []string{"Too many failed attempts. Try again in 15 minutes."},
			wantAudit: []auditWant{{event: service.AuditLoginLocked, username: "alice"}}},
	})
}
