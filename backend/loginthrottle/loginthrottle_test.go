package loginthrottle

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/store"
)

func TestPolicyFrom(t *testing.T) {
	tests := []struct {
		name string
		auth config.AuthConfig
		want Policy
	}{
		{"defaults", config.AuthConfig{}, Policy{Window: 900 * time.Second, MaxAttempts: 5}},
		{"configured", config.AuthConfig{MaxLoginAttempts: 3, LockoutSeconds: 60}, Policy{Window: time.Minute, MaxAttempts: 3}},
		{"negative means default", config.AuthConfig{MaxLoginAttempts: -1, LockoutSeconds: -1}, Policy{Window: 900 * time.Second, MaxAttempts: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PolicyFrom(tt.auth); got != tt.want {
				t.Errorf("PolicyFrom = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSubjectsFoldCaseAndBound(t *testing.T) {
	bound := func(v string) string { return v[:min(len(v), 4)] }
	got := Subjects("AdMiNistrator", "192.0.2.1", bound)
	want := []store.ThrottleSubject{{Scope: store.ThrottleUser, Subject: "admi"}, {Scope: store.ThrottleAddr, Subject: "192."}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Subjects = %+v, want %+v", got, want)
	}
}

func TestRetryAfterRoundsUpToWholeSeconds(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		until time.Time
		want  int
	}{
		{"fraction rounds up", now.Add(1500 * time.Millisecond), 2},
		{"whole", now.Add(90 * time.Second), 90},
		{"past is one", now.Add(-time.Second), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := RetryAfter(tt.until, now)
			var e *apperr.Error
			if !errors.As(err, &e) || e.Kind != apperr.RateLimited {
				t.Fatalf("RetryAfter = %v, want a RateLimited error", err)
			}
			if e.Details["retry_after"] != tt.want {
				t.Errorf("retry_after = %v, want %d", e.Details["retry_after"], tt.want)
			}
		})
	}
}

// fakeReserver records what it is asked and answers a fixed lock.
type fakeReserver struct {
	lock   store.LoginLock
	err    error
	window time.Duration
	max    int
}

func (f *fakeReserver) ReserveLoginAttempt(_ context.Context, _ []store.ThrottleSubject, _ time.Time, window time.Duration, max int) (store.LoginLock, error) {
	f.window, f.max = window, max
	return f.lock, f.err
}

func TestReserveAnswers(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	p := Policy{Window: time.Minute, MaxAttempts: 3}
	storeErr := errors.New("disk full")
	tests := []struct {
		name       string
		r          fakeReserver
		wantLocked bool
		wantKind   apperr.Kind
		wantErr    error
	}{
		{name: "free", r: fakeReserver{}},
		{name: "lock ended", r: fakeReserver{lock: store.LoginLock{LockedUntil: now}}},
		{name: "locked", r: fakeReserver{lock: store.LoginLock{LockedUntil: now.Add(time.Second)}}, wantLocked: true, wantKind: apperr.RateLimited},
		{name: "store fails", r: fakeReserver{err: storeErr}, wantErr: storeErr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			locked, err := p.Reserve(context.Background(), &tt.r, nil, now)
			if locked != tt.wantLocked {
				t.Errorf("locked = %v, want %v", locked, tt.wantLocked)
			}
			switch {
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("err = %v, want %v", err, tt.wantErr)
				}
			case tt.wantKind != "":
				if apperr.KindOf(err) != tt.wantKind {
					t.Errorf("err = %v, want kind %s", err, tt.wantKind)
				}
			case err != nil:
				t.Errorf("err = %v, want none", err)
			}
			if tt.r.window != p.Window || tt.r.max != p.MaxAttempts {
				t.Errorf("asked window %v max %d, want %v %d", tt.r.window, tt.r.max, p.Window, p.MaxAttempts)
			}
		})
	}
}

// TestReserveLocksAfterMaxAgainstTheStore runs the policy against a real
// store: MaxAttempts reservations, then a refusal for the same username in
// another case from another address, until the window ends.
func TestReserveLocksAfterMaxAgainstTheStore(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	p := Policy{Window: time.Minute, MaxAttempts: 2}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	same := func(v string) string { return v }
	for i := range p.MaxAttempts {
		if locked, err := p.Reserve(ctx, st, Subjects("alice", "192.0.2.1", same), now); locked || err != nil {
			t.Fatalf("attempt %d: locked %v err %v", i+1, locked, err)
		}
	}
	locked, err := p.Reserve(ctx, st, Subjects("ALICE", "192.0.2.99", same), now.Add(10*time.Second))
	if !locked || apperr.KindOf(err) != apperr.RateLimited {
		t.Fatalf("after %d failures: locked %v err %v, want a RateLimited refusal", p.MaxAttempts, locked, err)
	}
	var e *apperr.Error
	if errors.As(err, &e) && e.Details["retry_after"] != 50 {
		t.Errorf("retry_after = %v, want the 50 seconds left", e.Details["retry_after"])
	}
	if locked, err := p.Reserve(ctx, st, Subjects("alice", "192.0.2.1", same), now.Add(p.Window+time.Second)); locked || err != nil {
		t.Errorf("after the window: locked %v err %v, want a free attempt", locked, err)
	}
}
