package store

import (
	"context"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestVersionsMoveWithTheirWrites checks which writes move which counter:
// history and inventory writes the history version; ending a session,
// revoking a token, changing a password or deleting a user the auth
// version; creating things and touching a token neither. A second Store
// on the same file (as another process would open it) sees every change.
func TestVersionsMoveWithTheirWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	last, err := other.Versions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stepAll := func(what string, dHistory, dAuth, dDecisions int64, fn func() error) {
		t.Helper()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		v, err := other.Versions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v.History-last.History != dHistory || v.Auth-last.Auth != dAuth || v.Decisions-last.Decisions != dDecisions {
			t.Fatalf("%s: versions went %+v -> %+v, want history +%d, auth +%d, decisions +%d", what, last, v, dHistory, dAuth, dDecisions)
		}
		last = v
	}
	step := func(what string, dHistory, dAuth int64, fn func() error) {
		t.Helper()
		stepAll(what, dHistory, dAuth, 0, fn)
	}
	now := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-01-01", To: "2026-01-01",
		Lines: []model.CostLine{line("2026-01-01", "111", "EC2", "i-1", "1", nil)}}
	step("replace history", 1, 0, func() error { return s.ReplaceHistory(ctx, b) })
	step("replace inventory", 1, 0, func() error {
		return s.ReplaceInventory(ctx, model.SourceExport, model.Inventory{Provider: model.AWS})
	})
	step("delete history", 1, 0, func() error { return s.DeleteHistory(ctx, model.AWS, model.SourceExport) })
	step("bump", 1, 0, func() error { return s.BumpHistoryVersion(ctx) })
	var u User
	step("create admin", 0, 0, func() error {
		_, err := s.CreateUser(ctx, "root", "hash", model.RoleAdmin, AuditEvent{Event: "test"})
		return err
	})
	step("create user", 0, 0, func() (err error) {
		u, err = s.CreateUser(ctx, "alice", "hash", model.RoleAdmin, AuditEvent{Event: "test"})
		return
	})
	se := Session{IDHash: "h1", UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	step("create session", 0, 0, func() error { return s.CreateSession(ctx, se) })
	step("end session", 0, 1, func() error { return s.DeleteSession(ctx, "h1") })
	var tok APIToken
	step("create token", 0, 0, func() (err error) {
		tok, err = s.CreateToken(ctx, NewAPIToken{Name: "ci", Hash: "th", Role: model.RoleViewer, CreatorID: u.ID}, now, AuditEvent{Event: "test"})
		return
	})
	step("touch token", 0, 0, func() error { return s.TouchToken(ctx, tok.ID, now) })
	step("revoke token", 0, 1, func() error { return s.RevokeToken(ctx, tok.ID, now, AuditEvent{Event: "test"}) })
	step("set password", 0, 1, func() error { return s.SetPassword(ctx, u.ID, "hash2", AuditEvent{Event: "test"}) })
	step("change role", 0, 1, func() error { return s.SetUserRole(ctx, u.ID, model.RoleEditor, AuditEvent{Event: "test"}) })
	step("same role", 0, 0, func() error { return s.SetUserRole(ctx, u.ID, model.RoleEditor, AuditEvent{Event: "test"}) })
	step("disable", 0, 1, func() error { return s.SetUserDisabled(ctx, u.ID, true, now, AuditEvent{Event: "test"}) })
	step("disable again", 0, 0, func() error { return s.SetUserDisabled(ctx, u.ID, true, now, AuditEvent{Event: "test"}) })
	step("enable", 0, 1, func() error { return s.SetUserDisabled(ctx, u.ID, false, now, AuditEvent{Event: "test"}) })
	step("delete user", 0, 1, func() error { return s.DeleteUser(ctx, u.ID, AuditEvent{Event: "test"}) })
	// What people decide moves the decisions counter alone: results
	// computed from the history stay valid.
	stepAll("dismiss recommendation", 0, 0, 1, func() error {
		return s.SetRecState(ctx, RecState{ID: "r1", State: "dismissed", Reason: "no", Provider: "aws", Type: "idle", Finding: "{}"}, AuditEvent{Event: "test"})
	})
	stepAll("reopen recommendation", 0, 0, 1, func() error {
		return s.SetRecState(ctx, RecState{ID: "r1", State: "open"}, AuditEvent{Event: "test"})
	})
	stepAll("decide anomaly", 0, 0, 1, func() error {
		return s.DecideAnomaly(ctx, AnomalyDecision{ID: "a1", Action: "expected", Provider: "aws"}, AuditEvent{Event: "test"})
	})
	var bid int64
	stepAll("save budget", 0, 0, 1, func() (err error) {
		bid, err = s.SaveBudget(ctx, StoredBudget{Budget: config.Budget{Name: "b", Amount: 10, Period: "monthly"}}, AuditEvent{Event: "test", Details: map[string]any{}})
		return
	})
	stepAll("delete budget", 0, 0, 1, func() error { return s.DeleteBudget(ctx, bid, AuditEvent{Event: "test"}) })
}

// BenchmarkVersionsUnchanged is the dashboard's per-request read of the
// versions while nothing is committed: the WAL-index header check alone.
func BenchmarkVersionsUnchanged(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Versions(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
