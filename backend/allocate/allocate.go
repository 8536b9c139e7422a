// Package allocate splits cost history over departments and projects by
// user rules (tag based, by account, or by regular expression on resource
// ids), with shared costs spread evenly, proportionally or by fixed
// percentages. It is pure: lines in, result out, no store access.
package allocate

import (
	"math"
	"sort"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// NoProject is the by_project key for cost that reached a department but
// no project (the account and regex methods, or a tag_based line whose tags
// name no accepted project), so by_project adds up like by_department.
const NoProject = "(no project)"

// percentScale turns fixed percentages into integer weights (micro-percent).
const percentScale = 1e6

// target is where one line's cost goes.
type target struct {
	department string
	project    string
	rule       string // matched_rules key
}

// ledger accumulates exact amounts while lines are read.
type ledger struct {
	total       model.Nanos
	shared      model.Nanos
	unallocated model.Nanos
	// direct[department][project] is cost assigned by the rules.
	direct  map[string]map[string]model.Nanos
	matched map[string]model.Nanos
}

// Allocate splits the cost of lines (daily-grain rows with tags) by the
// rules, summing the metric column (billed when empty). Lines outside
// rules.Start..rules.End (when set) are ignored. Shared costs (IsShared) are
// spread over the departments that received direct cost, or over the fixed
// percentages' departments; within a department, its share is spread over
// its projects in proportion to their direct cost. When nothing can receive
// shared cost it is unallocated. Invariants, exact before the conversion to
// float: sum(by_department) + unallocated = total, and the same for
// by_project. Lines of more than one currency are a Validation error: the
// caller converts first.
func Allocate(lines []model.CostLine, rules model.AllocationRules, metric model.CostMetric) (model.AllocationResult, error) {
	if err := Validate(rules); err != nil {
		return model.AllocationResult{}, err
	}
	if metric == "" {
		metric = model.MetricBilled
	}
	if !metric.Valid() {
		return model.AllocationResult{}, fieldError("", "metric", "unknown cost metric "+string(metric)+" (want billed, effective or list)")
	}
	m, err := newMatcher(rules)
	if err != nil {
		return model.AllocationResult{}, err
	}
	currency, first, last, err := scan(lines, rules)
	if err != nil {
		return model.AllocationResult{}, err
	}

	lg := ledger{direct: map[string]map[string]model.Nanos{}, matched: map[string]model.Nanos{}}
	for i := range lines {
		l := &lines[i]
		if !inPeriod(l.Day, rules) {
			continue
		}
		amt := amount(l, metric)
		lg.total += amt
		if IsShared(*l) {
			lg.shared += amt
			continue
		}
		t, ok := m.match(l)
		if !ok {
			lg.unallocated += amt
			continue
		}
		projects := lg.direct[t.department]
		if projects == nil {
			projects = map[string]model.Nanos{}
			lg.direct[t.department] = projects
		}
		p := t.project
		if p == "" {
			p = NoProject
		}
		projects[p] += amt
		lg.matched[t.rule] += amt
	}

	byDept, byProj := lg.spreadShared(rules)
	if lg.shared != 0 {
		split := rules.SharedSplit
		if split == "" {
			split = SplitProportional
		}
		lg.matched["shared:"+split] += lg.shared
	}

	res := model.AllocationResult{
		AllocatedCosts: model.AllocatedCosts{
			ByDepartment: floats(byDept),
			ByProject:    floats(byProj),
			Unallocated:  lg.unallocated.Float64(),
			Shared:       lg.shared.Float64(),
			Total:        lg.total.Float64(),
		},
		Rules:        rules,
		MatchedRules: floats(lg.matched),
		Currency:     currency,
	}
	res.Period = period(rules, first, last)
	return res, nil
}

// spreadShared adds the shared cost to departments and projects by the
// split and returns the final per-department and per-project amounts. Shared
// cost with no receiver is moved to unallocated.
func (lg *ledger) spreadShared(rules model.AllocationRules) (map[string]model.Nanos, map[string]model.Nanos) {
	byDept := map[string]model.Nanos{}
	byProj := map[string]model.Nanos{}
	for d, ps := range lg.direct {
		for p, v := range ps {
			byDept[d] += v
			byProj[p] += v
		}
	}
	if lg.shared == 0 {
		return byDept, byProj
	}

	var depts []string
	var weights []int64
	switch rules.SharedSplit {
	case SplitFixed:
		for d := range rules.SharedPercentages {
			depts = append(depts, d)
		}
		sort.Strings(depts)
		for _, d := range depts {
			weights = append(weights, int64(math.Round(rules.SharedPercentages[d]*percentScale)))
		}
	case SplitEven:
		depts = sortedKeys(lg.direct)
		for range depts {
			weights = append(weights, 1)
		}
	default: // proportional
		depts = sortedKeys(lg.direct)
		var sum int64
		for _, d := range depts {
			w := int64(max(byDept[d], 0))
			weights = append(weights, w)
			sum += w
		}
		// Only credits or zero costs: no proportion exists, so share evenly.
		if sum == 0 {
			for i := range weights {
				weights[i] = 1
			}
		}
	}
	if len(depts) == 0 {
		lg.unallocated += lg.shared
		return byDept, byProj
	}

	parts := apportion(lg.shared, weights)
	for i, d := range depts {
		share := parts[i]
		if share == 0 {
			continue
		}
		byDept[d] += share
		lg.spreadOverProjects(d, share, byProj)
	}
	return byDept, byProj
}

// spreadOverProjects divides a department's shared share over its projects
// in proportion to their direct cost, so by_project keeps adding up.
func (lg *ledger) spreadOverProjects(dept string, share model.Nanos, byProj map[string]model.Nanos) {
	ps := lg.direct[dept]
	projects := sortedKeys(ps)
	if len(projects) == 0 {
		byProj[NoProject] += share
		return
	}
	weights := make([]int64, len(projects))
	var sum int64
	for i, p := range projects {
		weights[i] = int64(max(ps[p], 0))
		sum += weights[i]
	}
	if sum == 0 {
		for i := range weights {
			weights[i] = 1
		}
	}
	for i, v := range apportion(share, weights) {
		byProj[projects[i]] += v
	}
}

// scan checks the currencies and finds the first and last day in the period.
func scan(lines []model.CostLine, rules model.AllocationRules) (currency, first, last string, err error) {
	seen := map[string]bool{}
	for i := range lines {
		l := &lines[i]
		if !inPeriod(l.Day, rules) {
			continue
		}
		if first == "" || l.Day < first {
			first = l.Day
		}
		if l.Day > last {
			last = l.Day
		}
		// A line with no currency is usually a zero-cost row; it cannot
		// conflict with the others.
		if l.Currency == "" || seen[l.Currency] {
			continue
		}
		seen[l.Currency] = true
		if currency != "" {
			return "", "", "", apperr.E(apperr.Validation,
				"cost lines mix currencies %s and %s: convert them to one currency before allocating", currency, l.Currency).
				WithDetail("currencies", []string{currency, l.Currency})
		}
		currency = l.Currency
	}
	return currency, first, last, nil
}

func inPeriod(day string, r model.AllocationRules) bool {
	// Days are YYYY-MM-DD, so string order is date order.
	return (r.Start == "" || day >= r.Start) && (r.End == "" || day <= r.End)
}

func amount(l *model.CostLine, m model.CostMetric) model.Nanos { return l.Amount(m) }

// period is the result's period: the rules' dates when given, else the
// first and last day with data, as whole days.
func period(r model.AllocationRules, first, last string) model.AnalysisPeriod {
	if r.Start != "" {
		first = r.Start
	}
	if r.End != "" {
		last = r.End
	}
	var p model.AnalysisPeriod
	if first != "" {
		p.StartDate = first + "T00:00:00"
	}
	if last != "" {
		p.EndDate = last + "T23:59:59"
	}
	return p
}

func floats(m map[string]model.Nanos) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = v.Float64()
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
