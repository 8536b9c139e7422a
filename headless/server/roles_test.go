package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestEveryRouteDeclaresItsPermission: every route a caller must be
// logged in for declares the permission it needs, and public routes
// declare none. Routes added later fail here until they say who may call
// them.
func TestEveryRouteDeclaresItsPermission(t *testing.T) {
	for _, rt := range routeTable() {
		switch {
		case rt.access == accessPublic && rt.perm != "":
			t.Errorf("%s %s is public but declares %q", rt.Method, rt.Path, rt.perm)
		case rt.access != accessPublic && !rt.perm.MinRole().Valid():
			t.Errorf("%s %s declares no permission (%q): give it read, change or admin", rt.Method, rt.Path, rt.perm)
		}
	}
}

// matrixCaller is one identity of the role matrix.
type matrixCaller struct {
	name   string
	role   model.Role
	cookie *http.Cookie
	bearer string
}

// matrixCallers logs in a user of each role and creates a token of each
// role.
func matrixCallers(t *testing.T, e *env) []matrixCaller {
	t.Helper()
	var out []matrixCaller
	for _, role := range model.Roles {
		name := "m-" + string(role)
		if _, err := e.svc.AddUser(adminCtx(), service.NewUser{Username: name, Password: testPassword, Role: role}); err != nil {
			t.Fatal(err)
		}
		c, res := e.login(name, testPassword)
		if c == nil {
			t.Fatalf("login %s: %s", name, fmtRes(res))
		}
		out = append(out, matrixCaller{name: string(role) + " session", role: role, cookie: c})
		nt, err := e.svc.CreateToken(adminCtx(), service.TokenRequest{Name: name, Role: role})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, matrixCaller{name: string(role) + " token", role: role, bearer: nt.Token})
	}
	return out
}

// matrixPath fills a route's wildcards with values naming nothing, and
// matrixBody gives bodies that fail validation, so allowed calls change
// nothing and stay fast (only optimize does its work).
func matrixPath(rt route) string {
	p := rt.Path
	if strings.HasSuffix(p, "/api/") {
		return p + "no-such-path"
	}
	for k, v := range map[string]string{"{id}": "999999", "{name}": "no-such-name"} {
		p = strings.ReplaceAll(p, k, v)
	}
	return p
}

var matrixBody = map[string]string{
	"POST /api/reports":                    `{"type":"no-such-type"}`,
	"POST /api/allocation/rules":           `{"name":""}`,
	"POST /api/allocate":                   `{}`,
	"POST /api/recommendations/{id}/state": `{"state":"open"}`,
	"POST /api/users":                      `{}`,
	"PATCH /api/users/{name}":              `{"role":"viewer"}`,
	"POST /api/tokens":                     `{}`,
	"POST /api/credentials/validate":       ``,
	"POST /api/import":                     ``,
	"POST /api/schedules":                  `{"name":""}`,
	"PUT /api/schedules/{id}":              `{"name":""}`,
}

// TestRoleMatrix is the HTTP side of the role matrix: every route of the
// route table that needs a caller, called by a viewer, an editor and an
// admin, each with a session and with a token. A role the route's
// permission grants is never refused (not 403, whether by the route's
// check or by the Service's); any other gets 403 with the error shape,
// a SecurityError whose details say the permission and the role needed.
func TestRoleMatrix(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	callers := matrixCallers(t, e)
	for _, rt := range routeTable() {
		if rt.access == accessPublic {
			continue
		}
		label := rt.Method + " " + rt.Path
		t.Run(label, func(t *testing.T) {
			for _, c := range callers {
				res := e.do(req{method: rt.Method, path: matrixPath(rt), cookie: c.cookie, bearer: c.bearer, body: matrixBody[label]})
				allowed := c.role.Can(rt.perm)
				if allowed {
					if res.status == http.StatusForbidden || res.status == http.StatusUnauthorized {
						t.Errorf("%s: %s, want it allowed (%s needs %s)", c.name, fmtRes(res), label, rt.perm)
					}
					continue
				}
				body, ok := res.errorShape()
				d, _ := body["details"].(map[string]any)
				if res.status != http.StatusForbidden || !ok || body["error_type"] != "SecurityError" || d["reason"] != "forbidden" ||
					d["permission"] != string(rt.perm) || d["required_role"] != string(rt.perm.MinRole()) || d["role"] != string(c.role) {
					t.Errorf("%s: %s, want 403 SecurityError forbidden (%s needs %s)", c.name, fmtRes(res), label, rt.perm)
				}
			}
		})
	}
}

