package service

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/provider/demo"
	"github.com/costpilot/costpilot/backend/report"
)

// defaultAllocation is used in comprehensive reports when no rule set is
// saved: departments from the department tag, else the team tag.
var defaultAllocation = model.AllocationRules{Method: "tag_based", Tags: []string{"department", "team"}}

// reportCosts is the cost request of a report: its period (a kind, or
// start and end), its providers and its saved view. A view's own filters
// stay, with the providers added to them.
func (s *Service) reportCosts(ctx context.Context, req model.ReportRequest) (CostRequest, error) {
	r := CostRequest{Period: string(req.Period), Start: req.Start, End: req.End, View: req.View}
	if len(req.Providers) == 0 {
		return r, nil
	}
	enabled, err := s.providers("")
	if err != nil {
		return r, err
	}
	var ps []string
	for _, p := range req.Providers {
		if err := apperr.OneOf("providers", p, s.knownProviders()); err != nil {
			return r, err
		}
		if !slices.Contains(enabled, p) {
			return r, apperr.E(apperr.Validation, "provider %s is not enabled", p).WithProvider(string(p)).WithDetail("field", "providers")
		}
		ps = append(ps, string(p))
	}
	r.Filters = map[string][]string{}
	if req.View != "" {
		v, err := s.View(ctx, req.View)
		if err != nil {
			return r, err
		}
		maps.Copy(r.Filters, v.Spec.Filters)
	}
	r.Filters[string(model.DimProvider)] = ps
	return r, nil
}

// reportData gathers what a report shows: the period's costs (by service
// and by account beside the previous period's, for the top movers), the
// open recommendations, the done ones with their realized savings, the
// budgets, the outlook to the period's end, and for the comprehensive
// report the 30-day forecast and the allocation. recs may be passed in
// when the caller already has them.
func (s *Service) reportData(ctx context.Context, req model.ReportRequest, recs []model.Recommendation) (report.Data, error) {
	t := req.Type
	d := report.Data{Type: t, GeneratedAt: s.now(), Scope: report.Scope{Providers: req.Providers, View: req.View}}
	cr, err := s.reportCosts(ctx, req)
	if err != nil {
		return d, err
	}
	withSummary := t == model.ReportComprehensive || t == model.ReportSummary
	if withSummary {
		cr.GroupBy = string(model.DimService)
	}
	a, err := s.Costs(ctx, cr)
	if err != nil {
		return d, err
	}
	d.Analysis = a
	// The recommendations, the forecast, the tag coverage and the
	// allocation are independent of each other and of the summary's
	// groups: computed at once, a comprehensive report of a fleet takes
	// the time of its longest part rather than of all of them.
	var wg sync.WaitGroup
	var recErr error
	wg.Go(func() { recErr = s.reportRecommendations(ctx, &d, req, recs) })
	wg.Go(func() { s.reportExtras(ctx, &d, cr) })
	err = s.reportSummary(ctx, &d, cr, withSummary)
	wg.Wait()
	if err != nil {
		return d, err
	}
	return d, recErr
}

// reportRecommendations fills the open and the realised recommendations
// in the report's scope (recs when given, else generated) and the
// providers not assessed.
func (s *Service) reportRecommendations(ctx context.Context, d *report.Data, req model.ReportRequest, recs []model.Recommendation) error {
	var err error
	if recs == nil {
		if recs, err = s.GenerateRecommendations(ctx); err != nil {
			return err
		}
	}
	d.Recommendations = report.InScope(recs, d.Analysis, d.Scope)
	d.RecBasis = "Open recommendations as of " + yesterday(s.now()) + ": each is computed from its provider's last " +
		strconv.Itoa(recommendationWindow) + " days with data and says what can be saved from now on, whatever the report's period."
	if d.NotAssessed, err = s.notAssessedIn(ctx, req.Providers); err != nil {
		return err
	}
	done, err := s.Recommendations(ctx, RecommendationFilter{State: string(model.RecDone)})
	if err != nil {
		return err
	}
	d.Realized = report.InScope(done, d.Analysis, d.Scope)
	return nil
}

// reportSummary fills the summary's groups by service and account, the
// budgets and the outlook.
func (s *Service) reportSummary(ctx context.Context, d *report.Data, cr CostRequest, withSummary bool) error {
	if !withSummary {
		return nil
	}
	a := d.Analysis
	d.ServiceGroups = a.Summary.Groups
	cr.GroupBy = string(model.DimSubAccount)
	acc, err := s.Costs(ctx, cr)
	if err != nil {
		return err
	}
	d.AccountGroups = acc.Summary.Groups
	if d.Budgets, err = s.reportBudgets(ctx, a); err != nil {
		return err
	}
	d.Outlook, d.OutlookNote = s.outlook(ctx, a, d.Scope)
	return nil
}

