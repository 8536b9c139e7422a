package sso

import (
	"context"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/store"
	"github.com/costpilot/costpilot/internal/testop"
)

// memLogins keeps logins in flight and provisioned users in memory, as
// the store does: a login is taken once and expires; a user is keyed by
// issuer and subject, and a name held by another is refused.
type memLogins struct {
	pending  map[string]store.SSOLogin
	users    map[string]store.User // by issuer + subject
	taken    map[string]bool       // usernames held by someone else
	disabled map[string]bool
	audits   []store.AuditEvent
}

func newMemLogins() *memLogins {
	return &memLogins{pending: map[string]store.SSOLogin{}, users: map[string]store.User{}, taken: map[string]bool{}, disabled: map[string]bool{}}
}

func (m *memLogins) CreateSSOLogin(_ context.Context, l store.SSOLogin, _ time.Time) error {
	m.pending[l.StateHash] = l
	return nil
}

func (m *memLogins) TakeSSOLogin(_ context.Context, h string, now time.Time) (store.SSOLogin, error) {
	l, ok := m.pending[h]
	delete(m.pending, h)
	if !ok || !now.Before(l.ExpiresAt) {
		return store.SSOLogin{}, store.ErrNotFound
	}
	return l, nil
}

func (m *memLogins) UpsertSSOUser(_ context.Context, su store.SSOUser, ev store.AuditEvent) (store.User, bool, error) {
	if m.taken[su.Username] {
		return store.User{}, false, store.ErrDuplicate
	}
	m.audits = append(m.audits, ev)
	k := su.Issuer + "\x00" + su.Subject
	u, ok := m.users[k]
	u.Username, u.Role, u.SSOIssuer, u.Disabled = su.Username, su.Role, su.Issuer, m.disabled[su.Username]
	m.users[k] = u
	return u, !ok, nil
}

type finishSetup struct {
	c      *Client
	logins *memLogins
	keys   *security.Keys
	now    time.Time
}

