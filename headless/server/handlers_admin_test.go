package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestAdminHandlers: users, tokens and the audit log through their
// handlers, with the answers' fields and the audit events each change
// writes under the admin's name.
func TestAdminHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	admin := model.RoleAdmin
	se.run(t, []scenario{
		{name: "users", path: "/api/users", role: admin, wantStatus: 200,
			wantJSON: []any{map[string]any{"username": "alice", "role": "admin", "disabled": false, "created_at": present}}},
		{name: "add an editor", method: "POST", path: "/api/users", role: admin,
			body: `{"username":"bob","password":"` + testPassword + `","role":"editor"}`, wantStatus: 200,
			wantJSON:  map[string]any{"id": positive, "username": "bob", "role": "editor", "disabled": false, "password_hash": absent},
			wantAudit: []auditWant{{event: service.AuditUserAdd, username: "alice", details: map[string]any{"user": "bob", "role": "editor"}}}},
		{name: "add with an unknown role", method: "POST", path: "/api/users", role: admin,
			body: `{"username":"carl","password":"` + testPassword + `","role":"root"}`, wantStatus: 400,
			wantJSON:  errorJSON("ValidationError", map[string]any{"field": "role", "value": "root", "allowed": []any{"viewer", "editor", "admin"}}),
			wantAudit: []auditWant{}},
		{name: "add with a misspelt field", method: "POST", path: "/api/users", role: admin,
			body: `{"usrname":"carl"}`, wantStatus: 400, wantJSON: errorJSON("ValidationError", map[string]any{"field": "usrname"})},
		{name: "make bob a viewer", method: "PATCH", path: "/api/users/bob", role: admin, body: `{"role":"viewer"}`, wantStatus: 200,
			wantJSON: map[string]any{"username": "bob", "role": "viewer"},
			wantAudit: []auditWant{{event: service.AuditUserRole, username: "alice",
				details: map[string]any{"user": "bob", "from": "editor", "to": "viewer"}}}},
		{name: "disable bob", method: "PATCH", path: "/api/users/bob", role: admin, body: `{"disabled":true}`, wantStatus: 200,
			wantJSON:  map[string]any{"username": "bob", "disabled": true},
			wantAudit: []auditWant{{event: service.AuditUserDisable, username: "alice", details: map[string]any{"user": "bob"}}}},
		{name: "change a missing user", method: "PATCH", path: "/api/users/nobody", role: admin, body: `{"role":"viewer"}`,
			wantStatus: 404, wantJSON: errorJSON("NotFoundError", nil), wantAudit: []auditWant{}},
		{name: "a token for ci", method: "POST", path: "/api/tokens", role: admin, body: `{"name":"ci","role":"viewer"}`, wantStatus: 200,
			wantJSON:  map[string]any{"id": 1, "name": "ci", "role": "viewer", "created_by": "alice", "token": prefix("cp_"), "revoked_at": ""},
			wantAudit: []auditWant{{event: service.AuditTokenCreate, username: "alice", details: map[string]any{"name": "ci", "role": "viewer"}}}},
		{name: "tokens, never their secret", path: "/api/tokens", role: admin, wantStatus: 200,
			wantJSON: []any{map[string]any{"id": 1, "name": "ci", "role": "viewer", "token": absent}}},
		{name: "revoke", method: "DELETE", path: "/api/tokens/1", role: admin, wantStatus: 200, wantJSON: map[string]any{"revoked": true},
			wantAudit: []auditWant{{event: service.AuditTokenRevoke, username: "alice", details: map[string]any{"token_id": 1}}}},
		{name: "revoked tokens are listed as such", path: "/api/tokens", role: admin, wantStatus: 200,
			wantJSON: []any{map[string]any{"id": 1, "revoked_at": prefix("2026-06-10T")}}},
		{name: "revoke a token id that is not a number", method: "DELETE", path: "/api/tokens/ci", role: admin, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "id"}), wantAudit: []auditWant{}},
		{name: "delete bob", method: "DELETE", path: "/api/users/bob", role: admin, wantStatus: 200, wantJSON: map[string]any{"deleted": true},
			wantAudit: []auditWant{{event: service.AuditUserDelete, username: "alice", details: map[string]any{"user": "bob"}}}},
		{name: "the last admin stays", method: "DELETE", path: "/api/users/alice", role: admin, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"reason": "last_admin"}), wantAudit: []auditWant{}},
		{name: "the audit log, newest first", path: "/api/audit?limit=2", role: admin, wantStatus: 200,
			wantJSON: []any{map[string]any{"event": service.AuditUserDelete, "username": "alice", "details": map[string]any{"user": "bob"}},
				map[string]any{"event": service.AuditTokenRevoke}}},
		{name: "an audit limit out of range", path: "/api/audit?limit=0x10", role: admin, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "limit"})},
	})
}