// TestAdminAPI walks the administration endpoints as the UI does: an
// admin creates an editor, changes the role, resets the password,
// disables the user (whose session and tokens stop at once) and deletes
// it; tokens carry at most their creator's role and stop when revoked;
// the last admin cannot be demoted; every change is in the audit log.
func TestAdminAPI(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	admin := e.mustLogin()
	as := func(c *http.Cookie, bearer, method, path, body string) response {
		return e.do(req{method: method, path: path, cookie: c, bearer: bearer, body: body})
	}
	must := func(res response, status int, want ...string) {
		t.Helper()
		if res.status != status {
			t.Fatalf("%s, want %d", fmtRes(res), status)
		}
		for _, w := range want {
			if !strings.Contains(res.body, w) {
				t.Fatalf("%s, want %s in it", fmtRes(res), w)
			}
		}
	}
	must(as(admin, "", "POST", "/api/users", `{"username":"ed","password":"`+testPassword+`","role":"editor"}`), 200, `"role":"editor"`, `"disabled":false`)
	must(as(admin, "", "POST", "/api/users", `{"username":"ed","password":"`+testPassword+`"}`), 400, "ValidationError")
	must(as(admin, "", "POST", "/api/users", `{"username":"x","password":"`+testPassword+`","role":"root"}`), 400, `"allowed"`)
	ed, res := e.login("ed", testPassword)
	if ed == nil {
		t.Fatal(fmtRes(res))
	}
	must(as(ed, "", "GET", "/api/session", ""), 200, `"role":"editor"`, `"permissions":["read","change"]`)
	must(as(ed, "", "GET", "/api/users", ""), 403, "SecurityError")

	// An editor's token: an editor may not create one (tokens are for
	// admins), and an admin's token is capped at its creator's role.
	must(as(ed, "", "POST", "/api/tokens", `{"name":"ci"}`), 403)
	tokRes := as(admin, "", "POST", "/api/tokens", `{"name":"reader","role":"viewer"}`)
	must(tokRes, 200, `"role":"viewer"`, `"created_by":"alice"`, `"token":"cp_`)
	var tok struct {
		ID    int64  `json:"id"`
		Token string `json:"token"`
	}
	if err := json.Unmarshal([]byte(tokRes.body), &tok); err != nil {
		t.Fatal(err)
	}
	must(as(nil, tok.Token, "GET", "/api/runs", ""), 200)
	must(as(nil, tok.Token, "POST", "/api/allocation/rules", `{"name":"x"}`), 403)
	must(as(admin, "", "GET", "/api/tokens", ""), 200, `"name":"reader"`, `"last_used":"20`)

	// Role changes and password resets reach the session at once.
	must(as(admin, "", "PATCH", "/api/users/ed", `{"role":"viewer"}`), 200, `"role":"viewer"`)
	must(as(ed, "", "GET", "/api/session", ""), 200, `"role":"viewer"`, `"permissions":["read"]`)
	must(as(ed, "", "POST", "/api/allocation/rules", `{"name":"x"}`), 403)
	must(as(admin, "", "PATCH", "/api/users/ed", `{"password":"a brand new long password"}`), 200)
	must(as(ed, "", "GET", "/api/session", ""), 401)
	if c, _ := e.login("ed", "a brand new long password"); c == nil {
		t.Fatal("login with the reset password failed")
	} else {
		ed = c
	}

	// Disabling ends the session and refuses the login.
	must(as(admin, "", "PATCH", "/api/users/ed", `{"disabled":true}`), 200, `"disabled":true`)
	must(as(ed, "", "GET", "/api/session", ""), 401)
	if c, res := e.login("ed", "a brand new long password"); c != nil || res.status != http.StatusUnauthorized {
		t.Fatalf("a disabled user logged in: %s", fmtRes(res))
	}
	must(as(admin, "", "PATCH", "/api/users/ed", `{"disabled":false}`), 200, `"disabled":false`)

	// The last enabled admin stays.
	must(as(admin, "", "PATCH", "/api/users/alice", `{"role":"editor"}`), 400, `"last_admin"`)
	must(as(admin, "", "DELETE", "/api/users/alice", ""), 400, `"last_admin"`)
	must(as(admin, "", "DELETE", "/api/users/ed", ""), 200, `"deleted":true`)
	must(as(admin, "", "DELETE", "/api/users/ed", ""), 404)

	// A revoked token stops at once.
	must(as(admin, "", "DELETE", "/api/tokens/"+jsonInt(tok.ID), ""), 200, `"revoked":true`)
	must(as(nil, tok.Token, "GET", "/api/runs", ""), 401)

	audit := as(admin, "", "GET", "/api/audit?limit=50", "")
	for _, ev := range []string{service.AuditUserAdd, service.AuditUserRole, service.AuditUserPassword, service.AuditUserDisable,
		service.AuditUserEnable, service.AuditUserDelete, service.AuditTokenCreate, service.AuditTokenRevoke, service.AuditLoginRefused} {
		must(audit, 200, `"event":"`+ev+`"`)
	}
	must(as(admin, "", "GET", "/api/audit?limit=0", ""), 200)
	must(as(admin, "", "GET", "/api/audit?limit=5000", ""), 400, `"field":"limit"`)
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
