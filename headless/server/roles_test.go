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

// matrixPath fills a route's wildcards with malformed values, and
// matrixBody is malformed JSON, so that an allowed call is refused by the
// handler's decoding (400) or names nothing (404) and changes nothing,
// and a call the route's own permission check lets through by mistake
// is refused for its input instead of with the 403 the oracle expects:
// the Service's check comes after decoding.
func matrixPath(rt route) string {
	p := rt.Path
	if strings.HasSuffix(p, "/api/") {
		return p + "no-such-path"
	}
	for k, v := range map[string]string{"{id}": "not-an-id", "{name}": "no-such-name"} {
		p = strings.ReplaceAll(p, k, v)
	}
	return p
}

func matrixBody(rt route) string {
	switch rt.Method {
	case "POST", "PUT", "PATCH":
		return "{"
	}
	return ""
}

// roleRow is the oracle's expected status of one route for each caller:
// no credentials, then a viewer, an editor and an admin, each with a
// session and with a token (token, when set, is what a bearer token of
// any role gets instead). The statuses are written out by hand from
// docs/api.md's role table, not read from the route table, so a route
// whose permission changes fails here.
type roleRow struct {
	method, path                string
	anon, viewer, editor, admin int
	token                       int
}

// roleOracle lists every route of the route table. Calls use matrixPath
// and matrixBody: allowed calls name nothing or fail validation, so 404
// and 400 mean "allowed, and refused for the input". POST /logout ends
// the sessions, so it comes last.
var roleOracle = []roleRow{
	{"GET", "/api/costs", 401, 200, 200, 200, 0},
	{"GET", "/api/costs/resources", 401, 200, 200, 200, 0},
	{"GET", "/api/costs/resources.csv", 401, 200, 200, 200, 0},
	{"GET", "/api/recommendations", 401, 200, 200, 200, 0},
	{"GET", "/api/recommendations/not-assessed", 401, 200, 200, 200, 0},
	{"GET", "/api/recommendations/{id}", 401, 404, 404, 404, 0},
	{"POST", "/api/recommendations/{id}/state", 401, 403, 400, 400, 0},
	{"GET", "/api/anomalies", 401, 200, 200, 200, 0},
	{"GET", "/api/anomalies/{id}", 401, 404, 404, 404, 0},
	{"POST", "/api/anomalies/{id}/decision", 401, 403, 400, 400, 0},
	{"GET", "/api/commitments", 401, 200, 200, 200, 0},
	{"GET", "/api/ai/costs", 401, 200, 200, 200, 0},
	{"GET", "/api/allocation/coverage", 401, 200, 200, 200, 0},
	{"GET", "/api/budgets", 401, 200, 200, 200, 0},
	{"POST", "/api/budgets", 401, 403, 400, 400, 0},
	{"PUT", "/api/budgets/{id}", 401, 403, 400, 400, 0},
	{"DELETE", "/api/budgets/{id}", 401, 403, 400, 400, 0},
	{"GET", "/api/contracts", 401, 200, 200, 200, 0},
	{"POST", "/api/contracts", 401, 403, 400, 400, 0},
	{"GET", "/api/units", 401, 200, 200, 200, 0},
	{"POST", "/api/units", 401, 403, 400, 400, 0},
	{"DELETE", "/api/units/{name}", 401, 403, 404, 404, 0},
	{"GET", "/api/invoices", 401, 200, 200, 200, 0},
	{"POST", "/api/invoices/totals", 401, 403, 400, 400, 0},
	{"GET", "/api/statements", 401, 400, 400, 400, 0},
	{"GET", "/api/statements.pdf", 401, 400, 400, 400, 0},
	{"GET", "/api/schedules", 401, 200, 200, 200, 0},
	{"POST", "/api/schedules", 401, 403, 403, 400, 0},
	{"PUT", "/api/schedules/{id}", 401, 403, 403, 400, 0},
	{"DELETE", "/api/schedules/{id}", 401, 403, 403, 400, 0},
	{"GET", "/api/forecast", 401, 200, 200, 200, 0},
	{"GET", "/api/forecast/evaluate", 401, 200, 200, 200, 0},
	{"POST", "/api/optimize", 401, 403, 200, 200, 0},
	{"POST", "/api/sync", 401, 403, 400, 400, 0},
	{"GET", "/api/kubernetes", 401, 200, 200, 200, 0},
	{"POST", "/api/kubernetes/sync", 401, 403, 400, 400, 0},
	{"POST", "/api/reports", 401, 403, 400, 400, 0},
	{"DELETE", "/api/reports/{name}", 401, 403, 404, 404, 0},
	{"GET", "/api/status", 401, 200, 200, 200, 0},
	// Allocating previews a split and changes nothing: a read.
	{"POST", "/api/allocate", 401, 400, 400, 400, 0},
	{"GET", "/api/performance", 401, 200, 200, 200, 0},
	{"GET", "/api/reports", 401, 200, 200, 200, 0},
	{"GET", "/api/reports/{name}", 401, 404, 404, 404, 0},
	{"GET", "/api/status/detailed", 401, 200, 200, 200, 0},
	{"POST", "/api/credentials/validate", 401, 403, 403, 200, 0},
	{"GET", "/api/allocation/rules", 401, 200, 200, 200, 0},
	{"POST", "/api/allocation/rules", 401, 403, 400, 400, 0},
	{"GET", "/api/health", 401, 200, 200, 200, 0},
	{"GET", "/api/alerts", 401, 200, 200, 200, 0},
	{"GET", "/api/runs", 401, 200, 200, 200, 0},
	{"GET", "/api/session", 401, 200, 200, 200, 0},
	{"GET", "/api/tags", 401, 200, 200, 200, 0},
	{"GET", "/api/export/focus", 401, 200, 200, 200, 0},
	{"POST", "/mcp", 401, 400, 400, 400, 0},
	{"GET", "/api/views", 401, 200, 200, 200, 0},
	{"POST", "/api/views", 401, 403, 400, 400, 0},
	{"PUT", "/api/views/{name}", 401, 403, 400, 400, 0},
	{"DELETE", "/api/views/{name}", 401, 403, 404, 404, 0},
	{"POST", "/api/import", 401, 403, 400, 400, 0},
	{"GET", "/api/users", 401, 403, 403, 200, 0},
	{"POST", "/api/users", 401, 403, 403, 400, 0},
	{"PATCH", "/api/users/{name}", 401, 403, 403, 400, 0},
	{"DELETE", "/api/users/{name}", 401, 403, 403, 404, 0},
	{"GET", "/api/tokens", 401, 403, 403, 200, 0},
	{"POST", "/api/tokens", 401, 403, 403, 400, 0},
	{"DELETE", "/api/tokens/{id}", 401, 403, 403, 400, 0},
	{"GET", "/api/audit", 401, 403, 403, 200, 0},
	{"GET", "/api/", 401, 404, 404, 404, 0},
	{"POST", "/api/", 401, 404, 404, 404, 0},
	{"PUT", "/api/", 401, 404, 404, 404, 0},
	{"PATCH", "/api/", 401, 404, 404, 404, 0},
	{"DELETE", "/api/", 401, 404, 404, 404, 0},
	// A logged-in browser is sent on from the login page.
	{"GET", "/login", 200, 303, 303, 303, 200},
	{"POST", "/login", 401, 401, 401, 401, 0},
	{"GET", "/auth/oidc/login", 404, 404, 404, 404, 0},
	{"GET", "/auth/oidc/callback", 404, 404, 404, 404, 0},
	{"GET", "/login.css", 200, 200, 200, 200, 0},
	{"GET", "/healthz", 200, 200, 200, 200, 0},
	{"GET", "/metrics", 401, 200, 200, 200, 0},
	// Pages take a session, never a token.
	{"GET", "/", 303, 200, 200, 200, 303},
	{"POST", "/logout", 303, 303, 303, 303, 0},
}

