package service

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/anomaly"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/forecast"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/provider/demo"
	"github.com/costpilot/costpilot/backend/store"
	"github.com/costpilot/costpilot/backend/units"
)

// Alert tuning.
const (
	// deliveryClaimTTL: a delivery claimed this long ago and never
	// finished (a crashed sender) may be tried again.
	deliveryClaimTTL = 10 * time.Minute
)

// Alerts is get_alerts: budgets crossed by actual spend or heading past
// a threshold by the period end, cost anomalies with the services that
// drove them, failing providers, and stale data. Each alert has a stable
// id: evaluating again gives the same ids for the same conditions.
func (s *Service) Alerts(ctx context.Context) ([]model.Alert, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	keys, err := s.providers("")
	if err != nil {
		return nil, err
	}
	details, err := s.ProviderDetails(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := monitor.ProviderAlerts(details, yesterday(now), now)
	st, err := s.BudgetStatuses(ctx)
	if err != nil {
		return nil, err
	}
	for _, b := range st {
		out = append(out, b.Alerts(now)...)
	}
	opt := monitor.AnomalyOptions{}
	anomalies, namespaces, cur, err := s.anomalies(ctx, keys, opt)
	if err != nil {
		return nil, err
	}
	decided, err := s.anomalyDecisions(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range anomalies {
		// Acknowledged and ignored anomalies, and those an ignored
		// pattern covers, no longer alert.
		if decided.Silences(a) {
			continue
		}
		out = append(out, a.Alert(cur))
	}
	for _, f := range namespaces {
		if _, ok := decided.Of(anomaly.NamespaceID(f.Provider, f.Day, f.Namespace)); !ok {
			out = append(out, anomaly.NamespaceAlert(f, cur))
		}
	}
	to := demo.Today(now).AddDate(0, 0, -1)
	perUnit, err := s.perUnitAnomalies(ctx, keys, to.AddDate(0, 0, -(opt.HistoryDays()-1)), to, opt)
	if err != nil {
		return nil, err
	}
	for _, p := range perUnit {
		if _, ok := decided.Of(anomaly.PerUnitID(p.Metric, p.Day)); !ok {
			out = append(out, p.Alert(cur))
		}
	}
	out = dedupe(out)
	monitor.SortAlerts(out)
	if out == nil {
		out = []model.Alert{} // [] in JSON, not null
	}
	return out, nil
}

// BudgetStatuses measures every budget (the config file's and those made
// in the dashboard) against the spend of its current period (up to
// yesterday, the newest billed day) and against that spend plus the
// forecast to the period end. A budget whose scope names a provider that
// is not enabled is left out.
func (s *Service) BudgetStatuses(ctx context.Context) ([]monitor.BudgetStatus, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	views, err := s.Budgets(ctx)
	if err != nil {
		return nil, err
	}
	var out []monitor.BudgetStatus
	for _, v := range views {
		if v.Measured {
			out = append(out, v.Status)
		}
	}
	return out, nil
}

func (s *Service) budgetStatus(ctx context.Context, b config.Budget, today, yday time.Time) (monitor.BudgetStatus, string, error) {
	period, err := monitor.CurrentPeriod(b.Period, today)
	if err != nil {
		return monitor.BudgetStatus{}, "", err
	}
	keys, err := s.providers("")
	if err != nil {
		return monitor.BudgetStatus{}, "", err
	}
	if b.Scope.Provider != "" {
		found := false
		for _, k := range keys {
			found = found || k == b.Scope.Provider
		}
		if !found {
			return monitor.BudgetStatus{}, UnmeasuredProviderOff, nil
		}
		keys = []model.ProviderKey{b.Scope.Provider}
	}
	// The budget's forecast is the forecast view of its scope: the same
	// history window and the same model as ForecastView, so a budget and
	// the Forecast page filtered to its scope show the same number.
	histFrom, _ := time.Parse(model.DateLayout, demoDay(s.now(), -forecastHistory))
	w := budgetWindow{from: histFrom, histFrom: histFrom, period: period, yday: yday, level: s.cfg.Forecast.Interval}
	if period.Start.Before(w.from) {
		w.from = period.Start
	}
	var extra []model.Filter
	var unitSeries []float64
	if b.Per != "" {
		scope, values, err := s.store.UnitValues(ctx, b.Per, model.DayOf(w.from), model.DayOf(yday))
		if errors.Is(err, store.ErrNotFound) {
			return monitor.BudgetStatus{}, UnmeasuredNoMetric, nil
		}
		if err != nil {
			return monitor.BudgetStatus{}, "", err
		}
		// A scoped metric divides only the costs of its scope, as
		// analyze --per does.
		extra = units.Filters(scope)
		unitSeries = make([]float64, int(yday.Sub(w.from).Hours()/24)+1)
		for d, v := range values {
			if i := int(d - model.DayOf(w.from)); i >= 0 && i < len(unitSeries) {
				unitSeries[i] = v
			}
		}
	}
	series, cur, err := s.scopedSeries(ctx, keys, b.Scope, extra, w.from, yday)
	if err != nil {
		return monitor.BudgetStatus{}, "", err
	}
	actual, ahead, hasForecast, err := w.project(series)
	if err != nil {
		return monitor.BudgetStatus{}, "", err
	}
	if b.Per == "" {
		return monitor.EvaluateBudget(b, period, actual, actual+ahead, hasForecast, s.cfg.Alerts.Thresholds, cur), "", nil
	}
	// A budget on cost per unit: the period's cost over its units so
	// far, and with both forecast to the period's end.
	n, nAhead, unitsForecast, err := w.project(unitSeries)
	if err != nil {
		return monitor.BudgetStatus{}, "", err
	}
	if n <= 0 {
		return monitor.BudgetStatus{}, UnmeasuredNoUnits, nil
	}
	projected := actual / n
	hasForecast = hasForecast && unitsForecast && n+nAhead > 0
	if hasForecast {
		projected = (actual + ahead) / (n + nAhead)
	}
	st := monitor.EvaluateBudget(b, period, actual/n, projected, hasForecast, s.cfg.Alerts.Thresholds, cur)
	st.Cost, st.Units = actual, n
	return st, "", nil
}

// Why a budget has no status (BudgetView.Unmeasured).
const (
	UnmeasuredProviderOff = "provider off" // its scope names a provider that is not enabled
	UnmeasuredNoMetric    = "no metric"    // on cost per unit of a metric not stored
	UnmeasuredNoUnits     = "no units"     // on cost per unit, with no units in its period yet
)

// budgetWindow is the days a budget reads: from the earlier of its
// period's start and the forecast history's (histFrom) to yday, the
// newest billed day.
type budgetWindow struct {
	from, histFrom time.Time
	period         monitor.BudgetPeriod
	yday           time.Time
	level          float64
}

// project sums a daily series (one value per day from w.from) over the
// period so far, and forecasts its total from today to the period's
// end; hasForecast is false with too little history.
func (w budgetWindow) project(series []float64) (actual, ahead float64, hasForecast bool, err error) {
	for i, v := range series {
		if d := w.from.AddDate(0, 0, i); !d.Before(w.period.Start) {
			actual += v
		}
	}
	horizon := int(w.period.End.Sub(w.yday).Hours() / 24)
	hist := series[int(w.histFrom.Sub(w.from).Hours()/24):]
	if f, l := forecast.Span(hist); horizon > 0 && f >= 0 && l-f+1 >= forecast.MinHistory {
		fc, err := forecast.Part(hist, w.histFrom, forecast.Options{Horizon: horizon, Level: w.level})
		if err == nil {
			return actual, fc.TotalMean, true, nil
		}
		if apperr.KindOf(err) != apperr.Validation {
			return 0, 0, false, err
		}
	}
	return actual, 0, false, nil
}

// scopedSeries is the daily cost of keys narrowed by a budget scope over
// the inclusive days [from, to], one value per day, in the base currency.
func (s *Service) scopedSeries(ctx context.Context, keys []model.ProviderKey, bs config.BudgetScope, extra []model.Filter, from, to time.Time) ([]float64, string, error) {
	sc := s.scope(ctx, keys)
	sc.From, sc.To = from.Format(model.DateLayout), to.Format(model.DateLayout)
	sc.Account, sc.Service = bs.Account, bs.Service
	if bs.Category != "" {
		sc.Filters = append(sc.Filters, model.Filter{Dim: model.DimServiceCategory, Values: []string{bs.Category}})
	}
	sc.Filters = append(sc.Filters, extra...)
	if bs.Tag != "" {
		k, v, err := ParseTagFilter(bs.Tag)
		if err != nil {
			return nil, "", err
		}
		sc.TagKey, sc.TagValue = k, v
	}
	for _, f := range []model.Filter{{Dim: model.DimCluster, Values: []string{bs.Cluster}}, {Dim: model.DimNamespace, Values: []string{bs.Namespace}}} {
		if f.Values[0] != "" {
			sc.Filters = append(sc.Filters, f)
		}
	}
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, "", err
	}
	days, err := s.store.DaySums(ctx, sc, s.cfg.Analysis.CostMetric)
	if err != nil {
		return nil, "", err
	}
	n := int(to.Sub(from).Hours()/24) + 1
	out := make([]float64, n)
	for _, d := range days {
		t, err := time.Parse(model.DateLayout, d.Day)
		if err != nil {
			continue
		}
		if i := int(t.Sub(from).Hours() / 24); i >= 0 && i < n {
			out[i] += conv.Convert(d.Amount, d.Currency)
		}
	}
	return out, conv.Target, nil
}

// anomalies checks each provider's newest days for cost spikes against a
// same-weekday median baseline, naming the services that drove each spike,
// and each Kubernetes namespace's where splits are stored. It returns them
// with the currency of the amounts.
func (s *Service) anomalies(ctx context.Context, keys []model.ProviderKey, opt monitor.AnomalyOptions) ([]monitor.Anomaly, []anomaly.Found, string, error) {
	to := demo.Today(s.now()).AddDate(0, 0, -1)
	from := to.AddDate(0, 0, -(opt.HistoryDays() - 1))
	// Days before the history began are not zero-cost days, as the
	// anomalies page has it: they would drag the baselines down.
	if first, ok := s.firstDay(ctx, keys); ok && first.After(from) {
		from = first
	}
	series, cur, err := s.anomalySeries(ctx, keys, from, to)
	if err != nil {
		return nil, nil, "", err
	}
	var out []monitor.Anomaly
	for _, k := range keys {
		out = append(out, monitor.DetectAnomalies(*series[k], opt)...)
	}
	ns, err := s.namespaceAnomalies(ctx, keys, from, to, series, opt)
	return out, ns, cur, err
}

// anomalySeries is each provider's daily cost, in total and per service,
// over the inclusive days [from, to], in the report currency.
func (s *Service) anomalySeries(ctx context.Context, keys []model.ProviderKey, from, to time.Time) (map[model.ProviderKey]*monitor.DailySeries, string, error) {
	sc := s.scope(ctx, keys)
	sc.From, sc.To = from.Format(model.DateLayout), to.Format(model.DateLayout)
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, "", err
	}
	sums, err := s.store.ServiceDaySums(ctx, sc, s.cfg.Analysis.CostMetric)
	if err != nil {
		return nil, "", err
	}
	return anomaly.Series(sums, keys, from, to, conv.Convert), conv.Target, nil
}

