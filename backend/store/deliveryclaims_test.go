package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

var claimDue = time.Date(2026, 6, 1, 6, 0, 0, 0, time.UTC)

// claimStep is one call of a delivery scenario, at an offset from
// claimDue, on the occurrence due claimDue plus dueDays days and on
// channel (email unless named).
type claimStep struct {
	op      string // claim, send, finish, or check (read the stored row)
	at      time.Duration
	dueDays int
	channel string
	sendErr string        // finish: the failure, "" for delivered
	retryAt time.Duration // finish: when to try again, 0 for never
	// claim: whether the caller owns the delivery; claim and check: its
	// state and attempts.
	wantOK       bool
	wantState    string
	wantAttempts int
}

// claimOpts are the scenarios' claim options: a claim goes stale after
// fifteen minutes, a delivery is tried at most three times.
func claimOpts(now time.Time) ClaimOptions {
	return ClaimOptions{Now: now, StaleAfter: 15 * time.Minute, MaxAttempts: 3}
}

func runClaims(t *testing.T, s *Store, steps []claimStep) {
	t.Helper()
	ctx := context.Background()
	ids := map[string]int64{} // the last claimed delivery by occurrence and channel
	for i, st := range steps {
		ch := st.channel
		if ch == "" {
			ch = ChannelEmail
		}
		due := claimDue.AddDate(0, 0, st.dueDays)
		key := due.String() + ch
		now := claimDue.Add(st.at)
		switch st.op {
		case "claim":
			d, ok, err := s.ClaimDelivery(ctx, "daily", due, ch, claimOpts(now))
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if ok != st.wantOK || d.State != st.wantState || d.Attempts != st.wantAttempts {
				t.Fatalf("step %d: claim %s at +%s: owned %v, %s after %d attempts; want %v, %s after %d",
					i, ch, st.at, ok, d.State, d.Attempts, st.wantOK, st.wantState, st.wantAttempts)
			}
			if ok {
				ids[key] = d.ID
			}
		case "send":
			if err := s.StartSending(ctx, ids[key], now, "ann@example.com", "r.pdf", "May 2026"); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		case "finish":
			var next time.Time
			if st.retryAt != 0 {
				next = claimDue.Add(st.retryAt)
			}
			if err := s.FinishDelivery(ctx, ids[key], now, st.sendErr, next); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		case "check":
			d := storedDelivery(t, s, due, ch)
			if d.State != st.wantState || d.Attempts != st.wantAttempts {
				t.Fatalf("step %d: stored %s delivery %s after %d attempts, want %s after %d",
					i, ch, d.State, d.Attempts, st.wantState, st.wantAttempts)
			}
		default:
			t.Fatalf("step %d: no op %q", i, st.op)
		}
	}
}

