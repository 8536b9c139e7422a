// Package providertest holds what the connector tests share: assertions,
// the failure, cancellation and live-run checks, and the fake servers'
// request recording. It is for tests only; the product never imports it.
package providertest

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/commitments"
	"github.com/costpilot/costpilot/backend/model"
)

// AssertFailure checks err is a ProviderError of provider k with reason
// want, and that its message contains none of the secrets.
func AssertFailure(t testing.TB, err error, k model.ProviderKey, want model.ProviderFailure, secrets ...string) {
	t.Helper()
	if apperr.KindOf(err) != apperr.Provider {
		t.Fatalf("kind = %q (%v), want ProviderError", apperr.KindOf(err), err)
	}
	e, _ := apperr.As(err)
	if e.Provider != string(k) {
		t.Errorf("provider = %q", e.Provider)
	}
	if got := e.Details[model.FailureDetail]; got != want {
		t.Errorf("reason = %v, want %v (%v)", got, want, err)
	}
	for _, s := range secrets {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error leaks a secret (%q): %v", s, err)
		}
	}
}

// CommitmentReport runs a batch's commitment facts through the report the
// service builds (one currency, no conversion), summing each commitment's
// days as the store does, with today as given.
func CommitmentReport(t testing.TB, b model.Batch, today string) model.CommitmentReport {
	t.Helper()
	first, _ := time.Parse(model.DateLayout, b.From)
	last, _ := time.Parse(model.DateLayout, b.To)
	now, ok := model.ParseDayNum(today)
	if !ok {
		t.Fatalf("today %q", today)
	}
	ps := commitments.Providers{Sources: map[model.ProviderKey]model.SourceKind{b.Provider: model.SourceAPI}}
	return Report(Totals(b.Provider, model.SourceAPI, b.Commitments), ps, "USD", model.Period{Start: first, End: last}, now)
}

// Totals sums facts per commitment (and kind, category and currency) as
// the store does: amounts added, the latest end, the days with facts.
func Totals(k model.ProviderKey, src model.SourceKind, facts []model.CommitmentFact) []commitments.Total {
	type key struct{ id, typ, cat, cur string }
	sums := map[key]*commitments.Total{}
	var order []key
	days := map[key]map[model.DayNum]bool{}
	for _, f := range facts {
		c := key{f.ID, f.Type, f.Category, f.Currency}
		s := sums[c]
		if s == nil {
			s = &commitments.Total{Provider: k, Source: src, CommitmentFact: model.CommitmentFact{ID: f.ID, Type: f.Type, Category: f.Category, Currency: f.Currency}}
			sums[c], days[c] = s, map[model.DayNum]bool{}
			order = append(order, c)
		}
		s.End = max(s.End, f.End)
		s.CoveredList += f.CoveredList
		s.CoveredCost += f.CoveredCost
		s.Used += f.Used
		s.Unused += f.Unused
		s.OnDemand += f.OnDemand
		s.Units += f.Units
		s.UnusedUnits += f.UnusedUnits
		days[c][f.Day] = true
	}
	totals := make([]commitments.Total, 0, len(order))
	for _, c := range order {
		s := sums[c]
		s.Days = len(days[c])
		totals = append(totals, *s)
	}
	return totals
}

// Report is the commitments report of totals in one currency (amounts
// taken as they are) over the period p, as of today.
func Report(totals []commitments.Total, ps commitments.Providers, currency string, p model.Period, today model.DayNum) model.CommitmentReport {
	conv := func(n model.Nanos, _ string) float64 { return n.Float64() }
	return commitments.Report(totals, ps, conv, currency, p, today)
}

// Summary is the report's row of a provider and type ("" the total).
func Summary(t testing.TB, r model.CommitmentReport, k model.ProviderKey, typ string) model.CommitmentSummary {
	t.Helper()
	for _, s := range r.Providers {
		if s.Provider == k && s.Type == typ {
			return s
		}
	}
	t.Fatalf("no %s row of type %q in %+v", k, typ, r.Providers)
	return model.CommitmentSummary{}
}

// Near reports whether a ratio or amount matches the expected value to
// the nano-unit the history keeps.
func Near(got *float64, want float64) bool {
	return got != nil && math.Abs(*got-want) < 1e-6
}
