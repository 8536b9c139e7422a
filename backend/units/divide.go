package units

import "github.com/costpilot/costpilot/backend/model"

// Divide is the cost per unit of a metric over the inclusive days
// from..to: cost is the scope's cost per day, values the metric's units
// per day. Every day of the span has an entry; a day (or a period)
// without units has no cost per unit rather than an infinite one.
func Divide(metric string, scope map[string]string, from, to model.DayNum, cost, values map[model.DayNum]float64) model.PerUnit {
	out := model.PerUnit{Metric: metric, Scope: scope, DailyCosts: []model.UnitDay{}}
	if out.Scope == nil {
		out.Scope = map[string]string{}
	}
	for d := from; d <= to; d++ {
		day := model.UnitDay{Date: d.String(), Cost: cost[d], Units: values[d]}
		day.CostPerUnit = ratio(day.Cost, day.Units)
		out.Cost += day.Cost
		out.Units += day.Units
		out.DailyCosts = append(out.DailyCosts, day)
	}
	out.CostPerUnit = ratio(out.Cost, out.Units)
	return out
}

func ratio(cost, units float64) *float64 {
	if units == 0 {
		return nil
	}
	v := cost / units
	return &v
}
