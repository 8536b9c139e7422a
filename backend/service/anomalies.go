package service

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/anomaly"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/provider/demo"
	"github.com/costpilot/costpilot/backend/store"
	"github.com/costpilot/costpilot/backend/units"
)

// Anomaly scopes: a provider's total, one of its services, one
// Kubernetes namespace, or a business metric's cost per unit.
const (
	AnomalyProvider  = anomaly.ScopeProvider
	AnomalyService   = anomaly.ScopeService
	AnomalyNamespace = anomaly.ScopeNamespace
	AnomalyPerUnit   = anomaly.ScopePerUnit
)

// Anomaly decisions.
const (
	AnomalyAcknowledged = anomaly.Acknowledged
	AnomalyIgnored      = anomaly.Ignored
)

// AuditAnomaly is the audit event of an anomaly decision.
const AuditAnomaly = "anomaly_decision"

// anomalyHistoryDays bounds how far back the anomaly list looks.
const anomalyHistoryDays = 730

// AnomalyView is one anomaly of the list: GET /api/anomalies.
type AnomalyView struct {
	ID       string            `json:"id"`
	Scope    string            `json:"scope"` // provider | service | namespace
	Provider model.ProviderKey `json:"provider"`
	Service  string            `json:"service,omitempty"`
	// Namespace: a Kubernetes namespace's spike (over all clusters): its
	// pods' shares of the provider's nodes (docs/kubernetes.md).
	Namespace string           `json:"namespace,omitempty"`
	Day       string           `json:"day"`
	Actual    float64          `json:"actual"`
	Expected  float64          `json:"expected"`
	Upper     float64          `json:"upper"`
	Score     float64          `json:"score"`
	Drivers   []monitor.Driver `json:"drivers"`
	Decision  *AnomalyDecision `json:"decision,omitempty"`
	// PerUnit, for a spike of a business metric's cost per unit (scope
	// per_unit; Actual, Expected and Upper are then costs per unit): that
	// day's cost and units and their usual values.
	PerUnit *AnomalyPerUnitDetail `json:"per_unit,omitempty"`
	// Suppressed: an ignored pattern covers it, so it does not alert.
	Suppressed bool `json:"suppressed"`
}

// AnomalyPerUnitDetail is the cost and units of a cost-per-unit spike's
// day, and their usual values (same-weekday medians of the weeks before).
type AnomalyPerUnitDetail struct {
	Metric     string  `json:"metric"`
	Cost       float64 `json:"cost"`
	Units      float64 `json:"units"`
	UsualCost  float64 `json:"usual_cost"`
	UsualUnits float64 `json:"usual_units"`
}

// AnomalyDecision is what people decided about an anomaly.
type AnomalyDecision struct {
	Action string `json:"action"` // acknowledged | ignored
	Reason string `json:"reason"`
	// Pattern (ignored only): every anomaly of the provider driven by
	// this service stops alerting (a recurring charge, say).
	Pattern bool   `json:"pattern,omitempty"`
	Service string `json:"service,omitempty"`
	By      string `json:"by,omitempty"`
	At      string `json:"at,omitempty"`
}

// AnomalyList is GET /api/anomalies: every anomaly over the history, with
// each provider's daily cost for the chart.
type AnomalyList struct {
	Currency  string                                   `json:"currency"`
	From      string                                   `json:"from"`
	To        string                                   `json:"to"`
	Anomalies []AnomalyView                            `json:"anomalies"`
	Series    map[model.ProviderKey][]model.DailyPoint `json:"series"`
}

// ResourceDriver is a resource whose cost on an anomaly's day rose above
// its own same-weekday baseline.
type ResourceDriver struct {
	ResourceID string  `json:"resource_id"`
	Actual     float64 `json:"actual"`
	Expected   float64 `json:"expected"`
	Excess     float64 `json:"excess"`
}

// AnomalyDetail is GET /api/anomalies/{id}: the anomaly, and the
// resources of its (driving) service that drove it.
type AnomalyDetail struct {
	Anomaly   AnomalyView      `json:"anomaly"`
	Currency  string           `json:"currency"`
	Resources []ResourceDriver `json:"resources"`
}