// roleOraclePerm is the permission a 403 names: the one the least role
// allowed on the route holds (docs/api.md, "Roles").
var roleOraclePerm = map[model.Role]model.Permission{model.RoleViewer: "read", model.RoleEditor: "change", model.RoleAdmin: "admin"}

// TestRoleOracleCoversRouteTable: the oracle and the route table name the
// same routes, so a route added without its row, or a row left for a
// route removed, fails.
func TestRoleOracleCoversRouteTable(t *testing.T) {
	inOracle := map[Route]bool{}
	for _, o := range roleOracle {
		r := Route{o.method, o.path}
		if inOracle[r] {
			t.Errorf("%s %s is in the oracle twice", o.method, o.path)
		}
		inOracle[r] = true
	}
	inTable := map[Route]bool{}
	for _, r := range Routes() {
		inTable[r] = true
		if !inOracle[r] {
			t.Errorf("%s %s is in the route table but not in roleOracle: add its expected statuses", r.Method, r.Path)
		}
	}
	for r := range inOracle {
		if !inTable[r] {
			t.Errorf("roleOracle names %s %s, which the route table no longer has", r.Method, r.Path)
		}
	}
}

// TestRoleMatrix is the HTTP side of the role matrix: every route, called
// with no credentials and by a viewer, an editor and an admin, each with
// a session and with a token, answers the oracle's status. A refusal for
// the role is a 403 in the error shape: a SecurityError whose details say
// the permission, the role needed and the caller's role.
func TestRoleMatrix(t *testing.T) {
	e := newEnv(t, func(c *config.Config) {
		c.Dashboard.RateLimit.Enabled = false
		// The matrix posts empty logins from one address.
		c.Dashboard.Auth.MaxLoginAttempts = 1000
	})
	callers := matrixCallers(t, e)
	for _, o := range roleOracle {
		label := o.method + " " + o.path
		rt := route{Route: Route{o.method, o.path}}
		want := map[model.Role]int{model.RoleViewer: o.viewer, model.RoleEditor: o.editor, model.RoleAdmin: o.admin}
		least := model.Role("")
		for _, r := range model.Roles {
			if least == "" && want[r] != http.StatusForbidden {
				least = r
			}
		}
		t.Run(label, func(t *testing.T) {
			if res := e.do(req{method: o.method, path: matrixPath(rt), body: matrixBody(rt)}); res.status != o.anon {
				t.Errorf("no credentials: %s, want %d", fmtRes(res), o.anon)
			}
			for _, c := range callers {
				status := want[c.role]
				if c.bearer != "" && o.token != 0 {
					status = o.token
				}
				res := e.do(req{method: o.method, path: matrixPath(rt), cookie: c.cookie, bearer: c.bearer, body: matrixBody(rt)})
				if res.status != status {
					t.Errorf("%s: %s, want %d", c.name, fmtRes(res), status)
					continue
				}
				if status != http.StatusForbidden {
					continue
				}
				body, ok := res.errorShape()
				d, _ := body["details"].(map[string]any)
				if !ok || body["error_type"] != "SecurityError" || d["reason"] != "forbidden" ||
					d["permission"] != string(roleOraclePerm[least]) || d["required_role"] != string(least) || d["role"] != string(c.role) {
					t.Errorf("%s: %s, want a SecurityError naming %s and role %s", c.name, fmtRes(res), roleOraclePerm[least], least)
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
