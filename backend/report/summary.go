package report

import (
	"math"
	"sort"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Limits of the executive summary and the recommendation lists.
const (
	topMovers = 5
	execRecs  = 5
	topRecs   = 25
)

// Scope is what a report covers beside its period: the providers and the
// saved view asked for (empty: every enabled provider, no view).
type Scope struct {
	Providers []model.ProviderKey `json:"providers,omitempty"`
	View      string              `json:"view,omitempty"`
}

// Narrowed reports whether the report covers less than every provider.
func (s Scope) Narrowed() bool { return len(s.Providers) > 0 || s.View != "" }

// Outlook is the forecast to the end of the report's period: for a
// period to date (this month, quarter, year) the spend so far plus the
// forecast of the days left; for a rolling period the days after it.
type Outlook struct {
	Label     string     `json:"label"`       // "Forecast to 2026-06-30"
	End       string     `json:"end"`         // last forecast day
	Days      int        `json:"days"`        // days forecast
	ToDate    float64    `json:"to_date"`     // spend of the period so far (0 for a rolling period)
	Forecast  float64    `json:"forecast"`    // forecast of the days left
	Interval  [2]float64 `json:"interval"`    // of Forecast
	Projected float64    `json:"projected"`   // ToDate + Forecast
	ToDateSet bool       `json:"to_date_set"` // ToDate counts (a period to date)
}

// Budget is one budget against the spend of its period, measured as of
// the report's last day.
type Budget struct {
	Name        string  `json:"name"`
	Scope       string  `json:"scope"` // "all providers", "AWS", "AWS · service EC2"…
	Period      string  `json:"period"`
	Amount      float64 `json:"amount"`
	Actual      float64 `json:"actual"`
	Projected   float64 `json:"projected"`
	HasForecast bool    `json:"has_forecast"`
	Currency    string  `json:"currency"`
	// Per names the business metric of a budget on cost per unit: its
	// amounts are then costs per unit.
	Per string `json:"per,omitempty"`
}

// Mover is a service or an account whose daily run-rate rose against the
// previous period. Periods of unequal length (October's 31 days against
// September's 30) compare per day: the raw Change beside it is calendar
// noise as much as a rise.
type Mover struct {
	Kind     string  `json:"kind"` // service or account
	Name     string  `json:"name"`
	Cost     float64 `json:"cost"`
	Previous float64 `json:"previous"`
	Change   float64 `json:"change"` // Cost - Previous
	// DailyChange is the rise of the cost per day; RunRateChange the
	// same as a ratio of the previous cost per day (nil when that is 0).
	DailyChange   float64  `json:"daily_change"`
	RunRateChange *float64 `json:"run_rate_change,omitempty"`
}

// RecRollup is the open recommendations of one type and provider.
type RecRollup struct {
	Type     model.RecommendationType `json:"type"`
	Provider model.ProviderKey        `json:"provider"`
	Count    int                      `json:"count"`
	Savings  float64                  `json:"monthly_savings"`
}

// Executive is the report's first page: the period's total and its
// change, the outlook, budgets, top movers and the savings open and
// realized.
type Executive struct {
	Total       float64           `json:"total"`
	Currency    string            `json:"currency"`
	Previous    *model.Comparison `json:"previous,omitempty"`
	Change      float64           `json:"change"`                 // Total - Previous.TotalCost
	ChangeRatio *float64          `json:"change_ratio,omitempty"` // nil when the previous period cost nothing
	// Days is the period's length. RunRateChange compares the cost per
	// day of both periods (nil when the previous one cost nothing); it is
	// the fair change when their lengths differ.
	Days          int      `json:"days"`
	RunRateChange *float64 `json:"run_rate_change,omitempty"`
	// NoEarlierData says the comparison period holds no cost at all (the
	// history starts later): nothing is "new", there is nothing to compare.
	NoEarlierData bool     `json:"no_earlier_data,omitempty"`
	Outlook       *Outlook `json:"outlook,omitempty"`
	OutlookNote   string   `json:"outlook_note,omitempty"`
	Budgets       []Budget `json:"budgets"`
	Movers        []Mover  `json:"movers"`
	// OpenCount and OpenSavings are every open recommendation;
	// TopRecommendations the largest few with savings above a cent.
	OpenCount          int                    `json:"open_recommendations"`
	OpenSavings        float64                `json:"open_monthly_savings"`
	TopRecommendations []model.Recommendation `json:"top_recommendations"`
	RealizedCount      int                    `json:"realized_recommendations"`
	RealizedMonthly    float64                `json:"realized_monthly_savings"`
	Rollup             []RecRollup            `json:"recommendation_rollup"`
}

// summarize computes the executive summary from what the Service
// gathered.
func summarize(d Data) *Executive {
	a := d.Analysis
	e := &Executive{Total: a.Summary.TotalCost, Currency: a.Summary.Currency, Previous: a.Summary.Previous,
		Outlook: d.Outlook, OutlookNote: d.OutlookNote, Budgets: d.Budgets}
	if e.Budgets == nil {
		e.Budgets = []Budget{}
	}
	e.Days = periodLength(a.Summary)
	if p := e.Previous; p != nil {
		e.Change = e.Total - p.TotalCost
		if cents(p.TotalCost) != 0 {
			r := e.Change / p.TotalCost
			e.ChangeRatio = &r
			e.RunRateChange = runRate(e.Total, e.Days, p.TotalCost, p.Days)
		} else {
			e.NoEarlierData = true
		}
	}
	e.Movers = []Mover{}
	if p := e.Previous; p != nil && !e.NoEarlierData {
		e.Movers = movers(d.ServiceGroups, d.AccountGroups, e.Days, p.Days)
	}
	e.OpenCount = len(d.Recommendations)
	for _, r := range d.Recommendations {
		e.OpenSavings += r.PotentialSavings
	}
	e.TopRecommendations = largestRecs(d.Recommendations, execRecs)
	for _, r := range d.Realized {
		if r.Lifecycle != nil && r.Lifecycle.Realized != nil {
			e.RealizedCount++
			e.RealizedMonthly += r.Lifecycle.Realized.Monthly
		}
	}
	e.Rollup = rollup(d.Recommendations)
	return e
}

// cents rounds an amount to cents, as it is shown.
func cents(v float64) float64 { return math.Round(v * 100) }

// runRate is the change of the cost per day from the previous period
// (prev over prevDays) to this one (cur over days); nil when the previous
// cost nothing or a length is unknown.
func runRate(cur float64, days int, prev float64, prevDays int) *float64 {
	if days < 1 || prevDays < 1 || cents(prev) == 0 {
		return nil
	}
	r := (cur/float64(days))/(prev/float64(prevDays)) - 1
	return &r
}

// periodLength is the number of days of the analysed period; 0 when
// unknown.
func periodLength(sum model.CostSummary) int {
	start, end := periodSpan(sum)
	a, errA := time.Parse(model.DateLayout, start)
	b, errB := time.Parse(model.DateLayout, end)
	if errA != nil || errB != nil || b.Before(a) {
		return 0
	}
	return int(b.Sub(a).Hours()/24) + 1
}

// movers are the services and accounts whose cost per day rose most
// against the previous period (days and prevDays long), largest rise
// first; a fall or no change is left out.
func movers(services, accounts []model.CostGroup, days, prevDays int) []Mover {
	var out []Mover
	if days < 1 || prevDays < 1 {
		return []Mover{}
	}
	add := func(kind string, gs []model.CostGroup) {
		for _, g := range gs {
			if g.Other > 0 || g.Key == "" {
				continue // the folded "Other" group is no single service or account
			}
			daily := g.Cost/float64(days) - g.PreviousCost/float64(prevDays)
			if cents(daily) > 0 {
				name := g.Label
				if name == "" {
					name = g.Key
				}
				out = append(out, Mover{Kind: kind, Name: name, Cost: g.Cost, Previous: g.PreviousCost, Change: g.Cost - g.PreviousCost,
					DailyChange: daily, RunRateChange: runRate(g.Cost, days, g.PreviousCost, prevDays)})
			}
		}
	}
	add("service", services)
	add("account", accounts)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].DailyChange != out[j].DailyChange {
			return out[i].DailyChange > out[j].DailyChange
		}
		return out[i].Kind+out[i].Name < out[j].Kind+out[j].Name
	})
	if len(out) > topMovers {
		out = out[:topMovers]
	}
	if out == nil {
		out = []Mover{}
	}
	return out
}