func (s *Service) anomalyDecisions(ctx context.Context) (anomaly.Decisions, error) {
	list, err := s.store.AnomalyDecisions(ctx)
	if err != nil {
		return nil, err
	}
	return anomaly.DecisionsOf(list), nil
}

// decide fills an anomaly's decision and whether a pattern silences it.
func decide(ds anomaly.Decisions, v *AnomalyView) {
	if d, ok := ds.Of(v.ID); ok {
		v.Decision = &AnomalyDecision{Action: d.Action, Reason: d.Reason, Pattern: d.Service != "", Service: d.Service,
			By: d.DecidedBy, At: d.DecidedAt}
	}
	svc := v.Service
	if v.Scope == AnomalyProvider && len(v.Drivers) > 0 {
		svc = v.Drivers[0].Service
	}
	v.Suppressed = ds.Suppresses(v.Provider, svc)
}

// Anomalies lists every cost spike over the history (up to two years),
// of each provider's total and of each of its services, newest first,
// with the services that drove each, what people decided, and each
// provider's daily cost.
func (s *Service) Anomalies(ctx context.Context) (AnomalyList, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return AnomalyList{}, err
	}
	keys, err := s.providers("")
	if err != nil {
		return AnomalyList{}, err
	}
	to := demo.Today(s.now()).AddDate(0, 0, -1)
	from := to.AddDate(0, 0, -(anomalyHistoryDays - 1))
	if first, ok := s.firstDay(ctx, keys); ok && first.After(from) {
		from = first
	}
	series, cur, err := s.anomalySeries(ctx, keys, from, to)
	if err != nil {
		return AnomalyList{}, err
	}
	ds, err := s.anomalyDecisions(ctx)
	if err != nil {
		return AnomalyList{}, err
	}
	out := AnomalyList{Currency: cur, From: from.Format(model.DateLayout), To: to.Format(model.DateLayout),
		Anomalies: []AnomalyView{}, Series: map[model.ProviderKey][]model.DailyPoint{}}
	opt := monitor.AnomalyOptions{CheckDays: len(series[keys[0]].Total), Lookahead: true}
	for _, k := range keys {
		pts := make([]model.DailyPoint, len(series[k].Total))
		for i, v := range series[k].Total {
			pts[i] = model.DailyPoint{Date: from.AddDate(0, 0, i).Format(model.DateLayout), Cost: v}
		}
		out.Series[k] = pts
	}
	found := anomaly.FindAll(series, keys, opt)
	ns, err := s.namespaceAnomalies(ctx, keys, from, to, series, opt)
	if err != nil {
		return AnomalyList{}, err
	}
	for _, f := range append(found, ns...) {
		v := viewOf(f.Anomaly, f.Scope, f.Service)
		if f.Scope == AnomalyNamespace {
			v.ID, v.Namespace = anomaly.NamespaceID(f.Provider, f.Day, f.Namespace), f.Namespace
		}
		decide(ds, &v)
		out.Anomalies = append(out.Anomalies, v)
	}
	perUnit, err := s.perUnitAnomalies(ctx, keys, from, to, opt)
	if err != nil {
		return AnomalyList{}, err
	}
	for _, p := range perUnit {
		v := viewOf(p.Anomaly, AnomalyPerUnit, "")
		v.ID = anomaly.PerUnitID(p.Metric, p.Day)
		v.PerUnit = &AnomalyPerUnitDetail{Metric: p.Metric, Cost: p.Cost, Units: p.Units, UsualCost: p.UsualCost, UsualUnits: p.UsualUnits}
		decide(ds, &v)
		out.Anomalies = append(out.Anomalies, v)
	}
	sort.Slice(out.Anomalies, func(i, j int) bool {
		a, b := out.Anomalies[i], out.Anomalies[j]
		if a.Day != b.Day {
			return a.Day > b.Day
		}
		return a.ID < b.ID
	})
	return out, nil
}

