package service

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"time"

	"github.com/costpilot/costpilot/backend/allocate"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/commitments"
	"github.com/costpilot/costpilot/backend/forecast"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/recommend"
	"github.com/costpilot/costpilot/backend/store"
)

// recommendationWindow is the history the recommenders look at.
const recommendationWindow = 30

// generated is every recommendation of every kind over every enabled
// provider, from the stored inventory, its hourly utilization and the last
// 30 days of costs, with the clouds' own recommenders' for live sources
// (externalrecs.go), whatever people decided about them (lifecycle.go adds
// that). Results are cached until the history changes.
func (s *Service) generated(ctx context.Context) ([]model.Recommendation, error) {
	g, err := s.generatedSet(ctx)
	return g.Recommendations, err
}

// generatedFindings is what one run of the recommenders gives: the
// recommendations and what they could not assess.
type generatedFindings struct {
	Recommendations []model.Recommendation `json:"recommendations"`
	NotAssessed     []model.NotAssessed    `json:"not_assessed"`
}

func (s *Service) generatedSet(ctx context.Context) (generatedFindings, error) {
	keys, err := s.providers("")
	if err != nil {
		return generatedFindings{}, err
	}
	opt := recommend.Options{CPUThreshold: s.cfg.Optimization.CPUUtilizationThreshold,
		MemoryThreshold: s.cfg.Optimization.MemoryUtilizationThreshold, Now: s.now()}
	cacheKey := fmt.Sprintf("findings:%d:%s:%g:%g:%v", s.historyVersion(ctx), yesterday(s.now()), opt.CPUThreshold, opt.MemoryThreshold, keys)
	if m := s.findings.Load(); m != nil && m.key == cacheKey && s.cfg.Performance.Cache.Enabled {
		return m.set.clone(), nil
	}
	if b, ok := s.cache.Get(ResultsBucket, cacheKey); ok {
		var g generatedFindings
		if json.Unmarshal(b, &g) == nil && g.Recommendations != nil {
			s.findings.Store(&findingsMemo{key: cacheKey, set: g.clone()})
			return g, nil
		}
	}
	in, err := s.recommendInput(ctx, keys)
	if err != nil {
		return generatedFindings{}, err
	}
	recs, err := s.withBillChecks(ctx, keys, in.Basis, s.withExternal(ctx, keys, in, recommend.Generate(in, opt)))
	if err != nil {
		return generatedFindings{}, err
	}
	if recs, err = s.withK8sRequests(ctx, keys, recs); err != nil {
		return generatedFindings{}, err
	}
	g := generatedFindings{Recommendations: recs, NotAssessed: recommend.NotAssessed(in, s.baseCurrency(in))}
	if g.Recommendations == nil {
		g.Recommendations = []model.Recommendation{}
	}
	if g.NotAssessed == nil {
		g.NotAssessed = []model.NotAssessed{}
	}
	if b, err := json.Marshal(g); err == nil {
		_ = s.cache.Put(ResultsBucket, cacheKey, b, s.cacheTTL())
	}
	s.findings.Store(&findingsMemo{key: cacheKey, set: g.clone()})
	return g, nil
}

// findingsMemo keeps the last findings in memory under their cache key:
// a recommendation's state change reads them twice, and decoding a fleet's
// thousands of findings from the shared cache each time cost more than the
// change itself. The key holds the history version, so another process's
// write is seen as in the shared cache.
type findingsMemo struct {
	key string
	set generatedFindings
}

// clone copies the lists, so a caller that reorders its copy does not
// touch the memo.
func (g generatedFindings) clone() generatedFindings {
	return generatedFindings{Recommendations: slices.Clone(g.Recommendations), NotAssessed: slices.Clone(g.NotAssessed)}
}

// baseCurrency is the currency the recommenders' costs were converted to.
func (s *Service) baseCurrency(in recommend.Input) string {
	if len(in.Costs) > 0 {
		return in.Costs[0].Currency
	}
	return s.cfg.Currency.Base
}

// NotAssessed is GET /api/recommendations/not-assessed: per provider, the
// compute resources with cost in the last 30 days that the rightsizing and
// idle checks could not look at for want of utilization data, with their
// monthly cost and what to connect.
func (s *Service) NotAssessed(ctx context.Context) ([]model.NotAssessed, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	g, err := s.generatedSet(ctx)
	return g.NotAssessed, err
}

