package monitor

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// Alert kinds (model.Alert.Kind).
const (
	KindBudget         = "budget"
	KindForecastBudget = "forecast_budget"
	KindAnomaly        = "anomaly"
	KindProvider       = "provider"
	KindStaleData      = "stale_data"
)

// Alert severities, most severe first.
const (
	SeverityCritical = "critical"
	SeverityWarning  = "warning"
	SeverityInfo     = "info"
)

// SeverityRank orders severities for sorting: lower is more severe.
func SeverityRank(s string) int {
	switch s {
	case SeverityCritical:
		return 0
	case SeverityWarning:
		return 1
	}
	return 2
}

// SortAlerts orders alerts by severity, then newest first, then id, so
// lists are stable between calls.
func SortAlerts(as []model.Alert) {
	sort.SliceStable(as, func(i, j int) bool {
		a, b := as[i], as[j]
		if ra, rb := SeverityRank(a.Severity), SeverityRank(b.Severity); ra != rb {
			return ra < rb
		}
		if a.Time != b.Time {
			return a.Time > b.Time
		}
		return a.ID < b.ID
	})
}

// BudgetPeriod is the calendar period a budget is measured over.
type BudgetPeriod struct {
	Key   string    // 2026-06 or 2026-Q2; part of alert ids
	Start time.Time // first day, UTC midnight
	End   time.Time // last day, UTC midnight
}

// CurrentPeriod returns the monthly or quarterly period holding day.
func CurrentPeriod(period string, day time.Time) (BudgetPeriod, error) {
	d := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	switch period {
	case "monthly":
		start := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
		return BudgetPeriod{Key: start.Format("2006-01"), Start: start, End: start.AddDate(0, 1, -1)}, nil
	case "quarterly":
		q := (int(d.Month()) - 1) / 3
		start := time.Date(d.Year(), time.Month(3*q+1), 1, 0, 0, 0, 0, time.UTC)
		return BudgetPeriod{Key: fmt.Sprintf("%d-Q%d", d.Year(), q+1), Start: start, End: start.AddDate(0, 3, -1)}, nil
	}
	return BudgetPeriod{}, apperr.E(apperr.Configuration, "budget period must be monthly or quarterly, not %q", period).WithDetail("field", "period")
}

// BudgetStatus is a budget measured against the spend of its period.
type BudgetStatus struct {
	Budget      config.Budget `json:"budget"`
	Period      string        `json:"period"`
	PeriodStart string        `json:"period_start"`
	PeriodEnd   string        `json:"period_end"`
	Actual      float64       `json:"actual"`       // spend from the period start to the newest day used
	Projected   float64       `json:"projected"`    // actual plus the forecast to the period end
	HasForecast bool          `json:"has_forecast"` // false: too little history to forecast
	Currency    string        `json:"currency"`
	// ActualThreshold and ForecastThreshold are the highest thresholds
	// (percent) that actual and projected spend reached; 0 for none.
	ActualThreshold   float64 `json:"actual_threshold"`
	ForecastThreshold float64 `json:"forecast_threshold"`
	// Cost and Units, for a budget on cost per unit (Budget.Per): the
	// period's cost in its scope and the units it is divided by. Actual
	// and Projected are then costs per unit.
	Cost  float64 `json:"cost,omitempty"`
	Units float64 `json:"units,omitempty"`
}

// EvaluateBudget measures actual and projected spend against the budget at
// each threshold percentage (default 80 and 100).
func EvaluateBudget(b config.Budget, p BudgetPeriod, actual, projected float64, hasForecast bool, thresholds []float64, currency string) BudgetStatus {
	if len(thresholds) == 0 {
		thresholds = []float64{80, 100}
	}
	st := BudgetStatus{Budget: b, Period: p.Key, PeriodStart: p.Start.Format(model.DateLayout), PeriodEnd: p.End.Format(model.DateLayout),
		Actual: actual, Projected: projected, HasForecast: hasForecast, Currency: currency}
	if b.Amount <= 0 {
		return st
	}
	for _, t := range thresholds {
		limit := b.Amount * t / 100
		if actual >= limit && t > st.ActualThreshold {
			st.ActualThreshold = t
		}
		if hasForecast && projected >= limit && t > st.ForecastThreshold {
			st.ForecastThreshold = t
		}
	}
	return st
}

