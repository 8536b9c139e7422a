// Package lifecycle is the rules of a recommendation's lifecycle: which
// decisions may be made (dismiss with a reason, snooze up to a year, done,
// reopen), the state a stored decision gives a recommendation (a snooze
// that has run out is open again), which done and dismissed
// recommendations stay listed after they stop being generated, finding
// one by an id prefix, and the savings a done one realized. It works on
// the store's rows and plain values; the service reads and writes them.
package lifecycle

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/aicost"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

const (
	// MaxReasonRunes bounds a decision's reason.
	MaxReasonRunes = 500
	// MaxSnoozeDays is how far ahead a snooze may end.
	MaxSnoozeDays = 366
	// RealizedDays is how many days before and after a recommendation was
	// done are compared.
	RealizedDays = 30
	// MinIDPrefix is the shortest id prefix that names a recommendation.
	MinIDPrefix = 8
)

// Check checks a decision (state, reason, until) against today's date
// (YYYY-MM-DD).
func Check(state, reason, until, today string) error {
	if err := apperr.OneOf("state", model.RecState(state), model.RecStates); err != nil {
		return err
	}
	if utf8.RuneCountInString(reason) > MaxReasonRunes {
		return apperr.E(apperr.Validation, "reason is longer than %d characters", MaxReasonRunes).WithDetail("field", "reason")
	}
	switch model.RecState(state) {
	case model.RecDismissed:
		if reason == "" {
			return apperr.E(apperr.Validation, "dismissing a recommendation needs a reason").WithDetail("field", "reason")
		}
	case model.RecSnoozed:
		d, err := time.Parse(model.DateLayout, until)
		if err != nil {
			return apperr.E(apperr.Validation, "until must be a day (YYYY-MM-DD) after today").WithDetail("field", "until")
		}
		t, _ := time.Parse(model.DateLayout, today)
		if !d.After(t) || d.After(t.AddDate(0, 0, MaxSnoozeDays)) {
			return apperr.E(apperr.Validation, "until must be after today and within a year").WithDetail("field", "until")
		}
	}
	if until != "" && model.RecState(state) != model.RecSnoozed {
		return apperr.E(apperr.Validation, "until is only for snoozed").WithDetail("field", "until")
	}
	return nil
}

// Of is a recommendation's lifecycle from its stored state (byID); a
// snooze that has run out before today is open again.
func Of(byID map[string]store.RecState, id, today string) *model.Lifecycle {
	st, ok := byID[id]
	if !ok || (st.State == string(model.RecSnoozed) && st.Until < today) {
		return &model.Lifecycle{State: model.RecOpen}
	}
	return &model.Lifecycle{State: model.RecState(st.State), Reason: st.Reason, Until: st.Until, By: st.ChangedBy, At: st.ChangedAt}
}

// Merge is every generated recommendation with its lifecycle (Current),
// then the done and dismissed ones no longer generated, read back from the
// finding stored with their state. A stored finding that cannot be read
// is passed to skipped and left out.
func Merge(gen []model.Recommendation, states []store.RecState, today string, skipped func(id string, err error)) []model.Recommendation {
	byID := map[string]store.RecState{}
	for _, st := range states {
		byID[st.ID] = st
	}
	out := make([]model.Recommendation, 0, len(gen))
	seen := map[string]bool{}
	for _, r := range gen {
		r.Lifecycle = Of(byID, r.ID, today)
		r.Lifecycle.Current = true
		seen[r.ID] = true
		out = append(out, r)
	}
	for _, st := range states {
		if seen[st.ID] || (st.State != string(model.RecDone) && st.State != string(model.RecDismissed)) {
			continue
		}
		var r model.Recommendation
		if err := json.Unmarshal([]byte(st.Finding), &r); err != nil {
			skipped(st.ID, err)
			continue
		}
		if r.Source == "" { // stored before recommendations named theirs
			r.Source = model.RecSourceCostpilot
		}
		r.Lifecycle = Of(byID, st.ID, today)
		out = append(out, r)
	}
	return out
}

