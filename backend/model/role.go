package model

// Role is what a dashboard user may do: viewer, editor or admin. Users
// signed in with single sign-on get theirs from the identity provider's
// claims at every login; local users are admins.
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
