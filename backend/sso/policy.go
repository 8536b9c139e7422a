package sso

import (
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// Policy says who may log in and with which role (dashboard.auth.oidc).
type Policy struct {
	// AllowedDomains, when set, admit only emails of these domains.
	AllowedDomains []string
	// AllowedGroups, when set, admit only members of one of these groups.
	AllowedGroups []string
	// GroupsClaim names the claim listing the user's groups; a dotted name
	// reaches into objects (realm_access.roles).
	GroupsClaim string
	// RoleClaim names the claim whose values Roles maps; empty means
	// GroupsClaim.
	RoleClaim string
	// Roles maps a claim value to a role; the highest matching role wins.
	Roles map[string]model.Role
	// DefaultRole is the role when no value maps; empty refuses the login.
	DefaultRole model.Role
}

// PolicyFrom reads the policy of dashboard.auth.oidc.
func PolicyFrom(o config.OIDCConfig) Policy {
	return Policy{AllowedDomains: o.AllowedDomains, AllowedGroups: o.AllowedGroups, GroupsClaim: o.GroupsClaim,
		RoleClaim: o.RoleClaim, Roles: o.Roles, DefaultRole: o.DefaultRole}
}

func (p Policy) roleClaim() string {
	if p.RoleClaim != "" {
		return p.RoleClaim
	}
	if len(p.Roles) > 0 {
		return p.GroupsClaim
	}
	return ""
}

// Decide returns the role of a user the provider authenticated, or a
// SecurityError with a reason when the policy refuses them. Every
// restriction configured must pass: the email domain, then the groups,
// then a role.
func (p Policy) Decide(id Identity) (model.Role, error) {
	who := id.Email
	if who == "" {
		who = id.Subject
	}
	if len(p.AllowedDomains) > 0 {
		_, domain, ok := strings.Cut(id.Email, "@")
		if !ok || !slices.ContainsFunc(p.AllowedDomains, func(d string) bool { return strings.EqualFold(strings.TrimSpace(d), domain) }) {
			return "", refused(ReasonDomain, nil, "%s may not use this dashboard: only accounts of %s are allowed", who, strings.Join(p.AllowedDomains, ", "))
		}
		// A provider that lets users type any address must have checked it.
		if id.EmailVerified != nil && !*id.EmailVerified {
			return "", refused(ReasonEmailUnverified, nil, "%s may not use this dashboard: the identity provider has not verified that email address", who)
		}
	}
	if len(p.AllowedGroups) > 0 && !slices.ContainsFunc(id.Groups, func(g string) bool { return slices.Contains(p.AllowedGroups, g) }) {
		return "", refused(ReasonGroup, nil, "%s may not use this dashboard: not a member of an allowed group", who)
	}
	var role model.Role
	for _, v := range id.RoleValues {
		if r := p.Roles[v]; r.Rank() > role.Rank() {
			role = r
		}
	}
	if role == "" {
		role = p.DefaultRole
	}
	if !role.Valid() {
		return "", refused(ReasonNoRole, nil, "%s may not use this dashboard: no role is granted to the account's groups", who)
	}
	return role, nil
}

// DashboardName is the dashboard name of a user: the email, else the preferred
// username, else the subject.
func (id Identity) DashboardName() string {
	switch {
	case id.Email != "":
		return strings.ToLower(id.Email)
	case id.Username != "":
		return id.Username
	}
	return id.Subject
}

// lookup finds a claim by name, or by a dotted path into nested objects
// when no claim has the dotted name itself.
func lookup(claims map[string]any, name string) (any, bool) {
	if v, ok := claims[name]; ok {
		return v, true
	}
	var cur any = claims
	for part := range strings.SplitSeq(name, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// values reads a claim as a list of strings: a JSON array of strings, or
// one string.
func values(claims map[string]any, name string) []string {
	v, _ := lookup(claims, name)
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
