package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

// throttleWindow and throttleMax are the throttle settings of these
// tests: three failures in fifteen minutes lock for fifteen minutes.
const (
	throttleWindow = 15 * time.Minute
	throttleMax    = 3
)

var throttleT0 = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

func userSubject(name string) ThrottleSubject {
	return ThrottleSubject{Scope: ThrottleUser, Subject: name}
}
func addrSubject(addr string) ThrottleSubject {
	return ThrottleSubject{Scope: ThrottleAddr, Subject: addr}
}

// throttleStep is one call of a throttle scenario: an attempt by subjects
// at an offset from throttleT0, or a successful login clearing them.
type throttleStep struct {
	at       time.Duration
	subjects []ThrottleSubject
	clear    bool
	// wantRefused: the attempt finds a lock in force and checks no
	// password.
	wantRefused bool
	// want: each named subject's state after the step (failures, and
	// the lock's end as an offset from throttleT0, 0 for none).
	want map[ThrottleSubject][2]time.Duration
}

func runThrottle(t *testing.T, s *Store, steps []throttleStep) {
	t.Helper()
	ctx := context.Background()
	for i, st := range steps {
		now := throttleT0.Add(st.at)
		if st.clear {
			for _, sub := range st.subjects {
				if err := s.ClearLoginFailures(ctx, sub.Scope, sub.Subject); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
			}
		} else {
			l, err := s.ReserveLoginAttempt(ctx, st.subjects, now, throttleWindow, throttleMax)
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if refused := l.LockedUntil.After(now); refused != st.wantRefused {
				t.Fatalf("step %d at +%s: refused %v (%+v), want %v", i, st.at, refused, l, st.wantRefused)
			}
		}
		for sub, w := range st.want {
			got, err := s.LoginLock(ctx, sub.Scope, sub.Subject)
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			wantUntil := time.Time{}
			if w[1] != 0 {
				wantUntil = throttleT0.Add(w[1])
			}
			gotUntil := got.LockedUntil
			if gotUntil.Unix() == 0 {
				gotUntil = time.Time{}
			}
			if got.Failures != int(w[0]) || !gotUntil.Equal(wantUntil) {
				t.Fatalf("step %d at +%s: %s %q is %d failures locked until %s, want %d until %s",
					i, st.at, sub.Scope, sub.Subject, got.Failures, gotUntil, w[0], wantUntil)
			}
		}
	}
}

