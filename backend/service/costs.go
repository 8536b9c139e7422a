package service

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/analysis"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/period"
	"github.com/costpilot/costpilot/backend/store"
)

// MaxDays bounds `days` in the API and CLI.
const MaxDays = period.MaxDays

// PeriodForDays returns the last n days (package period: the n complete
// days before today), validating n.
func (s *Service) PeriodForDays(n int) (model.Period, error) {
	r, err := period.Resolve(s.now(), period.Spec{Kind: model.PeriodDays, Days: n})
	if err != nil {
		return model.Period{}, err
	}
	return dayPeriod(r.Current), nil
}

// PeriodForDates returns the period of the inclusive dates start..end
// (YYYY-MM-DD, UTC).
func PeriodForDates(start, end string) (model.Period, error) {
	a, err := time.Parse(model.DateLayout, start)
	if err != nil {
		return model.Period{}, apperr.E(apperr.Validation, "start must be a date YYYY-MM-DD, got %q", start).WithDetail("field", "start")
	}
	b, err := time.Parse(model.DateLayout, end)
	if err != nil {
		return model.Period{}, apperr.E(apperr.Validation, "end must be a date YYYY-MM-DD, got %q", end).WithDetail("field", "end")
	}
	if b.Before(a) {
		return model.Period{}, apperr.E(apperr.Validation, "end %s is before start %s", end, start).WithDetail("field", "end")
	}
	if b.Sub(a) > 3*366*24*time.Hour {
		return model.Period{}, apperr.E(apperr.Validation, "the period may span at most three years").WithDetail("field", "end")
	}
	return model.Period{Start: a, End: b.Add(24*time.Hour - time.Second)}, nil
}

// ParseTagFilter splits "key:value". No cloud allows a backslash or a
// control character in a tag key, so a key with one is refused here
// rather than reaching the store's JSON path.
func ParseTagFilter(tag string) (string, string, error) {
	if tag == "" {
		return "", "", nil
	}
	if err := CheckLen("tag", tag, MaxFilterLen); err != nil {
		return "", "", err
	}
	k, v, ok := strings.Cut(tag, ":")
	if !ok || k == "" {
		return "", "", apperr.E(apperr.Validation, "tag filter must be key:value, got %q", tag).WithDetail("field", "tag")
	}
	if !utf8.ValidString(tag) || strings.ContainsFunc(k, func(r rune) bool { return r == '\\' || unicode.IsControl(r) }) {
		return "", "", apperr.E(apperr.Validation, "tag filter key %q holds a backslash, a control character or invalid UTF-8", k).WithDetail("field", "tag")
	}
	return k, v, nil
}

// queryScope is the providers and the history scope of a cost query: its
// enabled providers (those its filters allow), its filters and its period.
// It reads what is stored: refreshing is the background loop's job.
func (s *Service) queryScope(ctx context.Context, q model.CostQuery) ([]model.ProviderKey, store.Scope, error) {
	keys, err := s.providers(q.Provider)
	if err != nil {
		return nil, store.Scope{}, err
	}
	// A provider filter names a cloud or a provider with history: a typo
	// is an error, not an empty answer.
	for _, f := range q.Filters {
		if f.Dim != model.DimProvider {
			continue
		}
		for _, v := range f.Values {
			if err := apperr.OneOf("provider", model.ProviderKey(v), s.knownProviders()); err != nil {
				return nil, store.Scope{}, err
			}
		}
	}
	keys = filterProviders(keys, q.Filters)
	sc := s.scope(ctx, keys)
	sc.Account, sc.Service, sc.TagKey, sc.TagValue, sc.Filters = q.Account, q.Service, q.TagKey, q.TagValue, q.Filters
	sc.From, sc.To = q.Period.FirstDay(), q.Period.LastDay()
	return keys, sc, nil
}

