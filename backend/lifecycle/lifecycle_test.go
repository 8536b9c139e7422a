package lifecycle

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

func TestCheck(t *testing.T) {
	const today = "2026-06-10"
	tests := []struct {
		name                 string
		state, reason, until string
		ok                   bool
	}{
		{name: "done", state: "done", ok: true},
		{name: "dismissed with a reason", state: "dismissed", reason: "needed for month end", ok: true},
		{name: "snoozed a week", state: "snoozed", until: "2026-06-17", ok: true},
		{name: "snoozed a year", state: "snoozed", until: "2027-06-10", ok: true},
		{name: "reopened", state: "open", ok: true},
		{name: "unknown state", state: "deleted"},
		{name: "dismissed without a reason", state: "dismissed"},
		{name: "snoozed until today", state: "snoozed", until: today},
		{name: "snoozed past a year", state: "snoozed", until: "2027-06-12"},
		{name: "snoozed without a day", state: "snoozed", until: "next week"},
		{name: "until without snooze", state: "done", until: "2026-06-17"},
		{name: "long reason", state: "dismissed", reason: string(make([]rune, MaxReasonRunes+1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.state, tt.reason, tt.until, today)
			if tt.ok != (err == nil) {
				t.Fatalf("Check = %v, want ok %v", err, tt.ok)
			}
			if err != nil && apperr.KindOf(err) != apperr.Validation {
				t.Errorf("kind = %s, want Validation", apperr.KindOf(err))
			}
		})
	}
}

func TestOfReopensARunOutSnooze(t *testing.T) {
	byID := map[string]store.RecState{
		"a": {ID: "a", State: "snoozed", Until: "2026-06-09", ChangedBy: "ann"},
		"b": {ID: "b", State: "snoozed", Until: "2026-06-10", ChangedBy: "bob"},
		"c": {ID: "c", State: "dismissed", Reason: "kept", ChangedBy: "cy", ChangedAt: "2026-06-01T10:00:00Z"},
	}
	tests := []struct {
		id    string
		state model.RecState
		by    string
	}{
		{"a", model.RecOpen, ""},
		{"b", model.RecSnoozed, "bob"}, // hidden through its last day
		{"c", model.RecDismissed, "cy"},
		{"unknown", model.RecOpen, ""},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			lc := Of(byID, tt.id, "2026-06-10")
			if lc.State != tt.state || lc.By != tt.by {
				t.Errorf("Of = %+v, want state %s by %q", lc, tt.state, tt.by)
			}
		})
	}
}

func TestMergeKeepsDoneAndDismissedNoLongerGenerated(t *testing.T) {
	finding := func(r model.Recommendation) string {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gen := []model.Recommendation{{ID: "live", ResourceID: "i-1", Source: model.RecSourceCostpilot}}
	states := []store.RecState{
		{ID: "live", State: "snoozed", Until: "2026-07-01"},
		{ID: "gone-done", State: "done", Finding: finding(model.Recommendation{ID: "gone-done", ResourceID: "i-2"})},
		{ID: "gone-dismissed", State: "dismissed", Reason: "x", Finding: finding(model.Recommendation{ID: "gone-dismissed", Source: model.RecSourceAWSHub})},
		{ID: "gone-snoozed", State: "snoozed", Until: "2026-07-01", Finding: finding(model.Recommendation{ID: "gone-snoozed"})},
		{ID: "broken", State: "done", Finding: "{"},
	}
	var skipped []string
	out := Merge(gen, states, "2026-06-10", func(id string, err error) { skipped = append(skipped, id) })
	if len(out) != 3 {
		t.Fatalf("Merge gave %d recommendations, want 3: %+v", len(out), out)
	}
	if out[0].ID != "live" || !out[0].Lifecycle.Current || out[0].Lifecycle.State != model.RecSnoozed {
		t.Errorf("generated = %+v %+v", out[0], out[0].Lifecycle)
	}
	if out[1].ID != "gone-done" || out[1].Lifecycle.Current || out[1].Lifecycle.State != model.RecDone || out[1].Source != model.RecSourceCostpilot {
		t.Errorf("done, no longer generated = %+v %+v (an old finding without a source is costpilot's)", out[1], out[1].Lifecycle)
	}
	if out[2].ID != "gone-dismissed" || out[2].Source != model.RecSourceAWSHub {
		t.Errorf("dismissed = %+v", out[2])
	}
	if len(skipped) != 1 || skipped[0] != "broken" {
		t.Errorf("skipped = %v, want the unreadable finding", skipped)
	}
}

func TestFind(t *testing.T) {
	all := []model.Recommendation{{ID: "abcdef0123456789"}, {ID: "abcdef01ffff"}, {ID: "12345678aaaa"}}
	clip := func(v string) string { return v }
	tests := []struct {
		name string
		id   string
		want int
		kind apperr.Kind
	}{
		{name: "exact", id: "abcdef01ffff", want: 1},
		{name: "unique prefix", id: "12345678", want: 2},
		{name: "ambiguous prefix", id: "abcdef01", want: -1, kind: apperr.Validation},
		{name: "prefix too short", id: "1234567", want: -1, kind: apperr.NotFound},
		{name: "unknown", id: "zzzzzzzzzz", want: -1, kind: apperr.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i, err := Find(all, tt.id, clip)
			if tt.kind == "" && err != nil || tt.kind != "" && apperr.KindOf(err) != tt.kind || i != tt.want {
				t.Errorf("Find = %d, %v; want %d, kind %q", i, err, tt.want, tt.kind)
			}
		})
	}
}