// TestLoginThrottleCounts walks the login failure counter of one user
// and one address through counting, locking, the window's end and a
// successful login.
func TestLoginThrottleCounts(t *testing.T) {
	ann, addr := userSubject("ann"), addrSubject("192.0.2.1")
	both := []ThrottleSubject{ann, addr}
	type st = throttleStep
	type counts = map[ThrottleSubject][2]time.Duration
	tests := []struct {
		name  string
		steps []throttleStep
	}{
		{"each attempt counts once, the max-th locks for the window", []throttleStep{
			st{at: 0, subjects: both, want: counts{ann: {1, 0}, addr: {1, 0}}},
			st{at: time.Minute, subjects: both, want: counts{ann: {2, 0}, addr: {2, 0}}},
			// The third attempt may still check its password: the lock
			// takes effect after it.
			st{at: 2 * time.Minute, subjects: both, want: counts{ann: {3, 17 * time.Minute}, addr: {3, 17 * time.Minute}}},
			// Locked: refused, and the refusal counts nothing.
			st{at: 3 * time.Minute, subjects: both, wantRefused: true, want: counts{ann: {3, 17 * time.Minute}, addr: {3, 17 * time.Minute}}},
			st{at: 17*time.Minute - time.Second, subjects: both, wantRefused: true, want: counts{ann: {3, 17 * time.Minute}}},
			// The lock ends at its instant, and the run starts over.
			st{at: 17 * time.Minute, subjects: both, want: counts{ann: {1, 0}, addr: {1, 0}}},
		}},
		{"failures inside the window add up", []throttleStep{
			st{at: 0, subjects: []ThrottleSubject{ann}, want: counts{ann: {1, 0}}},
			st{at: time.Minute, subjects: []ThrottleSubject{ann}, want: counts{ann: {2, 0}}},
			st{at: throttleWindow - time.Second, subjects: []ThrottleSubject{ann}, want: counts{ann: {3, 2*throttleWindow - time.Second}}},
		}},
		{"the window is measured from the run's first failure", []throttleStep{
			st{at: 0, subjects: []ThrottleSubject{ann}, want: counts{ann: {1, 0}}},
			st{at: time.Minute, subjects: []ThrottleSubject{ann}, want: counts{ann: {2, 0}}},
			st{at: throttleWindow, subjects: []ThrottleSubject{ann}, want: counts{ann: {1, 0}}},
			st{at: throttleWindow + time.Minute, subjects: []ThrottleSubject{ann}, want: counts{ann: {2, 0}}},
		}},
		{"a lock outlives the window of its run", []throttleStep{
			st{at: 0, subjects: []ThrottleSubject{ann}},
			st{at: 10 * time.Minute, subjects: []ThrottleSubject{ann}},
			st{at: 14 * time.Minute, subjects: []ThrottleSubject{ann}, want: counts{ann: {3, 29 * time.Minute}}},
			// The run began 20 minutes ago, but the lock holds to +29m.
			st{at: 20 * time.Minute, subjects: []ThrottleSubject{ann}, wantRefused: true, want: counts{ann: {3, 29 * time.Minute}}},
		}},
		{"a successful login clears the user, not the address", []throttleStep{
			st{at: 0, subjects: both},
			st{at: time.Minute, subjects: both, want: counts{ann: {2, 0}, addr: {2, 0}}},
			st{at: time.Minute, subjects: []ThrottleSubject{ann}, clear: true, want: counts{ann: {0, 0}, addr: {2, 0}}},
			st{at: 2 * time.Minute, subjects: both, want: counts{ann: {1, 0}, addr: {3, 17 * time.Minute}}},
			// The address is locked: ann is refused from it though her
			// own count is low.
			st{at: 3 * time.Minute, subjects: both, wantRefused: true, want: counts{ann: {1, 0}}},
		}},
		{"users, addresses and scopes count apart", []throttleStep{
			st{at: 0, subjects: both},
			st{at: 0, subjects: both},
			st{at: 0, subjects: both, want: counts{ann: {3, throttleWindow}}},
			// bob from another address is not ann, nor her address.
			st{at: time.Minute, subjects: []ThrottleSubject{userSubject("bob"), addrSubject("192.0.2.2")},
				want: counts{userSubject("bob"): {1, 0}, addrSubject("192.0.2.2"): {1, 0}, ann: {3, throttleWindow}}},
			// A user named like ann's address is another subject.
			st{at: time.Minute, subjects: []ThrottleSubject{userSubject("192.0.2.1")},
				want: counts{userSubject("192.0.2.1"): {1, 0}, addr: {3, throttleWindow}}},
			st{at: time.Minute, subjects: []ThrottleSubject{userSubject("192.0.2.1")}, clear: true,
				want: counts{userSubject("192.0.2.1"): {0, 0}, addr: {3, throttleWindow}}},
			// ann from a fresh address is still refused: her user is locked.
			st{at: time.Minute, subjects: []ThrottleSubject{ann, addrSubject("192.0.2.3")}, wantRefused: true,
				want: counts{addrSubject("192.0.2.3"): {0, 0}}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runThrottle(t, openTest(t), tt.steps)
		})
	}
}

// TestLoginThrottlePrunes: stale rows go, so random usernames cannot
// grow the table; a row with a lock in force stays.
func TestLoginThrottlePrunes(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	runThrottle(t, s, []throttleStep{
		{at: 0, subjects: []ThrottleSubject{userSubject("random-1")}},
		{at: 0, subjects: []ThrottleSubject{userSubject("locked")}},
		{at: 0, subjects: []ThrottleSubject{userSubject("locked")}},
		{at: 10 * time.Minute, subjects: []ThrottleSubject{userSubject("locked")}},
		{at: 16 * time.Minute, subjects: []ThrottleSubject{userSubject("random-2")}},
	})
	var rows int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM login_failures`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 2 {
		t.Fatalf("%d rows after pruning, want 2 (the lock and random-2)", rows)
	}
	l, err := s.LoginLock(ctx, ThrottleUser, "locked")
	if err != nil || l.Failures != 3 || !l.LockedUntil.Equal(throttleT0.Add(25*time.Minute)) {
		t.Fatalf("the locked row: %+v %v", l, err)
	}
}

// TestLoginThrottleAcrossHandles races attempts on one subject from
// several stores on one database file, as processes sharing a data dir
// do: exactly max attempts get to check a password, the count never
// loses an increment, and every other attempt is refused.
func TestLoginThrottleAcrossHandles(t *testing.T) {
	ctx := context.Background()
	const handles, perHandle, max = 4, 4, 6
	stores := openShared(t, handles)
	subjects := []ThrottleSubject{userSubject("ann"), addrSubject("192.0.2.1")}
	var mu sync.Mutex
	allowed, refused := 0, 0
	var wg sync.WaitGroup
	for _, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perHandle {
				l, err := s.ReserveLoginAttempt(ctx, subjects, throttleT0, time.Hour, max)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if l.LockedUntil.After(throttleT0) {
					refused++
				} else {
					allowed++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != max || refused != handles*perHandle-max {
		t.Fatalf("%d attempts allowed, %d refused; want %d and %d", allowed, refused, max, handles*perHandle-max)
	}
	for _, sub := range subjects {
		l, err := stores[0].LoginLock(ctx, sub.Scope, sub.Subject)
		if err != nil || l.Failures != max || !l.LockedUntil.Equal(throttleT0.Add(time.Hour)) {
			t.Fatalf("%s after the race: %+v %v", sub.Subject, l, err)
		}
	}

	// Failures counted apart, from every handle, with no lock: each
	// handle's increments land.
	var wg2 sync.WaitGroup
	for i, s := range stores {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			for range 2 {
				if _, err := s.ReserveLoginAttempt(ctx, []ThrottleSubject{userSubject("shared")}, throttleT0, time.Hour, 100); err != nil {
					t.Errorf("handle %d: %v", i, err)
				}
			}
		}()
	}
	wg2.Wait()
	if l, err := stores[1].LoginLock(ctx, ThrottleUser, "shared"); err != nil || l.Failures != 2*handles {
		t.Fatalf("shared counter %+v %v, want %d failures", l, err, 2*handles)
	}
}

// openShared opens n stores on one data dir, as n processes sharing it
// do: each has its own connections to the one database file.
func openShared(t *testing.T, n int) []*Store {
	t.Helper()
	dir := t.TempDir()
	var stores []*Store
	for range n {
		s, err := Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores = append(stores, s)
	}
	return stores
}
