package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
)

func TestReportSchedulesCRUD(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	sc := config.Schedule{Name: "m", Frequency: config.Monthly, Day: 1, Hour: 6, Type: "summary", Format: "pdf", Period: "last_month",
		Recipients: []string{"a@example.com"}, Webhook: true}
	id, err := s.SaveReportSchedule(ctx, StoredSchedule{Schedule: sc, ChangedBy: "ann", ChangedAt: "2026-06-10T12:00:00Z"}, AuditEvent{Event: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveReportSchedule(ctx, StoredSchedule{Schedule: sc}, AuditEvent{Event: "x"}); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a second schedule named m: %v", err)
	}
	sc.Recipients = []string{"b@example.com", "c@example.com"}
	if _, err := s.SaveReportSchedule(ctx, StoredSchedule{ID: id, Schedule: sc}, AuditEvent{Event: "x"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReportSchedules(ctx)
	if err != nil || len(got) != 1 || got[0].ID != id || len(got[0].Schedule.Recipients) != 2 || !got[0].Schedule.Webhook || got[0].Schedule.Day != 1 {
		t.Fatalf("schedules %+v %v", got, err)
	}
	if _, err := s.SaveReportSchedule(ctx, StoredSchedule{ID: id + 1, Schedule: sc}, AuditEvent{Event: "x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("update of a missing schedule: %v", err)
	}
	if err := s.DeleteReportSchedule(ctx, id, AuditEvent{Event: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteReportSchedule(ctx, id, AuditEvent{Event: "x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func TestClaimDelivery(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	due := time.Date(2026, 6, 1, 6, 0, 0, 0, time.UTC)
	t0 := due.Add(time.Minute)
	opt := func(now time.Time) ClaimOptions {
		return ClaimOptions{Now: now, StaleAfter: 15 * time.Minute, MaxAttempts: 3}
	}
	claim := func(now time.Time) (Delivery, bool) {
		t.Helper()
		d, ok, err := s.ClaimDelivery(ctx, "m", due, ChannelEmail, opt(now))
		if err != nil {
			t.Fatal(err)
		}
		return d, ok
	}
	d, ok := claim(t0)
	if !ok || d.Attempts != 1 || d.State != DeliveryClaimed {
		t.Fatalf("first claim %+v %v", d, ok)
	}
	if _, ok := claim(t0.Add(time.Minute)); ok {
		t.Fatal("a fresh claim was taken over")
	}
	// The sender stopped while making the report: the claim goes stale
	// and is taken over, as a second attempt.
	if d, ok = claim(t0.Add(20 * time.Minute)); !ok || d.Attempts != 2 {
		t.Fatalf("stale claim %+v %v", d, ok)
	}
	t1 := t0.Add(21 * time.Minute)
	if err := s.FinishDelivery(ctx, d.ID, t1, "connection refused", t1.Add(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, ok := claim(t1.Add(time.Minute)); ok {
		t.Fatal("claimed before the retry time")
	}
	if d, ok = claim(t1.Add(5 * time.Minute)); !ok || d.Attempts != 3 {
		t.Fatalf("retry %+v %v", d, ok)
	}
	if err := s.FinishDelivery(ctx, d.ID, t1.Add(6*time.Minute), "still refused", t1.Add(20*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if d, ok = claim(t1.Add(time.Hour)); ok || d.State != DeliveryFailed || d.Error != "still refused" {
		t.Fatalf("claimed past the last attempt: %+v", d)
	}

	// Sending, then the sender stops: never sent again, shown as unknown.
	d, ok, err := s.ClaimDelivery(ctx, "m", due, ChannelWebhook, opt(t0))
	if err != nil || !ok {
		t.Fatal(err, ok)
	}
	if err := s.StartSending(ctx, d.ID, t0, "https://hooks.example.com", "r.pdf", "May 2026"); err != nil {
		t.Fatal(err)
	}
	d, ok, err = s.ClaimDelivery(ctx, "m", due, ChannelWebhook, opt(t0.Add(time.Hour)))
	if err != nil || ok || d.State != DeliveryUnknown || d.Error == "" {
		t.Fatalf("stale sending: %+v %v %v", d, ok, err)
	}
	list, err := s.Deliveries(ctx, "m", 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("deliveries %+v %v", list, err)
	}
}

// TestClaimDeliveryAcrossProcesses races stores on one data dir, as
// costpilot processes sharing it do: exactly one claims each delivery.
func TestClaimDeliveryAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var stores []*Store
	for range 4 {
		s, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores = append(stores, s)
	}
	now := time.Date(2026, 6, 1, 6, 1, 0, 0, time.UTC)
	for occ := range 10 {
		due := time.Date(2026, 6, 1, 6, 0, 0, 0, time.UTC).AddDate(0, 0, -occ)
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for _, s := range stores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, ok, err := s.ClaimDelivery(ctx, "daily", due, ChannelEmail, ClaimOptions{Now: now, StaleAfter: time.Minute, MaxAttempts: 5})
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("occurrence %d claimed %d times", occ, wins)
		}
	}
}