func viewOf(a monitor.Anomaly, scope, service string) AnomalyView {
	v := AnomalyView{ID: anomaly.ID(a.Provider, a.Day, service), Scope: scope, Provider: a.Provider, Service: service,
		Day: a.Day, Actual: a.Actual, Expected: a.Expected, Upper: a.Upper, Score: a.Score, Drivers: a.Drivers}
	if v.Drivers == nil {
		v.Drivers = []monitor.Driver{}
	}
	return v
}

// namespaceAnomalies finds the spikes of each Kubernetes namespace's
// daily cost, where Kubernetes splits are stored.
func (s *Service) namespaceAnomalies(ctx context.Context, keys []model.ProviderKey, from, to time.Time,
	series map[model.ProviderKey]*monitor.DailySeries, opt monitor.AnomalyOptions) ([]anomaly.Found, error) {
	clusters, err := s.store.K8sClusters(ctx)
	if err != nil || len(clusters) == 0 {
		return nil, err
	}
	sc := s.scope(ctx, keys)
	sc.From, sc.To = from.Format(model.DateLayout), to.Format(model.DateLayout)
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, err
	}
	// The namespaces only: the remainder outside Kubernetes is not asked.
	names, err := s.store.GroupSums(ctx, sc, s.cfg.Analysis.CostMetric, model.DimNamespace)
	if err != nil {
		return nil, err
	}
	var values []string
	for _, g := range names {
		if g.Value != "" && !slices.Contains(values, g.Value) {
			values = append(values, g.Value)
		}
	}
	if len(values) == 0 {
		return nil, nil
	}
	sums, err := s.store.GroupDaySums(ctx, sc, s.cfg.Analysis.CostMetric, model.DimNamespace, values)
	if err != nil {
		return nil, err
	}
	return anomaly.FindNamespaces(anomaly.NamespaceSeries(sums, from, to, conv.Convert), series, keys, opt), nil
}

// perUnitAnomalies checks the daily cost per unit of every stored
// business metric over the inclusive days [from, to]: the cost of the
// metric's scope over its units, as analyze --per divides them.
func (s *Service) perUnitAnomalies(ctx context.Context, keys []model.ProviderKey, from, to time.Time, opt monitor.AnomalyOptions) ([]anomaly.PerUnit, error) {
	metrics, err := s.store.UnitMetrics(ctx)
	if err != nil {
		return nil, err
	}
	var out []anomaly.PerUnit
	for _, m := range metrics {
		if m.LastDay < from.Format(model.DateLayout) {
			continue // no units in the window
		}
		scope, values, err := s.store.UnitValues(ctx, m.Name, model.DayOf(from), model.DayOf(to))
		if err != nil {
			return nil, err
		}
		cost, _, err := s.scopedSeries(ctx, keys, config.BudgetScope{}, units.Filters(scope), from, to)
		if err != nil {
			return nil, err
		}
		n := make([]float64, len(cost))
		for d, v := range values {
			if i := int(d - model.DayOf(from)); i >= 0 && i < len(n) {
				n[i] = v
			}
		}
		out = append(out, anomaly.FindPerUnit(m.Name, from, cost, n, opt)...)
	}
	return out, nil
}

// firstDay is the first day of history of the providers' shown sources.
func (s *Service) firstDay(ctx context.Context, keys []model.ProviderKey) (time.Time, bool) {
	states, err := s.store.SyncStates(ctx)
	if err != nil {
		return time.Time{}, false
	}
	sc := s.scope(ctx, keys)
	first := ""
	for _, h := range states {
		if src, ok := sc.Sources[h.Provider]; ok && src == h.Source && h.FirstDay != "" && (first == "" || h.FirstDay < first) {
			first = h.FirstDay
		}
	}
	t, err := time.Parse(model.DateLayout, first)
	return t, err == nil
}

