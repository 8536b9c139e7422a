// Package period is the one place the analysis periods are defined: what
// "last 30 days", "month to date" or a custom range cover, the span each is
// compared with, and the buckets of a series. The API, the CLI, the UI
// (through the API's answer) and reports all resolve periods here.
package period

import (
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// MaxDays bounds a rolling period.
const MaxDays = 365

// maxSpan bounds a custom range: three years.
const maxSpan = 3 * 366

// Spec is a period as asked for.
type Spec struct {
	Kind        model.PeriodKind
	Days        int    // kind days
	Start, End  string // kind custom: inclusive days, YYYY-MM-DD
	Granularity model.Granularity
}

// Span is an inclusive range of days.
type Span struct {
	From, To model.DayNum
}

// Days is the number of days of the span.
func (s Span) Days() int { return int(s.To-s.From) + 1 }

// Resolved is a period resolved against a day: its span, the span it is
// compared with, and how to describe it.
type Resolved struct {
	Info     model.PeriodInfo
	Current  Span
	Previous Span
}

// Resolve resolves s on the UTC day of now. Rolling and to-date periods
// end with yesterday, the last complete day: no source has all of today's
// costs yet, and comparing a partial day with a whole one shows a fall
// that is not there. A custom range ending after today is cut at today.
// The previous span has the same number of days, or is the same calendar
// unit before (the month before last month; for to-date periods the same
// days of the unit before, as far as that unit has them).
func Resolve(now time.Time, s Spec) (Resolved, error) {
	today := model.DayOf(now)
	yesterday := today - 1
	if s.Granularity == "" {
		s.Granularity = model.GranularityDay
	}
	if err := apperr.OneOf("granularity", s.Granularity, model.Granularities); err != nil {
		return Resolved{}, err
	}
	if s.Kind == "" {
		s.Kind = model.PeriodDays
	}
	if err := apperr.OneOf("period", s.Kind, model.PeriodKinds); err != nil {
		return Resolved{}, err
	}
	r := Resolved{Info: model.PeriodInfo{Kind: s.Kind, Granularity: s.Granularity}}
	y, m, _ := now.UTC().Date()
	month := func(y int, m time.Month) Span {
		first := model.DayOf(time.Date(y, m, 1, 0, 0, 0, 0, time.UTC))
		return Span{first, model.DayOf(time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)) - 1}
	}
	qm := m - (m-1)%3 // first month of this quarter
	switch s.Kind {
	case model.PeriodDays:
		if s.Days < 1 || s.Days > MaxDays {
			return Resolved{}, apperr.E(apperr.Validation, "days must be an integer from 1 to %d, got %d", MaxDays, s.Days).WithDetail("field", "days")
		}
		r.Info.Days = s.Days
		r.Info.Label = fmt.Sprintf("Last %d days", s.Days)
		r.Current = Span{yesterday - model.DayNum(s.Days) + 1, yesterday}
		r.Previous = shift(r.Current)
	case model.PeriodMonthToDate:
		r.Info.Label = "Month to date"
		r.Current, r.Previous = toDate(month(y, m).From, month(y, m-1), yesterday)
	case model.PeriodQuarterToDate:
		r.Info.Label = "Quarter to date"
		r.Current, r.Previous = toDate(month(y, qm).From, span(month(y, qm-3), month(y, qm-1)), yesterday)
	case model.PeriodYearToDate:
		r.Info.Label = "Year to date"
		r.Current, r.Previous = toDate(month(y, 1).From, span(month(y-1, 1), month(y-1, 12)), yesterday)
	case model.PeriodLastMonth:
		r.Current, r.Previous = month(y, m-1), month(y, m-2)
		r.Info.Label = r.Current.From.Time().Format("January 2006")
	case model.PeriodLastQuarter:
		r.Current, r.Previous = span(month(y, qm-3), month(y, qm-1)), span(month(y, qm-6), month(y, qm-4))
		t := r.Current.From.Time()
		r.Info.Label = fmt.Sprintf("Q%d %d", (int(t.Month())+2)/3, t.Year())
	case model.PeriodLast12Months:
		r.Info.Label = "Last 12 months"
		r.Current, r.Previous = span(month(y, m-12), month(y, m-1)), span(month(y, m-24), month(y, m-13))
	case model.PeriodCustom:
		if err := custom(&r, s, today); err != nil {
			return Resolved{}, err
		}
	}
	r.Info.Start, r.Info.End = r.Current.From.String(), r.Current.To.String()
	return r, nil
}

// custom resolves an inclusive start..end range.
func custom(r *Resolved, s Spec, today model.DayNum) error {
	a, ok := model.ParseDayNum(s.Start)
	if !ok {
		return apperr.E(apperr.Validation, "start must be a date YYYY-MM-DD, got %q", s.Start).WithDetail("field", "start")
	}
	b, ok := model.ParseDayNum(s.End)
	if !ok {
		return apperr.E(apperr.Validation, "end must be a date YYYY-MM-DD, got %q", s.End).WithDetail("field", "end")
	}
	if b < a {
		return apperr.E(apperr.Validation, "end %s is before start %s", s.End, s.Start).WithDetail("field", "end")
	}
	if a > today {
		return apperr.E(apperr.Validation, "start %s is after today (%s): there are no costs yet", s.Start, today).WithDetail("field", "start")
	}
	if b > today {
		r.Info.Cut, r.Info.RequestedEnd = true, s.End
		b = today
	}
	if b-a > maxSpan {
		return apperr.E(apperr.Validation, "the period may span at most three years").WithDetail("field", "end")
	}
	r.Current = Span{a, b}
	r.Previous = shift(r.Current)
	r.Info.Label = fmt.Sprintf("%s to %s", a, b)
	return nil
}

// shift is the span of the same length just before s.
func shift(s Span) Span { return Span{s.From - model.DayNum(s.Days()), s.From - 1} }

// span joins the first and last months of a calendar unit.
func span(first, last Span) Span { return Span{first.From, last.To} }

// toDate is a to-date period starting at from and ending yesterday (on the
// unit's first day, that day alone), and the same days of the unit before,
// cut at that unit's end.
func toDate(from model.DayNum, before Span, yesterday model.DayNum) (Span, Span) {
	cur := Span{from, max(from, yesterday)}
	prev := Span{before.From, min(before.To, before.From+model.DayNum(cur.Days())-1)}
	return cur, prev
}

// Bucket is the first day of the bucket of day d at granularity g.
func Bucket(g model.Granularity, d model.DayNum) model.DayNum {
	switch g {
	case model.GranularityWeek:
		wd := (int(d.Time().Weekday()) + 6) % 7 // Monday is 0
		return d - model.DayNum(wd)
	case model.GranularityMonth:
		return d.Month().First()
	}
	return d
}

// BucketEnd is the last day of the bucket of day d at granularity g.
func BucketEnd(g model.Granularity, d model.DayNum) model.DayNum {
	switch g {
	case model.GranularityWeek:
		return Bucket(g, d) + 6
	case model.GranularityMonth:
		t := Bucket(g, d).Time()
		return model.DayOf(time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)) - 1
	}
	return d
}

// Partial is how many days of the bucket starting at b (granularity g)
// lie in span s, and whether that is fewer than the bucket has.
func Partial(g model.Granularity, b model.DayNum, s Span) (int, bool) {
	end := BucketEnd(g, b)
	in := int(min(end, s.To)-max(b, s.From)) + 1
	return max(in, 0), in < int(end-b)+1
}