// reportExtras fills a comprehensive report's forecast, tag coverage and
// allocation; a report without one is still useful, so a failure is
// logged, not fatal.
func (s *Service) reportExtras(ctx context.Context, d *report.Data, cr CostRequest) {
	if d.Type != model.ReportComprehensive {
		return
	}
	a := d.Analysis
	if !d.Scope.Narrowed() && s.periodRunning(a) {
		// A forecast needs 28 days of history. A period that is over
		// gets none: its forecast would be of other days.
		if fc, err := s.ForecastCosts(ctx, 30, true); err == nil {
			d.Forecast = &fc
		} else {
			s.log.Warn("report without forecast", "err", err)
		}
	}
	if !d.Scope.Narrowed() {
		// The report's own period: the coverage of what it shows.
		if q, err := s.CostQuery(cr); err == nil {
			if cov, err := s.TagCoverage(ctx, q.Period); err == nil {
				d.Coverage = &cov
			} else {
				s.log.Warn("report without tag coverage", "err", err)
			}
		}
	}
	rules := defaultAllocation
	if sets, err := s.store.RuleSets(ctx); err == nil && len(sets) > 0 {
		rules = sets[0].Rules
	}
	// The report's period, not the rules' own or the last 30 days.
	if info := a.Summary.Period; info != nil {
		rules.Start, rules.End = info.Start, info.End
	}
	if al, err := s.AllocateCosts(ctx, rules); err == nil {
		d.Allocation = &al
	} else {
		s.log.Warn("report without allocation", "err", err)
	}
}

// periodRunning reports whether the analysed period reaches the last
// complete day: a rolling period, one to date, or a range cut at today. A
// past calendar period (last month, quarter, 12 months) or a range that
// ended earlier is over.
func (s *Service) periodRunning(a model.CostAnalysis) bool {
	info := a.Summary.Period
	if info == nil {
		return true
	}
	switch info.Kind {
	case model.PeriodLastMonth, model.PeriodLastQuarter, model.PeriodLast12Months:
		return false
	}
	return info.End >= yesterday(s.now())
}

// reportBudgets measures every budget as of the report's last day: a
// budget period that has ended by then is its whole actual spend; one
// still running is measured as the Budgets page does, to yesterday with
// the forecast to its end. Budgets of providers the report leaves out are
// left out.
func (s *Service) reportBudgets(ctx context.Context, a model.CostAnalysis) ([]report.Budget, error) {
	views, err := s.budgets(ctx)
	if err != nil || len(views) == 0 {
		return nil, err
	}
	info := a.Summary.Period
	if info == nil {
		return nil, nil
	}
	day, err := time.Parse(model.DateLayout, info.End)
	if err != nil {
		return nil, err
	}
	realYday := demo.Today(s.now()).AddDate(0, 0, -1)
	var out []report.Budget
	for _, v := range views {
		b := v.Status.Budget
		if p := b.Scope.Provider; p != "" {
			if _, ok := a.Providers[p]; !ok {
				continue
			}
		}
		bp, err := monitor.CurrentPeriod(b.Period, day)
		if err != nil {
			return nil, err
		}
		// Measured to the report's last day at most: a quarter's budget in
		// October's report is October's spend, not the quarter to date.
		yday := bp.End
		if realYday.Before(yday) {
			yday = realYday
		}
		if day.Before(yday) {
			yday = day
		}
		st, unmeasured, err := s.budgetStatus(ctx, b, day, yday)
		if err != nil {
			return nil, err
		}
		if unmeasured != "" {
			continue
		}
		scope := budgetScope(b.Scope)
		if b.Per != "" {
			scope = "cost per " + b.Per + " · " + scope
		}
		line := report.Budget{Name: b.Name, Scope: scope, Period: st.Period, Amount: b.Amount,
			Actual: st.Actual, Projected: st.Projected, HasForecast: st.HasForecast, Currency: st.Currency, Per: b.Per}
		if !yday.Before(bp.End) {
			// The budget's period is over: its projection is its actual.
			line.Projected, line.HasForecast = st.Actual, true
		}
		out = append(out, line)
	}
	return out, nil
}

// budgetScope describes what a budget counts.
func budgetScope(sc config.BudgetScope) string {
	var parts []string
	if sc.Provider != "" {
		parts = append(parts, sc.Provider.Name())
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
	if len(parts) == 0 {
		return "all providers"
	}
	return strings.Join(parts, " · ")
}

// outlook forecasts to the end of the report's period: for a period to
// date (month, quarter, year, or a custom range cut at today) the spend
// so far plus the forecast of its remaining days; for rolling days the
// next 30 days. A complete calendar period needs none, and a report
// narrowed to providers or a view gets none, as the forecast covers every
// provider; the note says which.
func (s *Service) outlook(ctx context.Context, a model.CostAnalysis, sc report.Scope) (*report.Outlook, string) {
	o, note := report.PlanOutlook(a.Summary, sc, DefaultDays, MaxDays)
	if o == nil {
		return nil, note
	}
	fc, err := s.ForecastCosts(ctx, o.Days, false)
	if err != nil {
		// Too little history is the usual reason and is worth saying; any
		// other failure is logged, not shown in a document sent around.
		s.log.Warn("report without outlook", "err", err)
		msg := "the forecast failed"
		if e, ok := apperr.As(err); ok && e.Kind == apperr.Validation {
			msg = e.Message
		}
		return nil, "No forecast: " + msg + "."
	}
	o.SetForecast(fc.TotalForecast, fc.ConfidenceInterval)
	return o, ""
}

// notAssessedIn is NotAssessed narrowed to the providers a report asks
// for (all when none).
func (s *Service) notAssessedIn(ctx context.Context, providers []model.ProviderKey) ([]model.NotAssessed, error) {
	g, err := s.generatedSet(ctx)
	if err != nil || len(providers) == 0 {
		return g.NotAssessed, err
	}
	var out []model.NotAssessed
	for _, n := range g.NotAssessed {
		if slices.Contains(providers, n.Provider) {
			out = append(out, n)
		}
	}
	return out, nil
}
