package service

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/store"
)

// clockService opens a service whose clock the test moves.
func clockService(t *testing.T) (*Service, *atomic.Int64) {
	t.Helper()
	var now atomic.Int64
	now.Store(testNow.UnixNano())
	cfg := config.Default()
	cfg.Dashboard.Security.SecretKey = "test-secret-key-0123456789abcdef"
	s, err := OpenWith(adminCtx(), cfg, Options{DataDir: t.TempDir(),
		Now:    func() time.Time { return time.Unix(0, now.Load()).UTC() },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &now
}

func TestAddUserValidation(t *testing.T) {
	s, _ := clockService(t)
	ctx := adminCtx()
	if _, err := s.AddUser(ctx, NewUser{Username: "alice", Password: "a good long password"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, user, pw string
		kind           apperr.Kind
	}{
		{"short password", "bob", "short", apperr.Validation},
		{"eleven characters", "bob", "elevenchars", apperr.Validation},
		{"bad username", "../bob", "a good long password", apperr.Validation},
		{"empty username", "", "a good long password", apperr.Validation},
		{"duplicate", "alice", "a good long password", apperr.Validation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.AddUser(ctx, NewUser{Username: tt.user, Password: tt.pw})
			if apperr.KindOf(err) != tt.kind {
				t.Fatalf("kind %q (%v), want %q", apperr.KindOf(err), err, tt.kind)
			}
		})
	}
	users, err := s.Users(ctx)
	if err != nil || len(users) != 1 || users[0].Username != "alice" {
		t.Fatalf("users %+v %v", users, err)
	}
}

func TestLoginLockAndSessions(t *testing.T) {
	s, now := clockService(t)
	ctx := adminCtx()
	if _, err := s.AddUser(ctx, NewUser{Username: "alice", Password: "a good long password"}); err != nil {
		t.Fatal(err)
	}
	login := func(user, pw, addr string) (LoginResult, error) {
		return s.Login(ctx, LoginRequest{Username: user, Password: pw, ClientAddr: addr})
	}
	// An unknown user and a wrong password answer alike.
	_, e1 := login("nobody", "whatever password", "10.0.0.9")
	_, e2 := login("alice", "wrong password!!", "10.0.0.9")
	if apperr.KindOf(e1) != apperr.Unauthenticated || apperr.KindOf(e2) != apperr.Unauthenticated || e1.Error() != e2.Error() {
		t.Fatalf("unknown user %v, wrong password %v", e1, e2)
	}
	res, err := login("alice", "a good long password", "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Authenticate(ctx, res.Session)
	if err != nil || p.Username != "alice" || p.Kind != PrincipalSession {
		t.Fatalf("Authenticate = %+v, %v", p, err)
	}
	// Five failures from one address lock it; the right password is then refused.
	for i := 1; i <= 5; i++ {
		if _, err := login("alice", "wrong password!!", "10.0.0.2"); apperr.KindOf(err) != apperr.Unauthenticated {
			t.Fatalf("failure %d: %v", i, err)
		}
	}
	_, err = login("alice", "a good long password", "10.0.0.3")
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.RateLimited || e.Details["retry_after"].(int) != 900 {
		t.Fatalf("locked login = %v", err)
	}
	// After the lock expires the right password works again.
	now.Add(int64(901 * time.Second))
	res2, err := login("alice", "a good long password", "10.0.0.3")
	if err != nil {
		t.Fatal(err)
	}
	// A session older than session_timeout is refused.
	now.Add(int64(3600 * time.Second))
	if _, err := s.Authenticate(ctx, res2.Session); apperr.KindOf(err) != apperr.Unauthenticated {
		t.Fatalf("expired session: %v", err)
	}
	// A tampered cookie is refused.
	if _, err := s.Authenticate(ctx, res2.Session+"x"); apperr.KindOf(err) != apperr.Unauthenticated {
		t.Fatalf("tampered cookie: %v", err)
	}
	// Changing the password ends sessions.
	res3, _ := login("alice", "a good long password", "10.0.0.3")
	if err := s.SetUserPassword(ctx, "alice", "another long password"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, res3.Session); apperr.KindOf(err) != apperr.Unauthenticated {
		t.Fatalf("session after password change: %v", err)
	}
	events, err := s.store.AuditEvents(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, e := range events {
		kinds[e.Event]++
	}
	if kinds[AuditLoginFailure] != 7 || kinds[AuditLoginSuccess] != 3 || kinds[AuditLoginLocked] != 1 || kinds[AuditUserAdd] != 1 {
		t.Fatalf("audit events %v", kinds)
	}
}

func TestTokens(t *testing.T) {
	s, _ := clockService(t)
	ctx := adminCtx()
	nt, err := s.CreateToken(ctx, TokenRequest{Name: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.AuthenticateToken(ctx, nt.Token); err != nil || p.TokenID != nt.ID {
		t.Fatalf("AuthenticateToken = %+v, %v", p, err)
	}
	if err := s.RevokeToken(ctx, nt.ID); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, token string
	}{
		{"revoked", nt.Token},
		{"unknown", "cp_unknown"},
		{"no prefix", "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.AuthenticateToken(ctx, tt.token); apperr.KindOf(err) != apperr.Unauthenticated {
				t.Fatalf("kind %q", apperr.KindOf(err))
			}
		})
	}
	if err := s.RevokeToken(ctx, 999); apperr.KindOf(err) != apperr.NotFound {
		t.Fatalf("revoke unknown: %v", err)
	}
}

// TestParallelLoginsCheckAtMostMaxPasswords: 50 wrong passwords for one
// user sent at once, through two services on one data dir (as two
// processes would be), from 50 addresses, check at most
// max_login_attempts (5) passwords in all; the rest are refused as
// locked, and so is the right password sent while the burst runs.
func TestParallelLoginsCheckAtMostMaxPasswords(t *testing.T) {
	dir := t.TempDir()
	var svcs [2]*Service
	for i := range svcs {
		cfg := config.Default()
		cfg.Dashboard.Security.SecretKey = "test-secret-key-0123456789abcdef"
		s, err := OpenWith(adminCtx(), cfg, Options{DataDir: dir,
			Now: func() time.Time { return testNow }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		svcs[i] = s
	}
	ctx := adminCtx()
	if _, err := svcs[0].AddUser(ctx, NewUser{Username: "alice", Password: "a good long password"}); err != nil {
		t.Fatal(err)
	}
	before := security.Stats().Runs
	const burst = 50
	errs := make(chan error, burst+1)
	var wg sync.WaitGroup
	for i := range burst {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := svcs[i%2].Login(ctx, LoginRequest{Username: "alice", Password: fmt.Sprintf("wrong password %d", i), ClientAddr: fmt.Sprintf("10.0.%d.%d", i/200, i%200)})
			errs <- err
		}()
	}
	// The right password goes out once the lock is in place, while the
	// burst's passwords are still being checked.
	for {
		l, err := svcs[1].store.LoginLock(ctx, store.ThrottleUser, "alice")
		if err != nil {
			t.Fatal(err)
		}
		if l.LockedUntil.After(testNow) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	_, rightErr := svcs[1].Login(ctx, LoginRequest{Username: "alice", Password: "a good long password", ClientAddr: "10.1.0.1"})
	wg.Wait()
	close(errs)
	kinds := map[apperr.Kind]int{}
	for err := range errs {
		kinds[apperr.KindOf(err)]++
	}
	runs := security.Stats().Runs - before
	if runs > 5 || kinds[apperr.Unauthenticated] > 5 || kinds[apperr.Unauthenticated]+kinds[apperr.RateLimited] != burst {
		t.Fatalf("%d passwords checked, answers %v; want at most 5 checked and the rest locked", runs, kinds)
	}
	if apperr.KindOf(rightErr) != apperr.RateLimited {
		t.Fatalf("right password during the burst: %v, want RateLimitError", rightErr)
	}
	t.Logf("%d parallel wrong logins: %d passwords checked, %v", burst, runs, kinds)
}

// TestAuditKeepsBoundedUsername: a 900 KB username is answered like any
// wrong login, and the audit log keeps at most a few hundred bytes of it.
func TestAuditKeepsBoundedUsername(t *testing.T) {
	s, _ := clockService(t)
	ctx := adminCtx()
	huge := strings.Repeat("é", 450_000)
	if _, err := s.Login(ctx, LoginRequest{Username: huge, Password: "whatever password", ClientAddr: "10.0.0.1"}); apperr.KindOf(err) != apperr.Unauthenticated {
		t.Fatalf("huge username: %v", err)
	}
	events, err := s.store.AuditEvents(ctx, 10)
	if err != nil || len(events) != 1 {
		t.Fatalf("audit %v %v", events, err)
	}
	if u := events[0].Username; len(u) > maxAuditLen || !utf8.ValidString(u) || !strings.HasPrefix(huge, strings.TrimSuffix(u, "…")) {
		t.Fatalf("audit kept %d bytes: %.80q", len(u), u)
	}
}