// storedDelivery reads the delivery of the daily schedule due on channel.
func storedDelivery(t *testing.T, s *Store, due time.Time, channel string) Delivery {
	t.Helper()
	list, err := s.Deliveries(context.Background(), "daily", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range list {
		if d.DueAt == stamp(due) && d.Channel == channel {
			return d
		}
	}
	t.Fatalf("no %s delivery due %s in %+v", channel, stamp(due), list)
	return Delivery{}
}

// TestDeliveryClaimLifecycle walks deliveries through claims, stale
// claims, failures, retries and their limit.
func TestDeliveryClaimLifecycle(t *testing.T) {
	claim := func(at time.Duration, ok bool, state string, attempts int) claimStep {
		return claimStep{op: "claim", at: at, wantOK: ok, wantState: state, wantAttempts: attempts}
	}
	fail := func(at, retryAt time.Duration) claimStep {
		return claimStep{op: "finish", at: at, sendErr: "connection refused", retryAt: retryAt}
	}
	tests := []struct {
		name  string
		steps []claimStep
	}{
		{"a claim is held until it goes stale, then taken over as another attempt", []claimStep{
			claim(time.Minute, true, DeliveryClaimed, 1),
			claim(2*time.Minute, false, DeliveryClaimed, 1),
			claim(16*time.Minute-time.Second, false, DeliveryClaimed, 1),
			claim(16*time.Minute, true, DeliveryClaimed, 2),
			claim(17*time.Minute, false, DeliveryClaimed, 2),
		}},
		{"a failure with a retry time is claimed again from that time", []claimStep{
			claim(0, true, DeliveryClaimed, 1),
			fail(time.Minute, 10*time.Minute),
			claim(10*time.Minute-time.Second, false, DeliveryFailed, 1),
			claim(10*time.Minute, true, DeliveryClaimed, 2),
			claim(11*time.Minute, false, DeliveryClaimed, 2),
		}},
		{"a failure with no retry time is never claimed again", []claimStep{
			claim(0, true, DeliveryClaimed, 1),
			fail(time.Minute, 0),
			claim(48*time.Hour, false, DeliveryFailed, 1),
		}},
		{"a delivered report is never claimed again, however old its claim", []claimStep{
			claim(0, true, DeliveryClaimed, 1),
			{op: "send", at: time.Minute},
			{op: "finish", at: 2 * time.Minute},
			claim(48*time.Hour, false, DeliveryDelivered, 1),
		}},
		{"retries stop at the last attempt", []claimStep{
			claim(0, true, DeliveryClaimed, 1),
			fail(time.Minute, 2*time.Minute),
			claim(2*time.Minute, true, DeliveryClaimed, 2),
			fail(3*time.Minute, 4*time.Minute),
			claim(4*time.Minute, true, DeliveryClaimed, 3),
			fail(5*time.Minute, 6*time.Minute),
			claim(time.Hour, false, DeliveryFailed, 3),
		}},
		{"a stale claim at the last attempt is not taken over", []claimStep{
			claim(0, true, DeliveryClaimed, 1),
			claim(20*time.Minute, true, DeliveryClaimed, 2),
			claim(40*time.Minute, true, DeliveryClaimed, 3),
			claim(time.Hour, false, DeliveryClaimed, 3),
		}},
		{"a sender that stopped while sending leaves it unknown, never sent again", []claimStep{
			claim(0, true, DeliveryClaimed, 1),
			{op: "send", at: time.Minute},
			claim(10*time.Minute, false, DeliverySending, 1),
			claim(16*time.Minute, false, DeliveryUnknown, 1),
			claim(48*time.Hour, false, DeliveryUnknown, 1),
		}},
		{"channels and occurrences are claimed and finished apart", []claimStep{
			claim(0, true, DeliveryClaimed, 1),
			{op: "claim", at: 0, channel: ChannelWebhook, wantOK: true, wantState: DeliveryClaimed, wantAttempts: 1},
			{op: "claim", at: 0, dueDays: 1, wantOK: true, wantState: DeliveryClaimed, wantAttempts: 1},
			// Taking over the email claim leaves the others alone.
			claim(20*time.Minute, true, DeliveryClaimed, 2),
			{op: "check", channel: ChannelWebhook, wantState: DeliveryClaimed, wantAttempts: 1},
			{op: "check", dueDays: 1, wantState: DeliveryClaimed, wantAttempts: 1},
			// So does finishing it.
			fail(21*time.Minute, 0),
			{op: "check", channel: ChannelWebhook, wantState: DeliveryClaimed, wantAttempts: 1},
			{op: "check", dueDays: 1, wantState: DeliveryClaimed, wantAttempts: 1},
			{op: "check", wantState: DeliveryFailed, wantAttempts: 2},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runClaims(t, openTest(t), tt.steps)
		})
	}
}

// TestDeliveryClaimRetryBookkeeping: a claim taken over records its time
// and count; the outcome records when it finished, why it failed and
// when it is tried again; delivering clears the failure.
func TestDeliveryClaimRetryBookkeeping(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	t0 := claimDue.Add(time.Minute)
	d, ok, err := s.ClaimDelivery(ctx, "daily", claimDue, ChannelEmail, claimOpts(t0))
	if err != nil || !ok || d.ClaimedAt != stamp(t0) || d.DueAt != stamp(claimDue) || d.Schedule != "daily" {
		t.Fatalf("claim %+v %v %v", d, ok, err)
	}
	if err := s.FinishDelivery(ctx, d.ID, t0.Add(time.Minute), "connection refused", t0.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	got := storedDelivery(t, s, claimDue, ChannelEmail)
	if got.State != DeliveryFailed || got.Error != "connection refused" || got.FinishedAt != stamp(t0.Add(time.Minute)) ||
		got.NextAttemptAt != stamp(t0.Add(10*time.Minute)) {
		t.Fatalf("after the failure %+v", got)
	}
	retry, ok, err := s.ClaimDelivery(ctx, "daily", claimDue, ChannelEmail, claimOpts(t0.Add(10*time.Minute)))
	if err != nil || !ok || retry.ID != d.ID || retry.Attempts != 2 || retry.ClaimedAt != stamp(t0.Add(10*time.Minute)) {
		t.Fatalf("retry %+v %v %v", retry, ok, err)
	}
	if err := s.StartSending(ctx, retry.ID, t0.Add(11*time.Minute), "ann@example.com", "r.pdf", "May 2026"); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishDelivery(ctx, retry.ID, t0.Add(12*time.Minute), "", time.Time{}); err != nil {
		t.Fatal(err)
	}
	got = storedDelivery(t, s, claimDue, ChannelEmail)
	if got.State != DeliveryDelivered || got.Error != "" || got.NextAttemptAt != "" || got.Attempts != 2 ||
		got.Recipients != "ann@example.com" || got.Report != "r.pdf" || got.Period != "May 2026" ||
		got.FinishedAt != stamp(t0.Add(12*time.Minute)) {
		t.Fatalf("after delivery %+v", got)
	}
}

// raceClaims has every store claim the daily email due claimDue at now
// at once, and returns the deliveries their winners got.
func raceClaims(t *testing.T, stores []*Store, now time.Time) []Delivery {
	t.Helper()
	var mu sync.Mutex
	var won []Delivery
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			d, ok, err := s.ClaimDelivery(context.Background(), "daily", claimDue, ChannelEmail, claimOpts(now))
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				won = append(won, d)
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	return won
}

// TestDeliveryClaimRaces: stores on one data dir (processes sharing it)
// claim one due delivery at once, take over its stale claim at once and
// retry its failure at once; each time exactly one owns it.
func TestDeliveryClaimRaces(t *testing.T) {
	ctx := context.Background()
	stores := openShared(t, 3)
	steps := []struct {
		name         string
		at           time.Duration
		wantAttempts int
		then         func(Delivery)
	}{
		{"the first claim", time.Minute, 1, nil},
		{"a fresh claim", 2 * time.Minute, 0, nil},
		{"the stale claim", 16 * time.Minute, 2, func(d Delivery) {
			if err := stores[0].FinishDelivery(ctx, d.ID, claimDue.Add(17*time.Minute), "timeout", claimDue.Add(30*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}},
		{"before the retry time", 29 * time.Minute, 0, nil},
		{"the retry", 30 * time.Minute, 3, nil},
		{"past the last attempt", 2 * time.Hour, 0, nil},
	}
	for _, st := range steps {
		won := raceClaims(t, stores, claimDue.Add(st.at))
		want := 0
		if st.wantAttempts > 0 {
			want = 1
		}
		if len(won) != want {
			t.Fatalf("%s: %d owners %+v, want %d", st.name, len(won), won, want)
		}
		if want == 1 && won[0].Attempts != st.wantAttempts {
			t.Fatalf("%s: attempt %d, want %d", st.name, won[0].Attempts, st.wantAttempts)
		}
		if st.then != nil {
			st.then(won[0])
		}
	}
	if list, err := stores[2].Deliveries(ctx, "daily", 10); err != nil || len(list) != 1 {
		t.Fatalf("deliveries %+v %v, want one row", list, err)
	}
}
