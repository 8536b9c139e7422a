package service

import (
	"io"
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/sso"
	"github.com/costpilot/costpilot/internal/testop"
)

const ssoRedirect = "http://127.0.0.1:1/auth/oidc/callback"

// ssoService opens a service with single sign-on at a test provider on
// loopback whose users are alice (admins) and eve (another domain).
func ssoService(t *testing.T) *Service {
	t.Helper()
	t.Setenv("COSTPILOT_TEST_SVC_SSO_SECRET", "s1")
	op, err := testop.Start(testop.Config{
		Users: []testop.User{
			{ID: "u-alice", Username: "alice", Password: "pw", Email: "alice@example.com", Groups: []string{"admins"}},
			{ID: "u-eve", Username: "eve", Password: "pw", Email: "eve@elsewhere.test", Groups: []string{"admins"}},
		},
		Clients: []testop.Client{{ID: "costpilot", Secret: "s1", RedirectURIs: []string{ssoRedirect}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(op.Close)
	cfg := config.Default()
	cfg.Dashboard.Security.SecretKey = "test-secret-key-0123456789abcdef"
	cfg.Dashboard.Auth.OIDC = config.OIDCConfig{Enabled: true, Issuer: op.URL, ClientID: "costpilot", ClientSecretEnv: "COSTPILOT_TEST_SVC_SSO_SECRET",
		RedirectURL: ssoRedirect, Scopes: []string{"openid", "email", testop.ScopeGroups}, AllowedDomains: []string{"example.com"},
		GroupsClaim: "groups", Roles: map[string]model.Role{"admins": model.RoleAdmin}}
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// ssoCallback starts a login, logs user in at the provider and returns
// what the browser brings back.
func ssoCallback(t *testing.T, s *Service, user string) SSOCallback {
	t.Helper()
	ctx := adminCtx()
	st, err := s.StartSSO(ctx)
	if err != nil {
		t.Fatal(err)
	}
	back, err := testop.Login(ctx, st.URL, user, "pw")
	if err != nil {
		t.Fatal(err)
	}
	q := back.Query()
	return SSOCallback{State: q.Get("state"), Code: q.Get("code"), Binding: st.Binding, ClientAddr: "10.0.0.9"}
}

func TestFinishSSOAuditAndUsers(t *testing.T) {
	s := ssoService(t)
	ctx := adminCtx()

	res, err := s.FinishSSO(ctx, ssoCallback(t, s, "alice"))
	if err != nil || res.Username != "alice@example.com" || res.Role != model.RoleAdmin {
		t.Fatalf("login: %+v %v", res, err)
	}
	p, err := s.Authenticate(ctx, res.Session)
	if err != nil || p.Role != model.RoleAdmin || !p.sso {
		t.Fatalf("session %+v %v", p, err)
	}
	// A second login finds the same user.
	if _, err := s.FinishSSO(ctx, ssoCallback(t, s, "alice")); err != nil {
		t.Fatal(err)
	}
	_, err = s.FinishSSO(ctx, ssoCallback(t, s, "eve"))
	if apperr.KindOf(err) != apperr.Security || sso.ReasonOf(err) != sso.ReasonDomain {
		t.Fatalf("eve: %v", err)
	}
	cb := ssoCallback(t, s, "alice")
	cb.State += "x"
	if _, err := s.FinishSSO(ctx, cb); sso.ReasonOf(err) != sso.ReasonState {
		t.Fatalf("tampered state: %v", err)
	}

	users, err := s.Users(ctx)
	if err != nil || len(users) != 1 || users[0].SSOIssuer == "" || users[0].PasswordHash != "" {
		t.Fatalf("users %+v %v: want alice alone, from SSO, with no password", users, err)
	}
	if err := s.SetUserPassword(ctx, "alice@example.com", "a good long password"); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("setting an SSO user's password: %v", err)
	}

	events, err := s.store.AuditEvents(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		got = append(got, e.Event+" "+e.Username+" "+stringOf(e.Details["reason"])+stringOf(e.Details["role"]))
	}
	// The first login creates the user (its own event, in the user's
	// transaction); the second changes nothing about the user.
	want := []string{
		"sso_user_provision alice@example.com admin",
		"sso_login_success alice@example.com admin",
		"sso_login_success alice@example.com admin",
		"sso_login_refused eve@elsewhere.test domain_not_allowed",
		"sso_login_refused  state_mismatch",
	}
	if len(got) != len(want) {
		t.Fatalf("audit %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("audit %q, want %q", got, want)
		}
	}
}

func stringOf(v any) string { s, _ := v.(string); return s }

// TestSSOLoginExpires: a login left at the provider longer than ten
// minutes is refused.
func TestSSOLoginExpires(t *testing.T) {
	s := ssoService(t)
	cb := ssoCallback(t, s, "alice")
	later := time.Now().Add(sso.LoginTTL + time.Second)
	s.now = func() time.Time { return later }
	if _, err := s.FinishSSO(adminCtx(), cb); sso.ReasonOf(err) != sso.ReasonState {
		t.Fatalf("late callback: %v", err)
	}
}

func TestSSOLogoutURL(t *testing.T) {
	s := ssoService(t)
	ctx := adminCtx()
	res, err := s.FinishSSO(ctx, ssoCallback(t, s, "alice"))
	if err != nil {
		t.Fatal(err)
	}
	next, err := s.Logout(ctx, res.Session, "10.0.0.9")
	u, perr := url.Parse(next)
	if err != nil || perr != nil || u.Query().Get("post_logout_redirect_uri") != "http://127.0.0.1:1/login" {
		t.Fatalf("logout URL %q %v", next, err)
	}
	if _, err := s.Authenticate(ctx, res.Session); apperr.KindOf(err) != apperr.Unauthenticated {
		t.Fatalf("session after logout: %v", err)
	}
	if next, err := s.Logout(ctx, res.Session, ""); next != "" || err != nil {
		t.Fatalf("second logout: %q %v", next, err)
	}
}

// TestSSONeverTakesALocalUser: a provider user named like a local one is
// refused, and the local user keeps its password and role.
func TestSSONeverTakesALocalUser(t *testing.T) {
	s := ssoService(t)
	ctx := adminCtx()
	if _, err := s.AddUser(ctx, NewUser{Username: "alice@example.com", Password: "a good long password"}); err != nil {
		t.Fatal(err)
	}
	_, err := s.FinishSSO(ctx, ssoCallback(t, s, "alice"))
	if apperr.KindOf(err) != apperr.Security || sso.ReasonOf(err) != sso.ReasonUsernameTaken {
		t.Fatalf("SSO login over a local user: %v", err)
	}
	res, err := s.Login(ctx, LoginRequest{Username: "alice@example.com", Password: "a good long password", ClientAddr: "10.0.0.1"})
	if err != nil || res.Role != model.RoleAdmin {
		t.Fatalf("the local user: %+v %v", res, err)
	}
}