func (s *Service) cacheTTL() time.Duration {
	return time.Duration(s.cfg.Performance.Cache.TTL) * time.Second
}

func (s *Service) recommendInput(ctx context.Context, keys []model.ProviderKey) (recommend.Input, error) {
	var in recommend.Input
	since := s.now().AddDate(0, 0, -recommendationWindow)
	for _, k := range keys {
		inv, err := s.store.Inventory(ctx, k, s.source(ctx, k), since)
		if err != nil {
			return in, err
		}
		in.Inventory = append(in.Inventory, inv)
	}
	sc := s.scope(ctx, keys)
	// Each provider's costs are read over its last 30 days with data: the
	// 30 days ending yesterday, or earlier when its data ends earlier
	// (a monthly delivery, a delay, a historical file), which the
	// recommendations then say.
	ends, err := s.dataEnds(ctx, sc)
	if err != nil {
		return in, err
	}
	yday := yesterday(s.now())
	in.Basis = map[model.ProviderKey]model.Basis{}
	sc.From, sc.To = yday, yday
	for _, k := range keys {
		b := lastDaysWithData(ends[k], yday, recommendationWindow)
		in.Basis[k] = b
		sc.From = min(sc.From, b.From)
	}
	// Summed in SQL: one line per line key for allocation, and the daily
	// on-demand eligible usage for the commitment baseline of sources
	// without commitment facts.
	lines, err := s.store.Lines(ctx, sc)
	if err != nil {
		return in, err
	}
	if in.Costs, err = s.toBase(ctx, sc, lines); err != nil {
		return in, err
	}
	csc := sc
	csc.Keys, csc.NearList = recommend.IsComputeUsage, recommend.OnDemandShare
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return in, err
	}
	days, err := s.store.DaySums(ctx, csc, model.MetricList)
	if err != nil {
		return in, err
	}
	in.ComputeDaily = map[model.ProviderKey]map[string]float64{}
	for _, d := range days {
		if in.ComputeDaily[d.Provider] == nil {
			in.ComputeDaily[d.Provider] = map[string]float64{}
		}
		in.ComputeDaily[d.Provider][d.Day] += conv.Convert(d.Amount, d.Currency)
	}
	in.Coverage, err = s.recommendCoverage(ctx, sc, in.Basis, conv.Convert)
	return in, err
}

// recommendCoverage is, per provider whose source reports commitments,
// its daily commitment facts (the purchase is sized from the usage they
// leave uncovered) and its eligible usage over its basis, summed as the
// Commitments view sums it (commitments.EligibleUsage).
func (s *Service) recommendCoverage(ctx context.Context, sc store.Scope, basis map[model.ProviderKey]model.Basis,
	conv commitments.Convert) (map[model.ProviderKey]recommend.Coverage, error) {
	cdays, err := s.store.CommitmentDays(ctx, sc)
	if err != nil {
		return nil, err
	}
	out := map[model.ProviderKey]recommend.Coverage{}
	for _, d := range cdays {
		c, ok := out[d.Provider]
		if !ok {
			c = recommend.Coverage{OnDemand: map[string]float64{}, Unused: map[string]float64{}}
			out[d.Provider] = c
		}
		c.OnDemand[d.Day] += conv(d.OnDemand, d.Currency)
		c.Unused[d.Day] += conv(d.Unused, d.Currency)
	}
	// One query per distinct basis (usually one for all providers).
	totals := map[model.ProviderKey][]commitments.Total{}
	done := map[model.Basis]bool{}
	for k := range out {
		b := basis[k]
		if done[b] {
			continue
		}
		done[b] = true
		wsc := sc
		wsc.From, wsc.To = b.From, b.To
		rows, err := s.store.CommitmentTotals(ctx, wsc)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if basis[r.Provider] == b {
				totals[r.Provider] = append(totals[r.Provider], commitments.Total{Provider: r.Provider, Source: r.Source,
					CommitmentFact: r.CommitmentFact, Days: r.Days})
			}
		}
	}
	for k, c := range out {
		u := commitments.EligibleUsage(totals[k], conv)
		c.Eligible, c.Covered = u.Eligible, u.Covered
		out[k] = c
	}
	return out, nil
}

