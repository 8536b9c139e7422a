package service

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/provider/demo"
	"github.com/costpilot/costpilot/backend/store"
)

// Anomaly scopes: a provider's total, or one of its services.
const (
	AnomalyProvider = "provider"
	AnomalyService  = "service"
)

// Anomaly decisions.
const (
	AnomalyAcknowledged = "acknowledged"
	AnomalyIgnored      = "ignored"
)

// AuditAnomaly is the audit event of an anomaly decision.
const AuditAnomaly = "anomaly_decision"

const (
	// anomalyHistoryDays bounds how far back the anomaly list looks.
	anomalyHistoryDays = 730
	// serviceMinShare: a service's spike is listed when its excess is at
	// least this share of its provider's usual daily cost, so small
	// services' noise does not fill the list.
	serviceMinShare = 0.02
	// maxResourceDrivers is how many resources an anomaly's detail names.
	maxResourceDrivers = 5
)

// AnomalyView is one anomaly of the list: GET /api/anomalies.
type AnomalyView struct {
	ID       string            `json:"id"`
	Scope    string            `json:"scope"` // provider | service
	Provider model.ProviderKey `json:"provider"`
	Service  string            `json:"service,omitempty"`
	Day      string            `json:"day"`
	Actual   float64           `json:"actual"`
	Expected float64           `json:"expected"`
	Upper    float64           `json:"upper"`
	Score    float64           `json:"score"`
	Drivers  []monitor.Driver  `json:"drivers"`
	Decision *AnomalyDecision  `json:"decision,omitempty"`
	// Suppressed: an ignored pattern covers it, so it does not alert.
	Suppressed bool `json:"suppressed"`
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

func anomalyID(p model.ProviderKey, day, service string) string {
	id := "anomaly:" + string(p) + ":" + day
	if service != "" {
		id += ":" + service
	}
	return id
}

func topDriver(a monitor.Anomaly) string {
	if len(a.Drivers) > 0 {
		return a.Drivers[0].Service
	}
	return ""
}

// decisions are the stored anomaly decisions.
type decisions map[string]store.AnomalyDecision

func (s *Service) anomalyDecisions(ctx context.Context) (decisions, error) {
	list, err := s.store.AnomalyDecisions(ctx)
	if err != nil {
		return nil, err
	}
	out := decisions{}
	for _, d := range list {
		out[d.ID] = d
	}
	return out, nil
}

func (ds decisions) of(id string) (store.AnomalyDecision, bool) {
	d, ok := ds[id]
	return d, ok
}

// suppresses reports whether an ignored pattern covers anomalies of
// provider p driven by service.
func (ds decisions) suppresses(p model.ProviderKey, service string) bool {
	if service == "" {
		return false
	}
	for _, d := range ds {
		if d.Action == AnomalyIgnored && d.Service == service && d.Provider == string(p) {
			return true
		}
	}
	return false
}

func (ds decisions) view(v *AnomalyView) {
	if d, ok := ds[v.ID]; ok {
		v.Decision = &AnomalyDecision{Action: d.Action, Reason: d.Reason, Pattern: d.Service != "", Service: d.Service,
			By: d.DecidedBy, At: d.DecidedAt}
	}
	svc := v.Service
	if v.Scope == AnomalyProvider && len(v.Drivers) > 0 {
		svc = v.Drivers[0].Service
	}
	v.Suppressed = ds.suppresses(v.Provider, svc)
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
		ser := series[k]
		pts := make([]model.DailyPoint, len(ser.Total))
		for i, v := range ser.Total {
			pts[i] = model.DailyPoint{Date: from.AddDate(0, 0, i).Format(model.DateLayout), Cost: v}
		}
		out.Series[k] = pts
		for _, a := range monitor.DetectAnomalies(*ser, opt) {
			out.Anomalies = append(out.Anomalies, viewOf(a, AnomalyProvider, ""))
		}
		floor := serviceMinShare * monitor.Median(ser.Total)
		for name, v := range ser.Services {
			one := monitor.DailySeries{Provider: k, Start: from, Total: v}
			for _, a := range monitor.DetectAnomalies(one, opt) {
				if a.Actual-a.Expected >= floor {
					out.Anomalies = append(out.Anomalies, viewOf(a, AnomalyService, name))
				}
			}
		}
	}
	for i := range out.Anomalies {
		ds.view(&out.Anomalies[i])
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
	v := AnomalyView{ID: anomalyID(a.Provider, a.Day, service), Scope: scope, Provider: a.Provider, Service: service,
		Day: a.Day, Actual: a.Actual, Expected: a.Expected, Upper: a.Upper, Score: a.Score, Drivers: a.Drivers}
	if v.Drivers == nil {
		v.Drivers = []monitor.Driver{}
	}
	return v
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
	if svc == "" || svc == "(no service)" {
		return d, nil
	}
	day, _ := time.Parse(model.DateLayout, a.Day)
	const weeks = 8
	sc := s.scope(ctx, []model.ProviderKey{a.Provider})
	sc.Service = svc
	sc.From, sc.To = day.AddDate(0, 0, -7*weeks).Format(model.DateLayout), a.Day
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return d, err
	}
	sums, err := s.store.ResourceDaySums(ctx, sc, s.cfg.Analysis.CostMetric)
	if err != nil {
		return d, err
	}
	// Per resource: the day's cost and the same weekday's before.
	type hist struct {
		day  float64
		prev map[string]float64
	}
	byRes := map[string]*hist{}
	for _, x := range sums {
		if x.ResourceID == "" {
			continue
		}
		t, err := time.Parse(model.DateLayout, x.Day)
		if err != nil || int(day.Sub(t).Hours()/24)%7 != 0 {
			continue
		}
		h := byRes[x.ResourceID]
		if h == nil {
			h = &hist{prev: map[string]float64{}}
			byRes[x.ResourceID] = h
		}
		v := conv.Convert(x.Amount, x.Currency)
		if x.Day == a.Day {
			h.day += v
		} else {
			h.prev[x.Day] += v
		}
	}
	for id, h := range byRes {
		base := make([]float64, weeks) // a week without cost counts as zero
		for w := 1; w <= weeks; w++ {
			base[w-1] = h.prev[day.AddDate(0, 0, -7*w).Format(model.DateLayout)]
		}
		med := monitor.Median(base)
		if ex := h.day - med; ex > 0 {
			d.Resources = append(d.Resources, ResourceDriver{ResourceID: id, Actual: h.day, Expected: med, Excess: ex})
		}
	}
	sort.Slice(d.Resources, func(i, j int) bool {
		if d.Resources[i].Excess != d.Resources[j].Excess {
			return d.Resources[i].Excess > d.Resources[j].Excess
		}
		return d.Resources[i].ResourceID < d.Resources[j].ResourceID
	})
	if len(d.Resources) > maxResourceDrivers {
		d.Resources = d.Resources[:maxResourceDrivers]
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
	switch r.Action {
	case AnomalyAcknowledged, AnomalyIgnored, "open":
	default:
		return AnomalyView{}, apperr.OneOf("action", r.Action, []string{AnomalyAcknowledged, AnomalyIgnored, "open"})
	}
	if r.Action != "open" && strings.TrimSpace(r.Reason) == "" {
		return AnomalyView{}, apperr.E(apperr.Validation, "a decision about an anomaly needs a reason").WithDetail("field", "reason")
	}
	if utf8.RuneCountInString(r.Reason) > maxReasonRunes {
		return AnomalyView{}, apperr.E(apperr.Validation, "reason is longer than %d characters", maxReasonRunes).WithDetail("field", "reason")
	}
	if r.Pattern && r.Action != AnomalyIgnored {
		return AnomalyView{}, apperr.E(apperr.Validation, "only an ignored anomaly sets a pattern").WithDetail("field", "pattern")
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
