package schedule

import (
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestLastAndNext(t *testing.T) {
	daily := config.Schedule{Frequency: config.Daily, Hour: 6}
	friday := config.Schedule{Frequency: config.Weekly, Weekday: "friday", Hour: 18}
	monday := config.Schedule{Frequency: config.Weekly, Weekday: "monday", Hour: 0}
	first := config.Schedule{Frequency: config.Monthly, Day: 1, Hour: 6}
	the28th := config.Schedule{Frequency: config.Monthly, Day: 28, Hour: 23}
	tests := []struct {
		name       string
		s          config.Schedule
		now        string
		last, next string
	}{
		{"daily before the hour", daily, "2026-06-10T05:59:59Z", "2026-06-09T06:00:00Z", "2026-06-10T06:00:00Z"},
		{"daily at the hour", daily, "2026-06-10T06:00:00Z", "2026-06-10T06:00:00Z", "2026-06-11T06:00:00Z"},
		{"daily across a year", daily, "2026-01-01T01:00:00Z", "2025-12-31T06:00:00Z", "2026-01-01T06:00:00Z"},
		{"weekly on the day after the hour", friday, "2026-06-12T19:00:00Z", "2026-06-12T18:00:00Z", "2026-06-19T18:00:00Z"},
		{"weekly on the day before the hour", friday, "2026-06-12T17:00:00Z", "2026-06-05T18:00:00Z", "2026-06-12T18:00:00Z"},
		{"weekly mid-week", friday, "2026-06-10T12:00:00Z", "2026-06-05T18:00:00Z", "2026-06-12T18:00:00Z"},
		{"weekly on a sunday for monday", monday, "2026-06-14T23:00:00Z", "2026-06-08T00:00:00Z", "2026-06-15T00:00:00Z"},
		{"monthly after the day", first, "2026-06-10T12:00:00Z", "2026-06-01T06:00:00Z", "2026-07-01T06:00:00Z"},
		{"monthly on the day before the hour", first, "2026-07-01T05:00:00Z", "2026-06-01T06:00:00Z", "2026-07-01T06:00:00Z"},
		{"monthly in january looks back to december", the28th, "2026-01-05T00:00:00Z", "2025-12-28T23:00:00Z", "2026-01-28T23:00:00Z"},
		{"monthly through february", the28th, "2026-02-28T23:30:00Z", "2026-02-28T23:00:00Z", "2026-03-28T23:00:00Z"},
		{"another zone is read as UTC", daily, "2026-06-10T08:30:00+02:00", "2026-06-10T06:00:00Z", "2026-06-11T06:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := at(tt.now)
			if got := Last(tt.s, now); !got.Equal(at(tt.last)) {
				t.Errorf("Last = %s, want %s", got.Format(time.RFC3339), tt.last)
			}
			if got := Next(tt.s, now); !got.Equal(at(tt.next)) {
				t.Errorf("Next = %s, want %s", got.Format(time.RFC3339), tt.next)
			}
			if l := Last(tt.s, now); l.After(now) || !Next(tt.s, now).After(now) {
				t.Errorf("Last %s and Next %s must bracket %s", l, Next(tt.s, now), now)
			}
		})
	}
	if !Last(config.Schedule{Frequency: "hourly"}, at("2026-06-10T00:00:00Z")).IsZero() {
		t.Error("an invalid frequency has no due time")
	}
}

func TestRetryAt(t *testing.T) {
	t0 := at("2026-06-10T06:00:00Z")
	want := []time.Duration{5 * time.Minute, 10 * time.Minute, 20 * time.Minute, 40 * time.Minute}
	for i, w := range want {
		if got := RetryAt(i+1, t0); got.Sub(t0) != w {
			t.Errorf("after try %d: wait %s, want %s", i+1, got.Sub(t0), w)
		}
	}
	if got := RetryAt(MaxAttempts, t0); !got.IsZero() {
		t.Errorf("after the last try: %s, want none", got)
	}
}