// Alerts turns the status into alerts: one for the highest threshold the
// actual spend reached, and one for the forecast when it reaches a higher
// threshold than the actual spend already has. Ids hold the budget, the
// period and the threshold, so crossing a higher threshold (or a new
// period) is a new alert and re-evaluating is not.
func (st BudgetStatus) Alerts(now time.Time) []model.Alert {
	var out []model.Alert
	name := st.Budget.Name
	scope := scopeText(st.Budget.Scope)
	round, spent, forecastOf := round2, "%s spent in %s", "forecast %s by %s"
	if per := st.Budget.Per; per != "" {
		// Costs per unit are often below a cent: keep their digits.
		round, spent, forecastOf = round6, "cost per "+per+" %s in %s", "cost per "+per+" forecast %s by %s"
	}
	details := map[string]any{
		"budget": name, "amount": st.Budget.Amount, "period": st.Period, "period_start": st.PeriodStart,
		"period_end": st.PeriodEnd, "actual": round(st.Actual), "currency": st.Currency, "scope": st.Budget.Scope,
	}
	if st.Budget.Per != "" {
		details["per"], details["cost"], details["units"] = st.Budget.Per, round2(st.Cost), st.Units
	}
	if st.HasForecast {
		details["projected"] = round(st.Projected)
	}
	at := now.UTC().Format(time.RFC3339)
	if t := st.ActualThreshold; t > 0 {
		sev := SeverityWarning
		if t >= 100 {
			sev = SeverityCritical
		}
		d := copyMap(details)
		d["threshold"] = t
		out = append(out, model.Alert{
			ID: fmt.Sprintf("budget:%s:%s:%g", slug(name), st.Period, t), Kind: KindBudget, Severity: sev,
			Provider: st.Budget.Scope.Provider, Time: at, Details: d,
			Message: fmt.Sprintf("Budget %q%s: "+spent+" is %.0f%% of %s (threshold %g%%)", name, scope,
				limitAmount(st.Actual, st), st.Period, 100*st.Actual/st.Budget.Amount, limitAmount(st.Budget.Amount, st), t),
		})
	}
	if t := st.ForecastThreshold; t > st.ActualThreshold {
		sev := SeverityInfo
		if t >= 100 {
			sev = SeverityWarning
		}
		d := copyMap(details)
		d["threshold"] = t
		out = append(out, model.Alert{
			ID: fmt.Sprintf("forecast_budget:%s:%s:%g", slug(name), st.Period, t), Kind: KindForecastBudget, Severity: sev,
			Provider: st.Budget.Scope.Provider, Time: at, Details: d,
			Message: fmt.Sprintf("Budget %q%s: "+forecastOf+" is %.0f%% of %s (threshold %g%%)", name, scope,
				limitAmount(st.Projected, st), st.PeriodEnd, 100*st.Projected/st.Budget.Amount, limitAmount(st.Budget.Amount, st), t),
		})
	}
	return out
}

func scopeText(sc config.BudgetScope) string {
	var parts []string
	if sc.Provider != "" {
		parts = append(parts, "provider "+string(sc.Provider))
	}
	if sc.Account != "" {
		parts = append(parts, "account "+sc.Account)
	}
	if sc.Service != "" {
		parts = append(parts, "service "+sc.Service)
	}
	if sc.Category != "" {
		parts = append(parts, "category "+sc.Category)
	}
	if sc.Tag != "" {
		parts = append(parts, "tag "+sc.Tag)
	}
	if sc.Cluster != "" {
		parts = append(parts, "cluster "+sc.Cluster)
	}
	if sc.Namespace != "" {
		parts = append(parts, "namespace "+sc.Namespace)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// slug makes a budget name safe inside an alert id.
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

func amount(v float64, cur string) string { return fmt.Sprintf("%.2f %s", v, cur) }

// limitAmount writes an amount of a budget: with cents, or four
// decimals for a cost per unit below 1 (0.0123 USD).
func limitAmount(v float64, st BudgetStatus) string {
	if st.Budget.Per == "" || math.Abs(v) >= 1 {
		return amount(v, st.Currency)
	}
	return fmt.Sprintf("%.4f %s", v, st.Currency)
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

func round2(v float64) float64 { return float64(int64(v*100+0.5*sign(v))) / 100 }

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}