// largestRecs are the n recommendations with the largest savings, those
// that round to nothing left out: a list for a reader who acts on the top.
func largestRecs(rs []model.Recommendation, n int) []model.Recommendation {
	out := make([]model.Recommendation, 0, min(n, len(rs)))
	for _, r := range bySavings(rs) {
		if len(out) == n {
			break
		}
		if cents(r.PotentialSavings) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// bySavings sorts by savings, then priority, then resource, stably.
func bySavings(rs []model.Recommendation) []model.Recommendation {
	out := append([]model.Recommendation(nil), rs...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].PotentialSavings != out[j].PotentialSavings {
			return out[i].PotentialSavings > out[j].PotentialSavings
		}
		if pi, pj := rank(out[i].Priority), rank(out[j].Priority); pi != pj {
			return pi < pj
		}
		return out[i].ResourceID < out[j].ResourceID
	})
	return out
}

// rollup counts the recommendations and sums their savings by type and
// provider, largest savings first.
func rollup(rs []model.Recommendation) []RecRollup {
	type key struct {
		t model.RecommendationType
		p model.ProviderKey
	}
	m := map[key]*RecRollup{}
	for _, r := range rs {
		k := key{r.Type, r.Provider}
		g := m[k]
		if g == nil {
			g = &RecRollup{Type: r.Type, Provider: r.Provider}
			m[k] = g
		}
		g.Count++
		g.Savings += r.PotentialSavings
	}
	out := make([]RecRollup, 0, len(m))
	for _, g := range m {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Savings != out[j].Savings {
			return out[i].Savings > out[j].Savings
		}
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].Provider < out[j].Provider
	})
	return out
}
