package period

import (
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func day(s string) model.DayNum {
	d, ok := model.ParseDayNum(s)
	if !ok {
		panic(s)
	}
	return d
}

func TestResolve(t *testing.T) {
	now := time.Date(2026, 3, 16, 14, 30, 0, 0, time.UTC) // a Monday
	tests := []struct {
		name               string
		spec               Spec
		from, to           string
		prevFrom, prevTo   string
		label              string
		cut                bool
		sameLengthPrevious bool
	}{
		{"7 days end yesterday", Spec{Kind: model.PeriodDays, Days: 7}, "2026-03-09", "2026-03-15", "2026-03-02", "2026-03-08", "Last 7 days", false, true},
		{"30 days is the default kind", Spec{Days: 30}, "2026-02-14", "2026-03-15", "2026-01-15", "2026-02-13", "Last 30 days", false, true},
		{"month to date against the same days", Spec{Kind: model.PeriodMonthToDate}, "2026-03-01", "2026-03-15", "2026-02-01", "2026-02-15", "Month to date", false, true},
		{"last month against the month before", Spec{Kind: model.PeriodLastMonth}, "2026-02-01", "2026-02-28", "2026-01-01", "2026-01-31", "February 2026", false, false},
		{"quarter to date", Spec{Kind: model.PeriodQuarterToDate}, "2026-01-01", "2026-03-15", "2025-10-01", "2025-12-13", "Quarter to date", false, true},
		{"last quarter", Spec{Kind: model.PeriodLastQuarter}, "2025-10-01", "2025-12-31", "2025-07-01", "2025-09-30", "Q4 2025", false, false},
		{"year to date", Spec{Kind: model.PeriodYearToDate}, "2026-01-01", "2026-03-15", "2025-01-01", "2025-03-15", "Year to date", false, true},
		{"last 12 months", Spec{Kind: model.PeriodLast12Months}, "2025-03-01", "2026-02-28", "2024-03-01", "2025-02-28", "Last 12 months", false, false},
		{"custom", Spec{Kind: model.PeriodCustom, Start: "2026-01-10", End: "2026-01-19"}, "2026-01-10", "2026-01-19", "2025-12-31", "2026-01-09", "2026-01-10 to 2026-01-19", false, true},
		{"custom ending in the future is cut at today", Spec{Kind: model.PeriodCustom, Start: "2026-03-10", End: "2026-04-30"}, "2026-03-10", "2026-03-16", "2026-03-03", "2026-03-09", "2026-03-10 to 2026-03-16", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Resolve(now, tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if r.Current != (Span{day(tt.from), day(tt.to)}) || r.Info.Start != tt.from || r.Info.End != tt.to {
				t.Errorf("current %s..%s, want %s..%s", r.Current.From, r.Current.To, tt.from, tt.to)
			}
			if r.Previous != (Span{day(tt.prevFrom), day(tt.prevTo)}) {
				t.Errorf("previous %s..%s, want %s..%s", r.Previous.From, r.Previous.To, tt.prevFrom, tt.prevTo)
			}
			if tt.sameLengthPrevious && r.Previous.Days() != r.Current.Days() {
				t.Errorf("previous has %d days, current %d", r.Previous.Days(), r.Current.Days())
			}
			if r.Previous.To+1 > r.Current.From {
				t.Errorf("previous %s..%s overlaps the current period", r.Previous.From, r.Previous.To)
			}
			if r.Info.Label != tt.label || r.Info.Cut != tt.cut || r.Info.Granularity != model.GranularityDay {
				t.Errorf("info %+v", r.Info)
			}
		})
	}
}

// TestToDateOnFirstDays: on a unit's first day the period is that day, and
// the previous span is cut at the end of a shorter unit.
func TestToDateEdges(t *testing.T) {
	r, err := Resolve(time.Date(2026, 4, 1, 8, 0, 0, 0, time.UTC), Spec{Kind: model.PeriodMonthToDate})
	if err != nil || r.Current != (Span{day("2026-04-01"), day("2026-04-01")}) || r.Previous != (Span{day("2026-03-01"), day("2026-03-01")}) {
		t.Fatalf("mtd on the 1st: %+v %v", r, err)
	}
	r, err = Resolve(time.Date(2026, 3, 31, 8, 0, 0, 0, time.UTC), Spec{Kind: model.PeriodMonthToDate})
	if err != nil || r.Current.Days() != 30 || r.Previous != (Span{day("2026-02-01"), day("2026-02-28")}) {
		t.Fatalf("mtd on the 31st: %+v %v", r, err)
	}
	r, err = Resolve(time.Date(2026, 1, 15, 8, 0, 0, 0, time.UTC), Spec{Kind: model.PeriodLastMonth})
	if err != nil || r.Current != (Span{day("2025-12-01"), day("2025-12-31")}) || r.Previous != (Span{day("2025-11-01"), day("2025-11-30")}) {
		t.Fatalf("last month in January: %+v %v", r, err)
	}
}

func TestResolveRefuses(t *testing.T) {
	now := time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC)
	for _, s := range []Spec{
		{Days: 0}, {Days: 366}, {Kind: "fortnight"}, {Days: 7, Granularity: "hour"},
		{Kind: model.PeriodCustom, Start: "2026-03-17", End: "2026-03-20"},
		{Kind: model.PeriodCustom, Start: "2026-02-10", End: "2026-02-01"},
		{Kind: model.PeriodCustom, Start: "2020-01-01", End: "2026-01-01"},
		{Kind: model.PeriodCustom, Start: "yesterday", End: "2026-01-01"},
	} {
		if _, err := Resolve(now, s); apperr.KindOf(err) != apperr.Validation {
			t.Errorf("%+v: %v, want a ValidationError", s, err)
		}
	}
}

func TestBucket(t *testing.T) {
	tests := []struct {
		g        model.Granularity
		day, out string
	}{
		{model.GranularityDay, "2026-03-18", "2026-03-18"},
		{model.GranularityWeek, "2026-03-18", "2026-03-16"}, // Wednesday → Monday
		{model.GranularityWeek, "2026-03-16", "2026-03-16"},
		{model.GranularityWeek, "2026-03-22", "2026-03-16"}, // Sunday ends the week
		{model.GranularityMonth, "2026-03-18", "2026-03-01"},
	}
	for _, tt := range tests {
		if got := Bucket(tt.g, day(tt.day)); got != day(tt.out) {
			t.Errorf("Bucket(%s, %s) = %s, want %s", tt.g, tt.day, got, tt.out)
		}
	}
}

func TestPartial(t *testing.T) {
	span := Span{day("2026-01-15"), day("2026-03-10")}
	tests := []struct {
		name    string
		g       model.Granularity
		bucket  string
		days    int
		partial bool
	}{
		{"first month cut", model.GranularityMonth, "2026-01-01", 17, true},
		{"whole month", model.GranularityMonth, "2026-02-01", 28, false},
		{"last month cut", model.GranularityMonth, "2026-03-01", 10, true},
		{"week cut at the start", model.GranularityWeek, "2026-01-12", 4, true},
		{"whole week", model.GranularityWeek, "2026-01-19", 7, false},
		{"a day is whole", model.GranularityDay, "2026-02-01", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, partial := Partial(tt.g, day(tt.bucket), span)
			if n != tt.days || partial != tt.partial {
				t.Errorf("Partial = %d, %v; want %d, %v", n, partial, tt.days, tt.partial)
			}
		})
	}
}