// AnalyzeCosts is GET /api/costs: totals, per-provider
// totals, service breakdown, resources and daily costs over the period,
// from the stored history of each enabled provider's source.
func (s *Service) AnalyzeCosts(ctx context.Context, q model.CostQuery) (model.CostAnalysis, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.CostAnalysis{}, err
	}
	if q.Period.End.IsZero() {
		q.Period.End = s.now()
	}
	if q.Period.Start.IsZero() {
		q.Period.Start = q.Period.End.AddDate(0, 0, -30)
	}
	if q.Period.End.Before(q.Period.Start) {
		return model.CostAnalysis{}, apperr.E(apperr.Validation, "end_date is before start_date").WithDetail("field", "end_date")
	}
	if q.Metric == "" {
		q.Metric = s.cfg.Analysis.CostMetric
	}
	if err := apperr.OneOf("metric", q.Metric, model.CostMetrics); err != nil {
		return model.CostAnalysis{}, err
	}
	keys, sc, err := s.queryScope(ctx, q)
	if err != nil {
		return model.CostAnalysis{}, err
	}
	// One converter for both spans, so the comparison uses the same rates.
	if q.Previous != nil {
		sc.From = q.Previous.FirstDay()
	}
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return model.CostAnalysis{}, err
	}
	sc.From = q.Period.FirstDay()
	var sums analysis.Sums
	if sums.Services, err = s.store.ServiceSums(ctx, sc, q.Metric); err != nil {
		return model.CostAnalysis{}, err
	}
	if sums.Days, err = s.store.DaySums(ctx, sc, q.Metric); err != nil {
		return model.CostAnalysis{}, err
	}
	// A view grouped by resource sums the same per-key history as the top
	// resources: one pass gives both.
	var byResource []store.GroupSum
	if q.Info != nil && q.GroupBy == model.DimResource {
		sums.Resources, sums.ResourceCounts, byResource, err = s.store.ResourceGroupSums(ctx, sc, q.Metric, analysis.MaxResources)
	} else {
		sums.Resources, sums.ResourceCounts, err = s.store.ResourceSums(ctx, sc, q.Metric, analysis.MaxResources)
	}
	if err != nil {
		return model.CostAnalysis{}, err
	}
	a := analysis.Build(keys, sc.Sources, q.Period, q.Metric, sums, conv)
	for _, k := range keys {
		if !k.Cloud() {
			if a.Summary.ProviderNames == nil {
				a.Summary.ProviderNames = map[model.ProviderKey]string{}
			}
			a.Summary.ProviderNames[k] = s.providerName(k)
		}
	}
	if err := s.nameResources(ctx, &a); err != nil {
		return model.CostAnalysis{}, err
	}
	states, err := s.store.SyncStates(ctx)
	if err != nil {
		return model.CostAnalysis{}, err
	}
	extents := map[model.ProviderKey]analysis.Extent{}
	for _, k := range keys {
		e := analysis.Extent{Source: sc.Sources[k]}
		for _, h := range states {
			if h.Provider == k && h.Source == e.Source {
				e.FirstDay, e.Last, e.RefreshedAt = h.FirstDay, h.LastDay, h.SyncedAt
			}
		}
		extents[k] = e
	}
	a.Summary.Notices = analysis.Notices(keys, extents, sc.From, sc.To)
	a.Summary.DataAge = analysis.DataAge(keys, extents)
	if a.Summary.TotalCost == 0 {
		n, err := s.tagFilterNotices(ctx, sc)
		if err != nil {
			return model.CostAnalysis{}, err
		}
		a.Summary.Notices = append(a.Summary.Notices, n...)
	}
	if q.Per != "" {
		if err := s.perUnit(ctx, &a, q, sc, conv); err != nil {
			return model.CostAnalysis{}, err
		}
	}
	if q.Info == nil {
		return a, nil
	}
	if err := s.explore(ctx, &a, q, keys, sc, sums.Days, byResource, conv); err != nil {
		return model.CostAnalysis{}, err
	}
	return a, nil
}

// filterProviders keeps the keys a provider filter names.
func filterProviders(keys []model.ProviderKey, filters []model.Filter) []model.ProviderKey {
	for _, f := range filters {
		if f.Dim != model.DimProvider {
			continue
		}
		var out []model.ProviderKey
		for _, k := range keys {
			if slices.Contains(f.Values, string(k)) {
				out = append(out, k)
			}
		}
		keys = out
	}
	return keys
}