func TestLines(t *testing.T) {
	vm := model.CostLine{ResourceID: "i-1", ServiceCategory: "Compute"}
	other := model.CostLine{ResourceID: "i-2", ServiceCategory: "Compute"}
	storage := model.CostLine{ResourceID: "vol-1", ServiceCategory: "Storage"}
	if f := Lines(model.Recommendation{Type: model.RecIdle, ResourceID: "i-1"}); !f(vm) || f(other) {
		t.Error("a resource's recommendation reads only its resource's lines")
	}
	if f := Lines(model.Recommendation{Type: model.RecCommitment}); !f(vm) || !f(other) || f(storage) {
		t.Error("a commitment reads the provider's compute")
	}
	if Lines(model.Recommendation{Type: model.RecCostAllocation}) != nil {
		t.Error("tag coverage reads the provider's whole history")
	}
}

func TestRealized(t *testing.T) {
	convert := func(n model.Nanos, _ string) float64 { return float64(n) / 1e9 }
	sums := func(w Window, before, after float64) []store.DaySum {
		var out []store.DaySum
		from, _ := model.ParseDayNum(w.From)
		to, _ := model.ParseDayNum(w.To)
		for d := from; d <= to; d++ {
			v := before
			if d.String() >= w.Done {
				v = after
			}
			out = append(out, store.DaySum{Sum: store.Sum{Currency: "USD", Amount: model.Nanos(v * 1e9)}, Day: d.String()})
		}
		return out
	}
	if _, ok := WindowOf("not a time", "2026-06-20"); ok {
		t.Error("a window from no time")
	}
	// Done on the 10th, yesterday the 20th: 11 days since.
	w, ok := WindowOf("2026-06-10T15:00:00+02:00", "2026-06-20")
	if !ok || w.Done != "2026-06-10" || w.After != 11 || w.From != "2026-05-11" || w.To != "2026-07-09" {
		t.Fatalf("WindowOf = %+v", w)
	}
	rs := w.Realized(sums(w, 10, 4), convert, "USD")
	if rs.DailyBefore != 10 || rs.DailyAfter != 4 || rs.DaysAfter != 11 || math.Abs(rs.Monthly-6*model.DaysPerMonth) > 1e-9 {
		t.Errorf("Realized = %+v, want 10 a day before, 4 since", rs)
	}
	// Done today: nothing to compare yet.
	w, _ = WindowOf("2026-06-21T09:00:00Z", "2026-06-20")
	if rs := w.Realized(sums(w, 10, 4), convert, "USD"); rs.DaysAfter != 0 || rs.DailyAfter != 0 || rs.Monthly != 0 || rs.DailyBefore != 10 {
		t.Errorf("done today: %+v", rs)
	}
	// Long done: at most RealizedDays after.
	w, _ = WindowOf("2026-01-01T00:00:00Z", "2026-06-20")
	if w.After != RealizedDays {
		t.Errorf("After = %d, want %d", w.After, RealizedDays)
	}
}
