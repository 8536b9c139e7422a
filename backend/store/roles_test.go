package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// TestLastEnabledAdmin: no deletion, demotion or disabling leaves the
// users without an enabled admin; the same changes pass once another
// admin exists.
func TestLastEnabledAdmin(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	now := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	root, err := s.CreateUser(ctx, "root", "hash", model.RoleAdmin, AuditEvent{Event: "test"})
	if err != nil {
		t.Fatal(err)
	}
	viewer, err := s.CreateUser(ctx, "val", "hash", model.RoleViewer, AuditEvent{Event: "test"})
	if err != nil {
		t.Fatal(err)
	}
	refused := []struct {
		name string
		fn   func() error
	}{
		{"delete", func() error { return s.DeleteUser(ctx, root.ID, AuditEvent{Event: "test"}) }},
		{"demote", func() error { return s.SetUserRole(ctx, root.ID, model.RoleEditor, AuditEvent{Event: "test"}) }},
		{"disable", func() error { return s.SetUserDisabled(ctx, root.ID, true, now, AuditEvent{Event: "test"}) }},
	}
	for _, tt := range refused {
		if err := tt.fn(); !errors.Is(err, ErrLastAdmin) {
			t.Fatalf("%s the last admin: %v, want ErrLastAdmin", tt.name, err)
		}
	}
	if u, err := s.UserByName(ctx, "root"); err != nil || u.Role != model.RoleAdmin || u.Disabled {
		t.Fatalf("a refused change was kept: %+v %v", u, err)
	}
	if err := s.DeleteUser(ctx, viewer.ID, AuditEvent{Event: "test"}); err != nil {
		t.Fatalf("delete a viewer: %v", err)
	}
	if err := s.SetUserRole(ctx, 9999, model.RoleViewer, AuditEvent{Event: "test"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown user: %v", err)
	}
	second, err := s.CreateUser(ctx, "second", "hash", model.RoleAdmin, AuditEvent{Event: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetUserDisabled(ctx, root.ID, true, now, AuditEvent{Event: "test"}); err != nil {
		t.Fatalf("disable one of two admins: %v", err)
	}
	if err := s.SetUserRole(ctx, second.ID, model.RoleViewer, AuditEvent{Event: "test"}); !errors.Is(err, ErrLastAdmin) {
		t.Fatalf("demote the only enabled admin: %v", err)
	}
}

// TestDisableEndsSessionsAndCapsTokens: disabling ends the sessions and
// shows on the creator of tokens; deleting the creator revokes them.
func TestDisableEndsSessionsAndCapsTokens(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	now := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	if _, err := s.CreateUser(ctx, "root", "hash", model.RoleAdmin, AuditEvent{Event: "test"}); err != nil {
		t.Fatal(err)
	}
	ed, err := s.CreateUser(ctx, "ed", "hash", model.RoleEditor, AuditEvent{Event: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateSession(ctx, Session{IDHash: "h", UserID: ed.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	tok, err := s.CreateToken(ctx, NewAPIToken{Name: "ci", Hash: "th", Role: model.RoleViewer, CreatorID: ed.ID, CreatedBy: "ed"}, now, AuditEvent{Event: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetUserDisabled(ctx, ed.ID, true, now, AuditEvent{Event: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionByHash(ctx, "h"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("session of a disabled user: %v", err)
	}
	got, err := s.TokenByHash(ctx, "th")
	if err != nil || got.Creator == nil || got.Creator.ID != ed.ID || !got.Creator.Disabled || got.Creator.Role != model.RoleEditor ||
		got.Role != model.RoleViewer || got.CreatedBy != "ed" {
		t.Fatalf("token of a disabled creator: %+v %+v %v", got, got.Creator, err)
	}
	if err := s.DeleteUser(ctx, ed.ID, AuditEvent{Event: "test"}); err != nil {
		t.Fatal(err)
	}
	got, err = s.TokenByHash(ctx, "th")
	if err != nil || got.RevokedAt == "" || got.Creator != nil || got.CreatedBy != "ed" {
		t.Fatalf("token of a deleted creator: %+v %v", got, err)
	}
	if got.ID != tok.ID {
		t.Fatalf("token id %d, want %d", got.ID, tok.ID)
	}
}