// SendResult says what SendAlerts did.
type SendResult struct {
	Enabled   bool     `json:"enabled"` // notifications on and a webhook configured
	Alerts    int      `json:"alerts"`
	Sent      []string `json:"sent"`    // ids delivered now
	Skipped   int      `json:"skipped"` // delivered before, or being sent by another process
	Failed    []string `json:"failed"`  // ids that will be tried again next time
	LastError string   `json:"last_error,omitempty"`
}

// SendAlerts posts the alerts not delivered before to alerts.webhook_url
// as Slack-compatible JSON, when dashboard.features.notifications is on.
// Each alert is delivered once: delivered ids are kept in the store, and a
// failed alert (after retries with backoff) is tried again on the next
// call. The dashboard calls it periodically; `costpilot alerts --send`
// runs it once.
func (s *Service) SendAlerts(ctx context.Context) (SendResult, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return SendResult{}, err
	}
	url := strings.TrimSpace(s.cfg.Alerts.WebhookURL)
	res := SendResult{Enabled: s.cfg.Dashboard.Features.Notifications && url != "", Sent: []string{}, Failed: []string{}}
	if !res.Enabled {
		return res, nil
	}
	alerts, err := s.Alerts(ctx)
	if err != nil {
		return res, err
	}
	res.Alerts = len(alerts)
	hook := &monitor.Webhook{URL: url, AllowMetadata: s.cfg.Outbound.AllowMetadataAddresses}
	target := monitor.RedactURL(url)
	for _, a := range alerts {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		ok, err := s.store.ClaimAlertDelivery(ctx, a.ID, target, deliveryClaimTTL, s.now())
		if err != nil {
			return res, err
		}
		if !ok {
			res.Skipped++
			continue
		}
		sendErr := hook.Send(ctx, a)
		// Record the outcome even if ctx ended mid-send, or the claim
		// would block this alert until it goes stale.
		if err := s.store.FinishAlertDelivery(context.WithoutCancel(ctx), a.ID, target, sendErr, s.now()); err != nil {
			return res, err
		}
		if sendErr != nil {
			res.Failed = append(res.Failed, a.ID)
			res.LastError = sendErr.Error()
			s.log.Warn("alert not delivered; will retry", "id", a.ID, "err", sendErr)
			continue
		}
		res.Sent = append(res.Sent, a.ID)
	}
	if len(res.Failed) > 0 {
		return res, apperr.E(apperr.Base, "%d of %d alerts could not be delivered to the webhook: %s", len(res.Failed),
			len(res.Failed)+len(res.Sent), res.LastError).WithDetail("failed", res.Failed)
	}
	return res, nil
}

func dedupe(as []model.Alert) []model.Alert {
	seen := map[string]bool{}
	out := as[:0]
	for _, a := range as {
		if !seen[a.ID] {
			seen[a.ID] = true
			out = append(out, a)
		}
	}
	return out
}