func newFinish(t *testing.T) finishSetup {
	t.Helper()
	op := startOP(t)
	keys, err := security.NewKeys("test-secret-key-0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	return finishSetup{c: newClient(op.URL, "costpilot", "s1"), logins: newMemLogins(), keys: keys, now: time.Now()}
}

// callback starts a login, logs user in at the provider and returns what
// the browser brings back.
func (f finishSetup) callback(t *testing.T, user string) Callback {
	t.Helper()
	ctx := context.Background()
	st, err := f.c.Start(ctx, f.logins, f.keys, f.now)
	if err != nil {
		t.Fatal(err)
	}
	if st.MaxAge != int(LoginTTL.Seconds()) || st.Binding == "" {
		t.Fatalf("Start = %+v", st)
	}
	back, err := testop.Login(ctx, st.URL, user, password)
	if err != nil {
		t.Fatal(err)
	}
	q := back.Query()
	return Callback{State: q.Get("state"), Code: q.Get("code"), Binding: st.Binding}
}

func (f finishSetup) finish(cb Callback, at time.Time) (Provisioned, string, error) {
	return f.c.Finish(context.Background(), f.logins, f.keys, cb, at, func(who string, d map[string]any) store.AuditEvent {
		return store.AuditEvent{Event: "provision", Username: who, Details: d}
	})
}

func TestFinishProvisionsTheUser(t *testing.T) {
	f := newFinish(t)
	p, who, err := f.finish(f.callback(t, "alice"), f.now)
	if err != nil {
		t.Fatal(err)
	}
	if who != "alice@example.com" || p.User.Username != who || p.Role != model.RoleAdmin || !p.Created || p.Identity.Issuer == "" {
		t.Fatalf("first login: who %q, %+v", who, p)
	}
	if len(f.logins.audits) != 1 || f.logins.audits[0].Username != who || f.logins.audits[0].Details["role"] != string(model.RoleAdmin) {
		t.Errorf("provision audit = %+v", f.logins.audits)
	}
	p, _, err = f.finish(f.callback(t, "alice"), f.now)
	if err != nil || p.Created {
		t.Errorf("second login: %+v, %v; want the same user, not created", p, err)
	}
}

func TestFinishRefusals(t *testing.T) {
	tests := []struct {
		name    string
		user    string
		change  func(f finishSetup, cb *Callback) time.Time // returns when the callback arrives
		kind    apperr.Kind
		reason  string
		wantWho bool
	}{
		{name: "no binding cookie", user: "alice", change: func(f finishSetup, cb *Callback) time.Time { cb.Binding = ""; return f.now },
			kind: apperr.Security, reason: ReasonState},
		{name: "forged binding", user: "alice", change: func(f finishSetup, cb *Callback) time.Time { cb.Binding += "x"; return f.now },
			kind: apperr.Security, reason: ReasonState},
		{name: "another browser's state", user: "alice", change: func(f finishSetup, cb *Callback) time.Time { cb.State = "other"; return f.now },
			kind: apperr.Security, reason: ReasonState},
		{name: "expired", user: "alice", change: func(f finishSetup, cb *Callback) time.Time { return f.now.Add(LoginTTL) },
			kind: apperr.Security, reason: ReasonState},
		{name: "provider refused", user: "alice", change: func(f finishSetup, cb *Callback) time.Time {
			cb.Code, cb.Error, cb.ErrorDescription = "", "access_denied", "the user\ncancelled"
			return f.now
		}, kind: apperr.Unauthenticated, reason: ReasonProviderError},
		{name: "no code", user: "alice", change: func(f finishSetup, cb *Callback) time.Time { cb.Code = ""; return f.now },
			kind: apperr.Validation},
		{name: "domain not allowed", user: "eve", change: func(f finishSetup, _ *Callback) time.Time { return f.now },
			kind: apperr.Security, reason: ReasonDomain, wantWho: true},
		{name: "name held by a local user", user: "alice", change: func(f finishSetup, _ *Callback) time.Time {
			f.logins.taken["alice@example.com"] = true
			return f.now
		}, kind: apperr.Security, reason: ReasonUsernameTaken, wantWho: true},
		{name: "disabled here", user: "alice", change: func(f finishSetup, _ *Callback) time.Time {
			f.logins.disabled["alice@example.com"] = true
			return f.now
		}, kind: apperr.Security, reason: ReasonUserDisabled, wantWho: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFinish(t)
			cb := f.callback(t, tt.user)
			at := tt.change(f, &cb)
			_, who, err := f.finish(cb, at)
			if apperr.KindOf(err) != tt.kind || ReasonOf(err) != tt.reason {
				t.Fatalf("err = %v (reason %q), want kind %s reason %q", err, ReasonOf(err), tt.kind, tt.reason)
			}
			if (who != "") != tt.wantWho {
				t.Errorf("who = %q, want it known: %v", who, tt.wantWho)
			}
			if len(f.logins.pending) != 0 && tt.reason != ReasonState {
				t.Error("the pending login was not taken")
			}
		})
	}
}

func TestFinishTakesAStateOnce(t *testing.T) {
	f := newFinish(t)
	cb := f.callback(t, "alice")
	if _, _, err := f.finish(cb, f.now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.finish(cb, f.now); ReasonOf(err) != ReasonState {
		t.Fatalf("replayed callback: %v, want reason %s", err, ReasonState)
	}
}

func TestProviderErrorIsBoundedAndOnOneLine(t *testing.T) {
	long := make([]rune, 300)
	for i := range long {
		long[i] = 'é'
	}
	got := providerError("access_denied", "line one\nline\ttwo "+string(long))
	if got[:len("access_denied (line one line two ")] != "access_denied (line one line two " {
		t.Errorf("providerError = %q", got)
	}
	if n := len([]rune(got)); n != len([]rune("access_denied ("))+200+len([]rune("…)")) {
		t.Errorf("providerError has %d characters, want the description cut at 200", n)
	}
	if providerError("denied", "") != "denied" {
		t.Error("no description: the code alone")
	}
}