// toBase converts lines of several currencies to the report currency, so
// the domain packages never add different currencies.
// linesIn is the history of the providers keys from one day to another,
// one line per line key, in the base currency.
func (s *Service) linesIn(ctx context.Context, keys []model.ProviderKey, from, to string) ([]model.CostLine, error) {
	sc := s.scope(ctx, keys)
	sc.From, sc.To = from, to
	lines, err := s.store.Lines(ctx, sc)
	if err != nil {
		return nil, err
	}
	return s.toBase(ctx, sc, lines)
}

func (s *Service) toBase(ctx context.Context, sc store.Scope, lines []model.CostLine) ([]model.CostLine, error) {
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, err
	}
	for i := range lines {
		l := &lines[i]
		if l.Currency == conv.Target {
			continue
		}
		r := conv.Rates[l.Currency]
		l.Billed = model.NanosFromFloat(l.Billed.Float64() * r)
		l.Effective = model.NanosFromFloat(l.Effective.Float64() * r)
		l.List = model.NanosFromFloat(l.List.Float64() * r)
		l.Currency = conv.Target
	}
	return lines, nil
}

func demoDay(now time.Time, offset int) string {
	y, _ := time.Parse(model.DateLayout, yesterday(now))
	return y.AddDate(0, 0, offset+1).Format(model.DateLayout)
}

// forecastHistory is how much history the forecaster sees: enough for
// the yearly cycle when the data has it.
const forecastHistory = 730

// ForecastCosts is the forecast of the whole bill (ForecastView with no
// filter and no grouping): the next `days` days per provider and in
// total, with the interval at forecast.interval, trend analysis, daily
// points and, when asked, the impact of the current recommendations.
func (s *Service) ForecastCosts(ctx context.Context, days int, includeRecommendations bool) (model.Forecast, error) {
	return s.forecastView(ctx, days, includeRecommendations, model.CostQuery{})
}

// ForecastView is GET /api/forecast: the forecast of any view a cost
// query can select (its filters), per provider, per group of the view's
// group_by when given, and in total, coherent (see forecast.View).
func (s *Service) ForecastView(ctx context.Context, r ForecastRequest) (model.Forecast, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.Forecast{}, err
	}
	days, incl, err := ForecastQuery(r)
	if err != nil {
		return model.Forecast{}, err
	}
	q, err := s.CostQuery(CostRequest{Filters: r.Filters, GroupBy: r.GroupBy})
	if err != nil {
		return model.Forecast{}, err
	}
	return s.forecastView(ctx, days, incl, model.CostQuery{Filters: q.Filters, GroupBy: q.GroupBy})
}

func (s *Service) forecastView(ctx context.Context, days int, includeRecommendations bool, q model.CostQuery) (model.Forecast, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.Forecast{}, err
	}
	if days < 1 || days > MaxDays {
		return model.Forecast{}, apperr.E(apperr.Validation, "days must be an integer from 1 to %d, got %d", MaxDays, days).WithDetail("field", "days")
	}
	to := yesterday(s.now())
	from := demoDay(s.now(), -forecastHistory)
	start, _ := time.Parse(model.DateLayout, from)
	end, _ := time.Parse(model.DateLayout, to)
	q.Period = model.Period{Start: start, End: end}
	cells, keys, labels, cur, err := s.forecastCells(ctx, q, start, end)
	if err != nil {
		return model.Forecast{}, err
	}
	fc, groups, mean, err := forecast.View(cells, keys, start, days, s.cfg.Forecast.Interval)
	if err != nil {
		return model.Forecast{}, err
	}
	fc.Currency = cur
	fc.Filters, fc.GroupBy = q.Filters, q.GroupBy
	for i := range groups {
		l := labels[groups[i].Key]
		groups[i].Key, groups[i].Label, groups[i].Other = l.Key, l.Label, l.Other
	}
	// Largest first, the rest as one last, as the cost view lists groups.
	sort.SliceStable(groups, func(a, b int) bool {
		if (groups[a].Other > 0) != (groups[b].Other > 0) {
			return groups[b].Other > 0
		}
		return groups[a].TotalForecast > groups[b].TotalForecast
	})
	fc.Groups = groups
	if fc.Accuracy, err = s.forecastAccuracy(ctx, days); err != nil {
		return model.Forecast{}, err
	}
	if fc.Budgets, err = s.budgetForecasts(ctx); err != nil {
		return model.Forecast{}, err
	}
	// The recommendations' savings are of the whole bill: subtracted from a
	// filtered view's forecast they would claim savings outside it, so a
	// filtered view has no impact rather than a wrong one.
	if includeRecommendations && len(q.Filters) == 0 {
		recs, err := s.GenerateRecommendations(ctx)
		if err != nil {
			return model.Forecast{}, err
		}
		var monthly float64
		for _, r := range recs {
			monthly += r.PotentialSavings
		}
		imp := forecast.Impact(mean, monthly)
		fc.RecommendationsImpact = &imp
	}
	return fc, nil
}