// Find finds a recommendation by its id or a unique prefix of it of at
// least MinIDPrefix characters (the CLI's table shows the first 8). clip
// shortens the id quoted back in the NotFound error.
func Find(all []model.Recommendation, id string, clip func(string) string) (int, error) {
	if i := slices.IndexFunc(all, func(r model.Recommendation) bool { return r.ID == id }); i >= 0 {
		return i, nil
	}
	found := -1
	if len(id) >= MinIDPrefix {
		for i, r := range all {
			if strings.HasPrefix(r.ID, id) {
				if found >= 0 {
					return -1, apperr.E(apperr.Validation, "%q names more than one recommendation: give more of its id", id).WithDetail("field", "id")
				}
				found = i
			}
		}
	}
	if found < 0 {
		return -1, apperr.E(apperr.NotFound, "no recommendation %q", clip(id)).WithDetail("field", "id")
	}
	return found, nil
}

// Lines is which cost lines a recommendation's savings show in: its
// resource's, or for a commitment its provider's compute; nil (every line
// of the provider) for tag coverage, one item per provider.
func Lines(r model.Recommendation) func(model.CostLine) bool {
	id := r.ResourceID
	switch r.Type {
	case model.RecCommitment:
		return func(l model.CostLine) bool { return l.ServiceCategory == "Compute" }
	case model.RecCostAllocation:
		return nil
	case model.RecAIModel:
		// The model's token lines in its project: the bill has no resource.
		m, _ := r.Details["model"].(string)
		project, _ := r.Details["project"].(string)
		return func(l model.CostLine) bool {
			u, ok := aicost.Classify(aicost.Line{Provider: l.Provider, Service: l.Service, Usage: l.Usage, Unit: l.Unit})
			return ok && u.Model == m && l.SubAccount == project
		}
	}
	return func(l model.CostLine) bool { return l.ResourceID == id }
}

// Window is the days a done recommendation's realized savings compare:
// RealizedDays before the day it was done with the days since, up to
// RealizedDays, through the last complete day.
type Window struct {
	Done     string       // the day it was done, YYYY-MM-DD
	Last     model.DayNum // the last complete day
	After    int          // days since done, at most RealizedDays; 0 or less: none yet
	From, To string       // the span of history to read
}

// WindowOf is the window of a recommendation done at `at` (RFC 3339),
// with yesterday the last complete day; false when at is not a time.
func WindowOf(at, yesterday string) (Window, bool) {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return Window{}, false
	}
	done := t.UTC().Format(model.DateLayout)
	doneDay, _ := model.ParseDayNum(done)
	last, _ := model.ParseDayNum(yesterday)
	return Window{Done: done, Last: last, After: min(int(last-doneDay)+1, RealizedDays),
		From: (doneDay - RealizedDays).String(), To: (doneDay + RealizedDays - 1).String()}, true
}

// Realized compares the daily cost before the day a recommendation was
// done with the days since, from the daily sums of its window, converted
// by convert to currency.
func (w Window) Realized(days []store.DaySum, convert func(model.Nanos, string) float64, currency string) *model.RealizedSavings {
	var before, since float64
	for _, d := range days {
		v := convert(d.Amount, d.Currency)
		switch {
		case d.Day < w.Done:
			before += v
		case w.After > 0 && d.Day <= w.Last.String():
			since += v
		}
	}
	rs := &model.RealizedSavings{DoneOn: w.Done, DaysBefore: RealizedDays, DaysAfter: max(w.After, 0), Currency: currency,
		DailyBefore: before / RealizedDays}
	if w.After > 0 {
		rs.DailyAfter = since / float64(w.After)
		rs.Monthly = (rs.DailyBefore - rs.DailyAfter) * model.DaysPerMonth
	}
	return rs
}
