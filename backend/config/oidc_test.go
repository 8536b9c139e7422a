package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

const oidcOK = `dashboard:
  auth:
    oidc:
      enabled: true
      issuer: https://id.example.com
      client_id: costpilot
      redirect_url: https://cost.example.com/auth/oidc/callback
`

func TestValidateOIDC(t *testing.T) {
	tests := []struct {
		name   string
		yaml   string
		fields []string // nil: valid
	}{
		{name: "minimal", yaml: oidcOK},
		{name: "off needs nothing", yaml: "dashboard:\n  auth:\n    oidc:\n      enabled: false\n"},
		{name: "secret in the file is refused even when off", yaml: "dashboard:\n  auth:\n    oidc:\n      client_secret: s3cret\n",
			fields: []string{"dashboard.auth.oidc.client_secret"}},
		{name: "required fields", yaml: "dashboard:\n  auth:\n    oidc:\n      enabled: true\n",
			fields: []string{"dashboard.auth.oidc.issuer", "dashboard.auth.oidc.redirect_url", "dashboard.auth.oidc.client_id"}},
		{name: "plain http off loopback", yaml: strings.Replace(oidcOK, "https://id.", "http://id.", 1),
			fields: []string{"dashboard.auth.oidc.issuer"}},
		{name: "plain http on loopback", yaml: strings.NewReplacer("https://id.example.com", "http://127.0.0.1:9998",
			"https://cost.example.com", "http://localhost:5000").Replace(oidcOK)},
		{name: "redirect to another path", yaml: strings.Replace(oidcOK, "/auth/oidc/callback", "/callback", 1),
			fields: []string{"dashboard.auth.oidc.redirect_url"}},
		{name: "scopes without openid", yaml: oidcOK + "      scopes: [email]\n", fields: []string{"dashboard.auth.oidc.scopes"}},
		{name: "bad env name", yaml: oidcOK + "      client_secret_env: 'my secret'\n", fields: []string{"dashboard.auth.oidc.client_secret_env"}},
		{name: "bad roles", yaml: oidcOK + "      roles: {ops: owner, finops: editor}\n      default_role: root\n",
			fields: []string{"dashboard.auth.oidc.roles.ops", "dashboard.auth.oidc.default_role"}},
		{name: "empty default role refuses unmapped users", yaml: oidcOK + "      default_role: ''\n      roles: {ops: admin}\n"},
		{name: "domain with @", yaml: oidcOK + "      allowed_domains: ['@example.com']\n", fields: []string{"dashboard.auth.oidc.allowed_domains"}},
		{name: "groups without a claim", yaml: oidcOK + "      groups_claim: ''\n      allowed_groups: [ops]\n", fields: []string{"dashboard.auth.oidc.groups_claim"}},
		{name: "needs auth", yaml: oidcOK + "    enabled: false\n", fields: []string{"dashboard.auth.oidc.enabled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantFields(t, tt.yaml, tt.fields)
		})
	}
}

func TestOIDCDefaults(t *testing.T) {
	c, err := Parse([]byte(oidcOK), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o := c.Dashboard.Auth.OIDC
	if o.ClientSecretEnv != DefaultOIDCSecretEnv || o.GroupsClaim != "groups" || o.DefaultRole != model.RoleViewer ||
		!reflect.DeepEqual(o.Scopes, []string{"openid", "email", "profile"}) {
		t.Fatalf("defaults: %+v", o)
	}
	if o.RoleClaimName() != "groups" {
		t.Fatalf("role claim %q, want the groups claim", o.RoleClaimName())
	}
}

func TestReadClientSecret(t *testing.T) {
	o := OIDCConfig{ClientID: "costpilot", ClientSecretEnv: "COSTPILOT_TEST_OIDC_SECRET"}
	t.Setenv("COSTPILOT_TEST_OIDC_SECRET", "")
	t.Setenv("COSTPILOT_TEST_OIDC_SECRET_FILE", "")
	_, err := o.ReadClientSecret()
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Configuration ||
		!reflect.DeepEqual(e.Details["fields"], []string{"dashboard.auth.oidc.client_secret_env"}) {
		t.Fatalf("no secret: %v", err)
	}

	f := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(f, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("COSTPILOT_TEST_OIDC_SECRET_FILE", f)
	if v, err := o.ReadClientSecret(); err != nil || v != "from-file" {
		t.Fatalf("file: %q %v", v, err)
	}
	t.Setenv("COSTPILOT_TEST_OIDC_SECRET", "from-env")
	if v, err := o.ReadClientSecret(); err != nil || v != "from-env" {
		t.Fatalf("env: %q %v", v, err)
	}

	t.Setenv("COSTPILOT_TEST_OIDC_SECRET", "")
	t.Setenv("COSTPILOT_TEST_OIDC_SECRET_FILE", filepath.Join(t.TempDir(), "missing"))
	if _, err := o.ReadClientSecret(); !errors.Is(err, apperr.E(apperr.Configuration, "")) {
		t.Fatalf("missing file: %v", err)
	}
}
