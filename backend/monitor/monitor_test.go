package monitor

import (
	"errors"
	"testing"
	"time"
)

func TestCounters(t *testing.T) {
	var c Counters
	if s := c.Snapshot(); s != (Snapshot{}) {
		t.Fatalf("empty counters %+v", s)
	}
	now := time.Now()
	c.RecordAt(now, 100*time.Millisecond, false)
	c.RecordAt(now, 300*time.Millisecond, true)
	if s := c.Snapshot(); s.Requests != 2 || s.Errors != 1 || s.Total != 400*time.Millisecond {
		t.Fatalf("snapshot %+v", s)
	}
}

func TestCountersFlushPerDay(t *testing.T) {
	var c Counters
	d1 := time.Date(2026, 6, 9, 23, 59, 0, 0, time.UTC)
	d2 := d1.Add(2 * time.Minute) // the next UTC day
	c.RecordAt(d1, 100*time.Millisecond, false)
	c.RecordAt(d1, 200*time.Millisecond, true)
	c.RecordAt(d2, 50*time.Millisecond, false)
	hits, misses := int64(7), int64(3)
	cache := func() (int64, int64) { return hits, misses }

	// A failing write keeps everything for the next flush.
	boom := errors.New("disk full")
	if err := c.Flush(d2, cache, func([]DayCounts) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("flush error %v", err)
	}
	var got []DayCounts
	if err := c.Flush(d2, cache, func(d []DayCounts) error { got = d; return nil }); err != nil {
		t.Fatal(err)
	}
	want := []DayCounts{
		{Day: "2026-06-09", Requests: 2, Errors: 1, Total: 300 * time.Millisecond},
		{Day: "2026-06-10", Requests: 1, Total: 50 * time.Millisecond, CacheHits: 7, CacheMisses: 3},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("flushed %+v, want %+v", got, want)
	}
	// Nothing new: nothing written. Then only the growth is flushed.
	called := false
	if err := c.Flush(d2, cache, func([]DayCounts) error { called = true; return nil }); err != nil || called {
		t.Fatalf("empty flush wrote: %v", err)
	}
	hits += 5
	c.RecordAt(d2, time.Second, false)
	err := c.View(cache, func(u DayCounts) error {
		if u.Requests != 1 || u.CacheHits != 5 || u.CacheMisses != 0 {
			t.Fatalf("unflushed %+v", u)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(d2, cache, func(d []DayCounts) error { got = d; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Requests != 1 || got[0].CacheHits != 5 || got[0].Total != time.Second {
		t.Fatalf("second flush %+v", got)
	}
	// Since-start counters are untouched by flushing.
	if s := c.Snapshot(); s.Requests != 4 {
		t.Fatalf("since start %+v", s)
	}
}

func TestStartFlushIfDue(t *testing.T) {
	var c Counters
	t0 := time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC)
	if c.StartFlushIfDue(t0, time.Minute) {
		t.Fatal("the first request only starts the clock")
	}
	if c.StartFlushIfDue(t0.Add(30*time.Second), time.Minute) {
		t.Fatal("not due yet")
	}
	if !c.StartFlushIfDue(t0.Add(61*time.Second), time.Minute) {
		t.Fatal("due")
	}
	if c.StartFlushIfDue(t0.Add(200*time.Second), time.Minute) {
		t.Fatal("one flush at a time")
	}
	c.FlushDone()
	if !c.StartFlushIfDue(t0.Add(200*time.Second), time.Minute) {
		t.Fatal("due again after the running flush ended")
	}
}

func TestProcessFractions(t *testing.T) {
	p := NewProcess()
	// Right after start the interval is too short: the lifetime figure is
	// used, still a fraction.
	if f := p.CPU(); f < 0 || f > 1 {
		t.Fatalf("lifetime cpu fraction %v", f)
	}
	deadline := time.Now().Add(120 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++ // burn CPU so the sample is above zero
	}
	cpu := p.CPU()
	if cpu <= 0 || cpu > 1 {
		t.Fatalf("cpu fraction %v (x=%d)", cpu, x)
	}
	if m := p.Memory(); m <= 0 || m >= 1 {
		t.Fatalf("memory fraction %v", m)
	}
	if p.Uptime() < 100*time.Millisecond {
		t.Fatalf("uptime %v", p.Uptime())
	}
}
