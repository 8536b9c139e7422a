package anomaly

import (
	"fmt"
	"math"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"github.com/costpilot/costpilot/backend/monitor"
)

// ScopePerUnit is the scope of a spike in a business metric's daily cost
// per unit.
const ScopePerUnit = "per_unit"

// perUnitFloor is the least rise of a cost per unit that can be a spike:
// costs per unit are often fractions of a cent, so the currency-unit
// floor of costs would hide them; the relative and spread rules decide.
const perUnitFloor = 1e-9

// PerUnitID is the id of the spike of metric's cost per unit on day. The
// underscore keeps it apart from a provider's ids: provider keys have
// none.
func PerUnitID(metric, day string) string { return "anomaly:per_unit:" + metric + ":" + day }

// PerUnit is a spike of a metric's daily cost per unit (Actual and
// Expected are costs per unit), with that day's cost and units and their
// usual values (the same-weekday medians of the weeks before): a cost per
// unit may spike with a flat cost when the units fall.
type PerUnit struct {
	monitor.Anomaly
	Metric     string
	Cost       float64
	Units      float64
	UsualCost  float64
	UsualUnits float64
}

// FindPerUnit checks the daily cost per unit of metric: cost and units
// are the cost of the metric's scope and its units on each day from
// start. A day without units has no cost per unit and is skipped.
func FindPerUnit(metric string, start time.Time, cost, units []float64, opt monitor.AnomalyOptions) []PerUnit {
	v := make([]float64, len(cost))
	for i := range cost {
		v[i] = math.NaN()
		if i < len(units) && units[i] > 0 {
			v[i] = cost[i] / units[i]
		}
	}
	opt.MinAbsolute = perUnitFloor
	var out []PerUnit
	for _, a := range monitor.DetectAnomalies(monitor.DailySeries{Start: start, Total: v}, opt) {
		day, _ := time.Parse(model.DateLayout, a.Day)
		i := int(day.Sub(start).Hours() / 24)
		p := PerUnit{Anomaly: a, Metric: metric, Cost: cost[i], Units: units[i]}
		p.UsualCost, _ = opt.Usual(cost, i)
		p.UsualUnits, _ = opt.Usual(units, i)
		out = append(out, p)
	}
	return out
}

// Alert turns the spike into an alert whose id is the metric and day.
func (p PerUnit) Alert(currency string) model.Alert {
	msg := fmt.Sprintf("Cost per %s anomaly on %s: %s against a usual %s (+%.0f%%); cost %s (usual %s), %s %g (usual %g)",
		p.Metric, p.Day, moneyfmt.Rate(p.Actual, currency), moneyfmt.Rate(p.Expected, currency), 100*(p.Actual-p.Expected)/math.Max(p.Expected, 1e-12),
		moneyfmt.Rate(p.Cost, currency), moneyfmt.Rate(p.UsualCost, currency), p.Metric, p.Units, p.UsualUnits)
	sev := monitor.SeverityWarning
	if p.Expected > 0 && p.Actual >= 2*p.Expected {
		sev = monitor.SeverityCritical
	}
	return model.Alert{
		ID: PerUnitID(p.Metric, p.Day), Kind: monitor.KindAnomaly, Severity: sev, Message: msg, Time: p.Day + "T00:00:00Z",
		Details: map[string]any{"day": p.Day, "metric": p.Metric, "actual": p.Actual, "expected": p.Expected, "upper": p.Upper,
			"score": math.Round(p.Score*100) / 100, "currency": currency, "cost": math.Round(p.Cost*100) / 100,
			"usual_cost": math.Round(p.UsualCost*100) / 100, "units": p.Units, "usual_units": p.UsualUnits},
	}
}
