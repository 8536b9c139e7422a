package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/service"
)

// TestSSOHandlers: with single sign-on the login sends the browser to the
// provider with a short-lived binding cookie for the callback's path
// only; callbacks without that binding are refused (as JSON or as the
// login page) and audited; without single sign-on both paths are 404.
func TestSSOHandlers(t *testing.T) {
	sso := newSSOEnv(t)
	se := &scenarioEnv{env: sso.env, callers: map[string]req{}}
	se.run(t, []scenario{
		{name: "start", path: "/auth/oidc/login", wantStatus: 303,
			wantHeader: map[string]string{"Location": sso.op.URL + "/", "Cache-Control": "no-store",
				"Set-Cookie": ssoCookie + "="}},
		// The binding is for the callback's path only and as long as a login may take.
		{name: "the binding cookie", path: "/auth/oidc/login", wantStatus: 303,
			wantHeader: map[string]string{"Set-Cookie": "Max-Age=600; HttpOnly; Secure; SameSite=Lax"}},
		{name: "the binding cookie's path", path: "/auth/oidc/login", wantStatus: 303,
			wantHeader: map[string]string{"Set-Cookie": "; Path=/auth/oidc/;"}},
		{name: "a callback without the binding", path: "/auth/oidc/callback?state=forged&code=x", header: map[string]string{"Accept": "application/json"},
			wantStatus: 403, wantJSON: errorJSON("SecurityError", nil),
			wantHeader: map[string]string{"Set-Cookie": ssoCookie + "=; Path=/auth/oidc/; Max-Age=0"},
			wantAudit:  []auditWant{{event: service.AuditSSORefused}}},
		{name: "a refusal, as the login page", path: "/auth/oidc/callback?error=access_denied&error_description=no",
			wantStatus: 403, wantHeader: map[string]string{"Content-Type": "text/html"}, wantText: []string{"Single sign-on failed: "},
			wantAudit: []auditWant{{event: service.AuditSSORefused}}},
	})
	off := newScenarioEnv(t, func(c *config.Config) { c.Dashboard.Auth.OIDC.Enabled = false })
	off.run(t, []scenario{
		{name: "off: login", path: "/auth/oidc/login", header: map[string]string{"Accept": "application/json"}, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", nil)},
		{name: "off: callback, as the login page", path: "/auth/oidc/callback?state=x", wantStatus: 404,
			wantText: []string{"Single sign-on failed: single sign-on is not configured"}},
	})
}
