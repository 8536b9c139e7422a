package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

func TestUpsertSSOUser(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	local, err := s.CreateUser(ctx, "root@example.com", "hash", model.RoleAdmin, AuditEvent{Event: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if local.Role != model.RoleAdmin || local.SSOIssuer != "" {
		t.Fatalf("local user %+v: want an admin without issuer", local)
	}
	versions := func() int64 {
		v, err := s.Versions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v.Auth
	}

	alice := SSOUser{Issuer: "https://id.example.com", Subject: "sub-1", Username: "alice@example.com", Role: model.RoleViewer}
	u, created, err := s.UpsertSSOUser(ctx, alice, AuditEvent{Event: "test"})
	if err != nil || !created || u.Role != model.RoleViewer || u.PasswordHash != "" || u.SSOIssuer != alice.Issuer {
		t.Fatalf("first login: %+v created=%v err=%v", u, created, err)
	}
	before := versions()
	alice.Role, alice.Username = model.RoleEditor, "alice@corp.example.com"
	u2, created, err := s.UpsertSSOUser(ctx, alice, AuditEvent{Event: "test"})
	if err != nil || created || u2.ID != u.ID || u2.Role != model.RoleEditor || u2.Username != alice.Username {
		t.Fatalf("second login: %+v created=%v err=%v", u2, created, err)
	}
	if versions() == before {
		t.Fatal("a changed role did not move the auth version")
	}
	before = versions()
	if _, _, err := s.UpsertSSOUser(ctx, alice, AuditEvent{Event: "test"}); err != nil || versions() != before {
		t.Fatalf("an unchanged login moved the auth version (err %v)", err)
	}

	// The same subject at another issuer is another person.
	other := SSOUser{Issuer: "https://other.example.com", Subject: "sub-1", Username: "alice@other.example.com", Role: model.RoleViewer}
	if u3, created, err := s.UpsertSSOUser(ctx, other, AuditEvent{Event: "test"}); err != nil || !created || u3.ID == u.ID {
		t.Fatalf("other issuer: %+v created=%v err=%v", u3, created, err)
	}
	// A name a local user holds is never taken over.
	thief := SSOUser{Issuer: "https://id.example.com", Subject: "sub-2", Username: "root@example.com", Role: model.RoleAdmin}
	if _, _, err := s.UpsertSSOUser(ctx, thief, AuditEvent{Event: "test"}); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("taking a local user's name: %v, want ErrDuplicate", err)
	}
	got, err := s.UserByName(ctx, "root@example.com")
	if err != nil || got.ID != local.ID || got.SSOIssuer != "" || got.PasswordHash != "hash" {
		t.Fatalf("local user changed: %+v %v", got, err)
	}

	now := time.Now()
	if err := s.CreateSession(ctx, Session{IDHash: "h", UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	se, err := s.SessionByHash(ctx, "h")
	if err != nil || se.Role != model.RoleEditor || se.SSOIssuer != alice.Issuer {
		t.Fatalf("session %+v %v: want the user's role and issuer", se, err)
	}
}

func TestSSOLoginsAreUsedOnce(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	l := SSOLogin{StateHash: "state", Nonce: "n", Verifier: "v", CreatedAt: now, ExpiresAt: now.Add(10 * time.Minute)}
	if err := s.CreateSSOLogin(ctx, l, now); err != nil {
		t.Fatal(err)
	}
	old := SSOLogin{StateHash: "old", Nonce: "n", Verifier: "v", CreatedAt: now, ExpiresAt: now.Add(time.Minute)}
	if err := s.CreateSSOLogin(ctx, old, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TakeSSOLogin(ctx, "old", now.Add(2*time.Minute)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired login: %v, want ErrNotFound", err)
	}
	got, err := s.TakeSSOLogin(ctx, "state", now.Add(time.Minute))
	if err != nil || got.Nonce != "n" || got.Verifier != "v" || !got.ExpiresAt.Equal(l.ExpiresAt) {
		t.Fatalf("take: %+v %v", got, err)
	}
	if _, err := s.TakeSSOLogin(ctx, "state", now.Add(time.Minute)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second take: %v, want ErrNotFound", err)
	}
	// A later login prunes the expired ones.
	if err := s.CreateSSOLogin(ctx, SSOLogin{StateHash: "x", Nonce: "n", Verifier: "v", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}, now.Add(20*time.Minute)); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sso_logins`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d logins left (%v), want 1", n, err)
	}
}

// TestMigrateUsersToRoles opens a data dir of schema 6 holding a user and
// checks that the user became an admin, as every user was before roles.
func TestMigrateUsersToRoles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"0001_init.sql", "0002_auth.sql", "0003_import_files.sql", "0004_history_engine.sql", "0005_versions.sql", "0006_drop_secrets.sql"} {
		body, err := migrations.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := db.Exec(`INSERT INTO users(username, password_hash, created_at, updated_at) VALUES ('old', 'h', 'x', 'x'); PRAGMA user_version = 6`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u, err := s.UserByName(ctx, "old")
	if err != nil || u.Role != model.RoleAdmin || u.SSOIssuer != "" || u.PasswordHash != "h" {
		t.Fatalf("migrated user %+v %v", u, err)
	}
}