// forecastAccuracy is the backtest summary shown beside a forecast of
// horizon days; nil when the history is too short to backtest.
func (s *Service) forecastAccuracy(ctx context.Context, horizon int) (*model.ForecastAccuracy, error) {
	ev, err := s.EvaluateModel(ctx, horizon)
	if apperr.KindOf(err) == apperr.Validation {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &model.ForecastAccuracy{MAPE: ev.MAPE, Coverage80: ev.Coverage80, Coverage95: ev.Coverage95,
		Origins: ev.Origins, Horizon: ev.Horizon}, nil
}

// budgetForecasts is every configured budget against its period's actual
// and projected spend, as the budget alerts measure them.
func (s *Service) budgetForecasts(ctx context.Context) ([]model.BudgetForecast, error) {
	st, err := s.BudgetStatuses(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]model.BudgetForecast, 0, len(st))
	for _, b := range st {
		out = append(out, model.BudgetForecast{Name: b.Budget.Name, Amount: b.Budget.Amount, Period: b.Period,
			PeriodEnd: b.PeriodEnd, Actual: b.Actual, Projected: b.Projected, HasForecast: b.HasForecast, Currency: b.Currency})
	}
	return out, nil
}

// EvaluateModel is evaluate_model: rolling-origin backtests of the
// forecaster on the total daily history. A backtest runs a dozen whole
// forecasts, so its result is kept per history version, day and horizon.
func (s *Service) EvaluateModel(ctx context.Context, horizon int) (model.ModelEvaluation, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.ModelEvaluation{}, err
	}
	if horizon < 1 || horizon > MaxDays {
		return model.ModelEvaluation{}, apperr.E(apperr.Validation, "days must be an integer from 1 to %d, got %d", MaxDays, horizon).WithDetail("field", "days")
	}
	keys, err := s.providers("")
	if err != nil {
		return model.ModelEvaluation{}, err
	}
	cacheKey := fmt.Sprintf("evaluate:%d:%s:%d:%s:%v", s.historyVersion(ctx), yesterday(s.now()), horizon, s.cfg.Analysis.CostMetric, keys)
	if b, ok := s.cache.Get(ResultsBucket, cacheKey); ok {
		var ev model.ModelEvaluation
		if json.Unmarshal(b, &ev) == nil {
			return ev, nil
		}
	}
	ev, err := s.evaluateModel(ctx, horizon)
	if err != nil {
		return model.ModelEvaluation{}, err
	}
	if b, err := json.Marshal(ev); err == nil {
		_ = s.cache.Put(ResultsBucket, cacheKey, b, s.cacheTTL())
	}
	return ev, nil
}

