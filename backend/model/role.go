package model

// Role is what a dashboard user or API token may do: viewer, editor or
// admin. Users signed in with single sign-on get theirs from the identity
// provider's claims at every login; local users get theirs from an
// administrator; a token's is at most its creator's.
type Role string

// Roles, least to most privileged.
const (
	RoleViewer Role = "viewer" // reads everything
	RoleEditor Role = "editor" // also changes imports, budgets, rules and reports
	RoleAdmin  Role = "admin"  // also users, tokens, credentials and settings
)

// Roles lists every role, least to most privileged.
var Roles = []Role{RoleViewer, RoleEditor, RoleAdmin}

// Valid reports whether r is one of Roles.
func (r Role) Valid() bool { return r.Rank() > 0 }

// Rank orders the roles: 1 for viewer to 3 for admin, 0 for anything else.
func (r Role) Rank() int {
	for i, x := range Roles {
		if x == r {
			return i + 1
		}
	}
	return 0
}

// AtLeast reports whether r is a valid role as privileged as min or more.
func (r Role) AtLeast(min Role) bool { return r.Valid() && r.Rank() >= min.Rank() }

// Permission is a kind of action. Every Service method and every route
// needs one; which role grants it is the one table below.
type Permission string

// Permissions, from the least to the most privileged.
const (
	// PermRead: every read (costs, recommendations, forecasts, reports,
	// rules, runs, status, alerts, budgets).
	PermRead Permission = "read"
	// PermChange: changing the data everyone sees: imports and syncs,
	// recommendation states, allocation rules, reports and optimization
	// runs, budgets and saved views.
	PermChange Permission = "change"
	// PermAdmin: users, API tokens, the audit log, credentials, settings
	// and maintenance (cleanup).
	PermAdmin Permission = "admin"
)

// Permissions lists every permission, least to most privileged.
var Permissions = []Permission{PermRead, PermChange, PermAdmin}

// permissionRole is the role → permission table: the least role that
// holds each permission. Every check in the backend and every route's
// declaration goes through it (docs/api.md, "Roles").
var permissionRole = map[Permission]Role{
	PermRead:   RoleViewer,
	PermChange: RoleEditor,
	PermAdmin:  RoleAdmin,
}

// MinRole is the least role that holds p; "" for an unknown permission,
// which no role holds.
func (p Permission) MinRole() Role { return permissionRole[p] }

// Can reports whether r holds p.
func (r Role) Can(p Permission) bool {
	min := p.MinRole()
	return min != "" && r.AtLeast(min)
}

// PermissionsOf lists what r may do, least privileged first (the UI hides
// what the list lacks).
func PermissionsOf(r Role) []Permission {
	out := []Permission{}
	for _, p := range Permissions {
		if r.Can(p) {
			out = append(out, p)
		}
	}
	return out
}
