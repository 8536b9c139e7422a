package config

import (
	"maps"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
)

// DefaultOIDCSecretEnv is the default of dashboard.auth.oidc.client_secret_env.
const DefaultOIDCSecretEnv = "COSTPILOT_OIDC_CLIENT_SECRET"

// OIDCCallbackPath is the dashboard's one callback path: redirect_url must
// end in it, since the server answers nowhere else.
const OIDCCallbackPath = "/auth/oidc/callback"

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

const oidcPrefix = "dashboard.auth.oidc."

// validateOIDC checks dashboard.auth.oidc. A secret in the file is refused
// even when single sign-on is off: the file is not the place for it.
func validateOIDC(a AuthConfig, add func(field, format string, args ...any)) {
	o := a.OIDC
	if o.ClientSecret != "" {
		add(oidcPrefix+"client_secret", "must not be in the configuration file: put the secret in the environment variable named by client_secret_env (default %s)", DefaultOIDCSecretEnv)
	}
	if !o.Enabled {
		return
	}
	if !a.Enabled {
		add(oidcPrefix+"enabled", "needs dashboard.auth.enabled: single sign-on is a way to log in")
	}
	checkURL := func(field, v string) *url.URL {
		if v == "" {
			add(oidcPrefix+field, "is required when dashboard.auth.oidc.enabled is true")
			return nil
		}
		u, err := url.Parse(v)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			add(oidcPrefix+field, "must be an absolute http(s) URL, got %q", v)
			return nil
		}
		if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
			add(oidcPrefix+field, "must use https (http only on localhost or a loopback address), got %q", v)
			return nil
		}
		return u
	}
	checkURL("issuer", o.Issuer)
	if u := checkURL("redirect_url", o.RedirectURL); u != nil && u.Path != OIDCCallbackPath {
		add(oidcPrefix+"redirect_url", "must end in %s (the dashboard's callback), got path %q", OIDCCallbackPath, u.Path)
	}
	if strings.TrimSpace(o.ClientID) == "" {
		add(oidcPrefix+"client_id", "is required when dashboard.auth.oidc.enabled is true")
	}
	if !envNameRE.MatchString(o.ClientSecretEnv) {
		add(oidcPrefix+"client_secret_env", "must be an environment variable name, got %q", o.ClientSecretEnv)
	}
	if !slices.Contains(o.Scopes, "openid") {
		add(oidcPrefix+"scopes", "must include openid")
	}
	for i, d := range o.AllowedDomains {
		if d = strings.TrimSpace(d); d == "" || strings.ContainsAny(d, "@/ ") {
			add(oidcPrefix+"allowed_domains", "item %d must be a domain such as example.com, got %q", i, o.AllowedDomains[i])
		}
	}
	for i, g := range o.AllowedGroups {
		if g == "" {
			add(oidcPrefix+"allowed_groups", "item %d is empty", i)
		}
	}
	if o.GroupsClaim == "" && (len(o.AllowedGroups) > 0 || (o.RoleClaim == "" && len(o.Roles) > 0)) {
		add(oidcPrefix+"groups_claim", "is required with allowed_groups or roles")
	}
	for _, k := range slices.Sorted(maps.Keys(o.Roles)) {
		r := o.Roles[k]
		if k == "" {
			add(oidcPrefix+"roles", "has an empty claim value")
		}
		if !r.Valid() {
			add(oidcPrefix+"roles."+k, "must be viewer, editor or admin, not %q", r)
		}
	}
	if o.DefaultRole != "" && !o.DefaultRole.Valid() {
		add(oidcPrefix+"default_role", "must be viewer, editor, admin or empty (refuse users no role maps), not %q", o.DefaultRole)
	}
}

// isLoopbackHost reports whether host is localhost or a loopback address,
// where plain http cannot be intercepted off the machine.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ReadClientSecret returns the client secret from the environment variable
// ClientSecretEnv names, else from the file named by that variable with
// _FILE appended. It is read when the dashboard starts, not by Validate, so
// CLI commands run without it.
func (o OIDCConfig) ReadClientSecret() (string, error) {
	name := o.ClientSecretEnv
	if v := os.Getenv(name); v != "" {
		return v, nil
	}
	if f := os.Getenv(name + "_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", apperr.Wrap(apperr.Configuration, err, "%sclient_secret_env: cannot read %s_FILE (%s): %s", oidcPrefix, name, f, errText(err)).
				WithDetail("fields", []string{oidcPrefix + "client_secret_env"})
		}
		if v := strings.TrimRight(string(b), "\r\n"); v != "" {
			return v, nil
		}
	}
	return "", apperr.E(apperr.Configuration, "%sclient_secret_env: set %s (or %s_FILE) to the client secret of %s", oidcPrefix, name, name, o.ClientID).
		WithDetail("fields", []string{oidcPrefix + "client_secret_env"})
}

// RoleClaimName is the claim the role mapping reads: role_claim, else
// groups_claim.
func (o OIDCConfig) RoleClaimName() string {
	if o.RoleClaim != "" {
		return o.RoleClaim
	}
	return o.GroupsClaim
}