func (s *Service) evaluateModel(ctx context.Context, horizon int) (model.ModelEvaluation, error) {
	to := yesterday(s.now())
	from := demoDay(s.now(), -forecastHistory)
	series, _, err := s.DailySeries(ctx, from, to, "")
	if err != nil {
		return model.ModelEvaluation{}, err
	}
	var total []float64
	for _, v := range series {
		if total == nil {
			total = make([]float64, len(v))
		}
		for i := range v {
			total[i] += v[i]
		}
	}
	f, l := forecast.Span(total)
	if f < 0 {
		return model.ModelEvaluation{}, apperr.E(apperr.Validation, "no cost history to evaluate")
	}
	start, _ := time.Parse(model.DateLayout, from)
	ev, err := forecast.Evaluate(total[f:l+1], start.AddDate(0, 0, f), horizon)
	if err != nil {
		return model.ModelEvaluation{}, err
	}
	return model.ModelEvaluation{MAE: ev.MAE, MAPE: ev.MAPE, SMAPE: ev.SMAPE, MASE: ev.MASE, Coverage80: ev.Coverage80,
		Coverage95: ev.Coverage95, Origins: ev.Origins, Horizon: ev.Horizon}, nil
}

// AllocateCosts is POST /api/allocate: the period's costs split
// by department and project by the rules; allocated plus unallocated
// equals the total.
func (s *Service) AllocateCosts(ctx context.Context, rules model.AllocationRules) (model.AllocationResult, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.AllocationResult{}, err
	}
	if err := allocate.Validate(rules); err != nil {
		return model.AllocationResult{}, err
	}
	p, err := s.PeriodForDays(DefaultDays)
	if err != nil {
		return model.AllocationResult{}, err
	}
	if rules.Start != "" || rules.End != "" {
		if rules.Start == "" || rules.End == "" {
			return model.AllocationResult{}, apperr.E(apperr.Validation, "start and end go together").WithDetail("field", "start")
		}
		if p, err = PeriodForDates(rules.Start, rules.End); err != nil {
			return model.AllocationResult{}, err
		}
	}
	keys, err := s.providers("")
	if err != nil {
		return model.AllocationResult{}, err
	}
	var lines []model.CostLine
	if allocate.UsesK8s(rules) {
		lines, err = s.k8sLinesIn(ctx, keys, p.FirstDay(), p.LastDay())
	} else {
		lines, err = s.linesIn(ctx, keys, p.FirstDay(), p.LastDay())
	}
	if err != nil {
		return model.AllocationResult{}, err
	}
	res, err := allocate.Allocate(lines, rules, s.cfg.Analysis.CostMetric)
	if err != nil {
		return model.AllocationResult{}, err
	}
	res.Period = model.AnalysisPeriod{StartDate: p.Start.UTC().Format(model.TimestampLayout), EndDate: p.End.UTC().Format(model.TimestampLayout)}
	return res, nil
}

// SaveRuleSet stores a named allocation rule set after validating it.
func (s *Service) SaveRuleSet(ctx context.Context, name string, rules model.AllocationRules) (store.RuleSet, error) {
	p, err := s.require(ctx, model.PermChange)
	if err != nil {
		return store.RuleSet{}, err
	}
	if name == "" {
		return store.RuleSet{}, apperr.E(apperr.Validation, "a rule set needs a name").WithDetail("field", "name")
	}
	if err := CheckLen("name", name, MaxFilterLen); err != nil {
		return store.RuleSet{}, err
	}
	if err := allocate.Validate(rules); err != nil {
		return store.RuleSet{}, err
	}
	return s.store.SaveRuleSet(ctx, name, rules, s.auditBy(p, AuditRuleSetSave, map[string]any{"name": name, "method": rules.Method}))
}

// RuleSets lists the saved allocation rule sets.
func (s *Service) RuleSets(ctx context.Context) ([]store.RuleSet, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	return s.store.RuleSets(ctx)
}

// Runs lists the latest pipeline runs.
func (s *Service) Runs(ctx context.Context, limit int) ([]store.Run, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	limit, err := RunsLimit(limit)
	if err != nil {
		return nil, err
	}
	runs, err := s.store.Runs(ctx, limit)
	if runs == nil {
		runs = []store.Run{}
	}
	return runs, err
}

// ParseAllocationRules reads a rule file (YAML or JSON); errors name the
// file and field.
func ParseAllocationRules(data []byte, name string) (model.AllocationRules, error) {
	return allocate.ParseRules(data, name)
}

// RunForecastBench runs the forecaster over a benchmark train file
// (series_id,date,value) and writes the benchmark's forecast CSV: the
// `forecast-bench` command.
func RunForecastBench(in io.Reader, out io.Writer, horizon int) error {
	return forecast.RunBench(in, out, horizon)
}
