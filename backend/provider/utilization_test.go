package provider

import (
	"testing"
	"time"
)

func TestHourly(t *testing.T) {
	h0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	h := Hourly{}
	h.At("b", h0.Add(time.Hour)).CPU = 0.5
	h.At("b", h0).CPU = 0.25
	h.At("b", h0).NetworkBytes += 100
	h.At("b", h0).NetworkBytes += 50
	h.At("a", h0).CPU = 0
	h.At("a", h0.Add(2*time.Hour)).Memory = 0.75 // no CPU: dropped
	if s := h.At("c", h0); s.CPU != -1 || s.Memory != -1 || s.ResourceID != "c" || !s.Time.Equal(h0) {
		t.Errorf("new sample = %+v, want CPU and memory unknown", s)
	}
	got := h.Samples()
	want := []struct {
		id  string
		at  time.Time
		cpu float64
	}{{"a", h0, 0}, {"b", h0, 0.25}, {"b", h0.Add(time.Hour), 0.5}}
	if len(got) != len(want) {
		t.Fatalf("samples = %+v, want %d", got, len(want))
	}
	for i, w := range want {
		if got[i].ResourceID != w.id || !got[i].Time.Equal(w.at) || got[i].CPU != w.cpu {
			t.Errorf("sample %d = %+v, want %s at %v with CPU %v", i, got[i], w.id, w.at, w.cpu)
		}
	}
	if got[1].NetworkBytes != 150 || got[1].Memory != -1 {
		t.Errorf("b at %v = %+v, want 150 bytes, memory unknown", h0, got[1])
	}
}