// explore adds what a resolved period brings: the series at its
// granularity, the previous span's totals and the groups. cur, when
// set, is the period's group sums already read.
func (s *Service) explore(ctx context.Context, a *model.CostAnalysis, q model.CostQuery, keys []model.ProviderKey,
	sc store.Scope, days []store.DaySum, cur []store.GroupSum, conv *analysis.Converter) error {
	info := *q.Info
	a.Summary.Period = &info
	if info.Cut {
		a.Summary.Notices = append(a.Summary.Notices, model.Notice{Kind: model.NoticePeriodCut, Providers: []model.ProviderKey{},
			Message: fmt.Sprintf("The range asked for ends on %s, after today: it is cut at today, %s.", info.RequestedEnd, info.End)})
	}
	var per map[model.ProviderKey][]model.DailyPoint
	cs, _ := model.ParseDayNum(sc.From)
	ce, _ := model.ParseDayNum(sc.To)
	a.Summary.Series, per = analysis.Series(days, info.Granularity, period.Span{From: cs, To: ce}, conv)
	for k, pc := range a.Providers {
		pc.Series = per[k]
		if pc.Series == nil {
			pc.Series = []model.DailyPoint{}
		}
		a.Providers[k] = pc
	}
	prev := sc
	prev.From, prev.To = q.Previous.FirstDay(), q.Previous.LastDay()
	services, err := s.store.ServiceSums(ctx, prev, q.Metric)
	if err != nil {
		return err
	}
	ps, _ := model.ParseDayNum(prev.From)
	pe, _ := model.ParseDayNum(prev.To)
	a.Summary.Previous = analysis.Previous(keys, period.Span{From: ps, To: pe}, services, conv)
	if q.GroupBy == "" {
		return nil
	}
	if cur == nil {
		if cur, err = s.store.GroupSums(ctx, sc, q.Metric, q.GroupBy); err != nil {
			return err
		}
	}
	before, err := s.store.GroupSums(ctx, prev, q.Metric, q.GroupBy)
	if err != nil {
		return err
	}
	labels, err := s.groupLabels(ctx, q.GroupBy, cur, before)
	if err != nil {
		return err
	}
	groups := analysis.Groups(q.GroupBy, cur, before, conv, labels)
	if q.GroupBy.IsK8s() {
		if err := s.k8sNotice(ctx, a, sc, conv); err != nil {
			return err
		}
	}
	// Monthly series are read by month: for most groupings a month costs
	// one key_month row per line key instead of its facts.
	groupDays := s.store.GroupDaySums
	if info.Granularity == model.GranularityMonth {
		groupDays = s.store.GroupMonthSums
	}
	gdays, err := groupDays(ctx, sc, q.Metric, q.GroupBy, analysis.SeriesKeys(groups))
	if err != nil {
		return err
	}
	analysis.AddGroupSeries(q.GroupBy, groups, gdays, info.Granularity, conv)
	a.Summary.GroupBy, a.Summary.Groups = q.GroupBy, groups
	return nil
}

func (s *Service) converter(ctx context.Context, sc store.Scope) (*analysis.Converter, error) {
	curs, err := s.store.Currencies(ctx, sc)
	if err != nil {
		return nil, err
	}
	if len(curs) == 0 {
		curs = []string{s.cfg.Currency.Base}
	}
	return analysis.NewConverter(curs, s.cfg.Currency.Base, s.cfg.Currency.Rates)
}

// DailySeries returns each provider's daily cost over the inclusive days
// [from, to], one value per day (0 where a day has no data), in the
// report currency. Forecasts and anomaly detection work on it.
func (s *Service) DailySeries(ctx context.Context, from, to string, metric model.CostMetric) (map[model.ProviderKey][]float64, string, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, "", err
	}
	keys, err := s.providers("")
	if err != nil {
		return nil, "", err
	}
	sc := s.scope(ctx, keys)
	sc.From, sc.To = from, to
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, "", err
	}
	if metric == "" {
		metric = s.cfg.Analysis.CostMetric
	}
	days, err := s.store.DaySums(ctx, sc, metric)
	if err != nil {
		return nil, "", err
	}
	start, _ := time.Parse(model.DateLayout, from)
	end, _ := time.Parse(model.DateLayout, to)
	n := int(end.Sub(start).Hours()/24) + 1
	out := map[model.ProviderKey][]float64{}
	for _, k := range keys {
		out[k] = make([]float64, n)
	}
	for _, d := range days {
		t, _ := time.Parse(model.DateLayout, d.Day)
		i := int(t.Sub(start).Hours() / 24)
		if i >= 0 && i < n {
			out[d.Provider][i] += conv.Convert(d.Amount, d.Currency)
		}
	}
	return out, conv.Target, nil
}

// accountLabels names account groups; nil for other dimensions.
func (s *Service) accountLabels(ctx context.Context, d model.Dimension) (analysis.Labels, error) {
	if d != model.DimBillingAccount && d != model.DimSubAccount {
		return nil, nil
	}
	names, err := s.AccountNames(ctx)
	if err != nil {
		return nil, err
	}
	return func(key string) string {
		if n := names[key]; n != "" {
			return n + " (" + key + ")"
		}
		return ""
	}, nil
}

// tagFilterNotices names the tag filters of an empty answer that match
// nothing in its scope, with the keys or values that are there.
func (s *Service) tagFilterNotices(ctx context.Context, sc store.Scope) ([]model.Notice, error) {
	var wants []analysis.TagWant
	if sc.TagKey != "" {
		wants = append(wants, analysis.TagWant{Key: sc.TagKey, Values: []string{sc.TagValue}})
	}
	var rest []model.Filter
	for _, f := range sc.Filters {
		if k, ok := f.Dim.TagKey(); ok {
			wants = append(wants, analysis.TagWant{Key: k, Values: f.Values})
			continue
		}
		rest = append(rest, f)
	}
	if len(wants) == 0 {
		return nil, nil
	}
	sc.TagKey, sc.TagValue, sc.Filters = "", "", rest
	known, err := s.store.TagValues(ctx, sc)
	if err != nil {
		return nil, err
	}
	return analysis.TagFilterNotices(wants, known), nil
}
