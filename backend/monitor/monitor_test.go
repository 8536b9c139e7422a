package monitor

import (
	"testing"
	"time"
)

func TestCounters(t *testing.T) {
	var c Counters
	if s := c.Snapshot(); s.AverageSeconds() != 0 || s.ErrorRate() != 0 {
		t.Fatal("empty counters must give 0 rates, never NaN")
	}
	c.Record(100*time.Millisecond, false)
	c.Record(300*time.Millisecond, true)
	s := c.Snapshot()
	if s.Requests != 2 || s.ErrorRate() != 0.5 || s.AverageSeconds() < 0.199 || s.AverageSeconds() > 0.201 {
		t.Fatalf("snapshot %+v avg %v", s, s.AverageSeconds())
	}
}

func TestProcessFractions(t *testing.T) {
	p := NewProcess()
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
}