// findAnomaly finds an anomaly of the list by id.
func (s *Service) findAnomaly(ctx context.Context, id string) (AnomalyView, string, error) {
	if !strings.HasPrefix(id, "anomaly:") {
		id = "anomaly:" + id // the CLI shows ids without the prefix
	}
	list, err := s.Anomalies(ctx)
	if err != nil {
		return AnomalyView{}, "", err
	}
	for _, a := range list.Anomalies {
		if a.ID == id {
			return a, list.Currency, nil
		}
	}
	return AnomalyView{}, "", apperr.E(apperr.NotFound, "no anomaly %q", clipText(id, 120)).WithDetail("field", "id")
}

// Anomaly is one anomaly with the resources that drove it: within its
// service, or for a provider's spike within its top driving service, each
// resource's cost that day against the median of the same weekday over
// the weeks before.
func (s *Service) Anomaly(ctx context.Context, id string) (AnomalyDetail, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return AnomalyDetail{}, err
	}
	a, cur, err := s.findAnomaly(ctx, id)
	if err != nil {
		return AnomalyDetail{}, err
	}
	d := AnomalyDetail{Anomaly: a, Currency: cur, Resources: []ResourceDriver{}}
	svc := a.Service
	if svc == "" && len(a.Drivers) > 0 {
		svc = a.Drivers[0].Service
	}
	if svc == "" || svc == anomaly.NoService {
		return d, nil
	}
	day, _ := time.Parse(model.DateLayout, a.Day)
	sc := s.scope(ctx, []model.ProviderKey{a.Provider})
	sc.Service = svc
	sc.From, sc.To = day.AddDate(0, 0, -7*anomaly.DrillWeeks).Format(model.DateLayout), a.Day
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return d, err
	}
	sums, err := s.store.ResourceDaySums(ctx, sc, s.cfg.Analysis.CostMetric)
	if err != nil {
		return d, err
	}
	for _, r := range anomaly.ResourceDrivers(day, sums, conv.Convert) {
		d.Resources = append(d.Resources, ResourceDriver(r))
	}
	return d, nil
}

// AnomalyDecisionRequest is POST /api/anomalies/{id}/decision.
type AnomalyDecisionRequest struct {
	Action  string `json:"action"` // acknowledged, ignored, or open to undo
	Reason  string `json:"reason"`
	Pattern bool   `json:"pattern,omitempty"` // ignored: also future anomalies of this provider and service
}

// DecideAnomaly records a decision about an anomaly (action "open" takes
// it back); acknowledged and ignored anomalies no longer alert, and an
// ignored pattern silences its provider and service from then on.
func (s *Service) DecideAnomaly(ctx context.Context, id string, r AnomalyDecisionRequest, actor string) (AnomalyView, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return AnomalyView{}, err
	}
	if err := anomaly.CheckDecision(r.Action, r.Reason, r.Pattern, maxReasonRunes); err != nil {
		return AnomalyView{}, err
	}
	a, _, err := s.findAnomaly(ctx, id)
	if err != nil {
		return AnomalyView{}, err
	}
	id = a.ID
	d := store.AnomalyDecision{ID: id, Action: r.Action, Reason: r.Reason, Provider: string(a.Provider),
		DecidedBy: actor, DecidedAt: s.now().UTC().Format(time.RFC3339)}
	if r.Pattern {
		d.Service = a.Service
		if d.Service == "" && len(a.Drivers) > 0 {
			d.Service = a.Drivers[0].Service
		}
		if d.Service == "" {
			return AnomalyView{}, apperr.E(apperr.Validation, "this anomaly has no driving service to make a pattern of").WithDetail("field", "pattern")
		}
	}
	ev := store.AuditEvent{Time: d.DecidedAt, Event: AuditAnomaly, Username: actor, Details: map[string]any{
		"id": id, "action": r.Action, "reason": r.Reason, "pattern_service": d.Service}}
	if err := s.store.DecideAnomaly(ctx, d, ev); err != nil {
		return AnomalyView{}, fmt.Errorf("service: anomaly decision: %w", err)
	}
	a, _, err = s.findAnomaly(ctx, id)
	return a, err
}
