package service

import (
	"context"
	"encoding/json"
	"sort"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/console"
	"github.com/costpilot/costpilot/backend/lifecycle"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// AuditRecState is the audit event of a recommendation state change.
const AuditRecState = "recommendation_state"

const (
	maxReasonRunes = lifecycle.MaxReasonRunes
	// detailDays is the cost history a recommendation's detail shows.
	detailDays = 90
)

// StateChange is a decision about a recommendation: POST
// /api/recommendations/{id}/state, `recommend dismiss|snooze|done|reopen`.
type StateChange struct {
	State  string `json:"state"`            // open, dismissed, snoozed, done
	Reason string `json:"reason,omitempty"` // required to dismiss
	Until  string `json:"until,omitempty"`  // snoozed: YYYY-MM-DD, hidden through that day
}

// Validate checks a change against today's date.
func (c StateChange) Validate(today string) error {
	return lifecycle.Check(c.State, c.Reason, c.Until, today)
}

// GenerateRecommendations is what the product counts: the open
// recommendations (neither dismissed, snoozed nor done), with their
// lifecycle. Totals, the forecast's impact and reports use it.
func (s *Service) GenerateRecommendations(ctx context.Context) ([]model.Recommendation, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	return s.Recommendations(ctx, RecommendationFilter{})
}

// allRecommendations is every generated recommendation with its lifecycle,
// plus the done and dismissed ones no longer generated, with the realized
// savings of done ones.
func (s *Service) allRecommendations(ctx context.Context) ([]model.Recommendation, error) {
	out, err := s.decided(ctx)
	if err != nil {
		return nil, err
	}
	return out, s.addRealized(ctx, out)
}

// decided is the generated recommendations with what people decided
// about them, without the realized savings of the done ones.
func (s *Service) decided(ctx context.Context) ([]model.Recommendation, error) {
	gen, err := s.generated(ctx)
	if err != nil {
		return nil, err
	}
	states, err := s.store.RecStates(ctx)
	if err != nil {
		return nil, err
	}
	return s.merge(gen, states), nil
}

func (s *Service) merge(gen []model.Recommendation, states []store.RecState) []model.Recommendation {
	return lifecycle.Merge(gen, states, demoDay(s.now(), 0), func(id string, err error) {
		s.log.Warn("unreadable stored recommendation", "id", id, "err", err)
	})
}

// addRealized measures the savings of the done recommendations of recs.
func (s *Service) addRealized(ctx context.Context, recs []model.Recommendation) error {
	for i := range recs {
		if lc := recs[i].Lifecycle; lc.State == model.RecDone {
			var err error
			if lc.Realized, err = s.realized(ctx, recs[i], lc.At); err != nil {
				return err
			}
		}
	}
	return nil
}

// SetRecommendationState records a decision about a recommendation, with
// who made it in the audit log, and returns the recommendation as it now
// stands.
func (s *Service) SetRecommendationState(ctx context.Context, id string, c StateChange, actor string) (model.Recommendation, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return model.Recommendation{}, err
	}
	if err := c.Validate(demoDay(s.now(), 0)); err != nil {
		return model.Recommendation{}, err
	}
	all, err := s.decided(ctx)
	if err != nil {
		return model.Recommendation{}, err
	}
	i, err := lifecycle.Find(all, id, func(v string) string { return clipText(v, 80) })
	if err != nil {
		return model.Recommendation{}, err
	}
	r := all[i]
	id = r.ID
	current := r.Lifecycle != nil && r.Lifecycle.Current
	r.Lifecycle = nil
	finding, err := json.Marshal(r)
	if err != nil {
		return model.Recommendation{}, err
	}
	at := s.now().UTC().Format(time.RFC3339)
	st := store.RecState{ID: id, State: c.State, Reason: c.Reason, Until: c.Until, Provider: string(r.Provider),
		Type: string(r.Type), ResourceID: r.ResourceID, Finding: string(finding), ChangedBy: actor, ChangedAt: at}
	ev := store.AuditEvent{Time: at, Event: AuditRecState, Username: actor, Details: map[string]any{
		"id": id, "state": c.State, "reason": c.Reason, "until": c.Until, "resource_id": r.ResourceID, "provider": string(r.Provider)}}
	if err := s.store.SetRecState(ctx, st, ev); err != nil {
		return model.Recommendation{}, err
	}
	// The answer is this one recommendation merged with its new state, as
	// the whole list would show it.
	var gen []model.Recommendation
	if current {
		gen = []model.Recommendation{r}
	}
	var states []store.RecState
	if c.State != string(model.RecOpen) {
		states = []store.RecState{st}
	}
	if one := s.merge(gen, states); len(one) == 1 {
		return one[0], s.addRealized(ctx, one)
	}
	// Reopened and no longer generated: it is gone.
	r.Lifecycle = &model.Lifecycle{State: model.RecOpen}
	return r, nil
}

// realizedScope is the history a recommendation's savings show in: its
// resource, or for a commitment its provider's compute, or for tag
// coverage its provider.
func (s *Service) realizedScope(ctx context.Context, r model.Recommendation) store.Scope {
	sc := s.scope(ctx, []model.ProviderKey{r.Provider})
	if lines := lifecycle.Lines(r); lines != nil {
		sc.Keys = lines
	}
	return sc
}

// realized compares the daily effective cost of a done recommendation's
// scope over the realizedDays before the day it was done with the days
// since (up to realizedDays, through yesterday).
func (s *Service) realized(ctx context.Context, r model.Recommendation, at string) (*model.RealizedSavings, error) {
	w, ok := lifecycle.WindowOf(at, yesterday(s.now()))
	if !ok {
		return nil, nil // no usable date: nothing to measure
	}
	sc := s.realizedScope(ctx, r)
	sc.From, sc.To = w.From, w.To
	days, err := s.store.DaySums(ctx, sc, model.MetricEffective)
	if err != nil {
		return nil, err
	}
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, err
	}
	return w.Realized(days, conv.Convert, conv.Target), nil
}

// RecommendationDetail is one recommendation with what is needed to judge
// it: its scope's daily cost, its resource's daily utilization, and a link
// to the resource in its cloud's console.
type RecommendationDetail struct {
	Recommendation model.Recommendation `json:"recommendation"`
	Currency       string               `json:"currency"`
	DailyCost      []model.DailyPoint   `json:"daily_cost"`
	Utilization    []UtilizationDay     `json:"utilization"`
	ConsoleURL     string               `json:"console_url,omitempty"`
}

// UtilizationDay is a resource's average utilization over a day; Memory
// is negative when unknown.
type UtilizationDay struct {
	Date   string  `json:"date"`
	CPU    float64 `json:"cpu"`
	Memory float64 `json:"memory"`
}

// Recommendation is GET /api/recommendations/{id}.
func (s *Service) Recommendation(ctx context.Context, id string) (RecommendationDetail, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return RecommendationDetail{}, err
	}
	all, err := s.allRecommendations(ctx)
	if err != nil {
		return RecommendationDetail{}, err
	}
	i, err := lifecycle.Find(all, id, func(v string) string { return clipText(v, 80) })
	if err != nil {
		return RecommendationDetail{}, err
	}
	d := RecommendationDetail{Recommendation: all[i], DailyCost: []model.DailyPoint{}, Utilization: []UtilizationDay{}}
	r := all[i]
	sc := s.realizedScope(ctx, r)
	last, _ := model.ParseDayNum(yesterday(s.now()))
	sc.From, sc.To = (last - detailDays + 1).String(), last.String()
	days, err := s.store.DaySums(ctx, sc, model.MetricEffective)
	if err != nil {
		return d, err
	}
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return d, err
	}
	d.Currency = conv.Target
	byDay := map[string]float64{}
	for _, x := range days {
		byDay[x.Day] += conv.Convert(x.Amount, x.Currency)
	}
	for day := last - detailDays + 1; day <= last; day++ {
		d.DailyCost = append(d.DailyCost, model.DailyPoint{Date: day.String(), Cost: byDay[day.String()]})
	}
	inv, err := s.store.Inventory(ctx, r.Provider, s.source(ctx, r.Provider), s.now().AddDate(0, 0, -detailDays))
	if err != nil {
		return d, err
	}
	region := ""
	for _, res := range inv.Resources {
		if res.ResourceID == r.ResourceID {
			region = res.Region
		}
	}
	d.Utilization = dailyUtilization(inv.Utilization, r.ResourceID)
	d.ConsoleURL = console.URL(r.Provider, r.ResourceID, region)
	return d, nil
}

// dailyUtilization averages a resource's hourly samples per day.
func dailyUtilization(samples []model.UtilizationSample, id string) []UtilizationDay {
	type acc struct {
		cpu, mem    float64
		n, memCount int
	}
	days := map[string]*acc{}
	for _, u := range samples {
		if u.ResourceID != id {
			continue
		}
		k := u.Time.UTC().Format(model.DateLayout)
		a := days[k]
		if a == nil {
			a = &acc{}
			days[k] = a
		}
		a.cpu += u.CPU
		a.n++
		if u.Memory >= 0 {
			a.mem += u.Memory
			a.memCount++
		}
	}
	out := make([]UtilizationDay, 0, len(days))
	for k, a := range days {
		u := UtilizationDay{Date: k, CPU: a.cpu / float64(a.n), Memory: -1}
		if a.memCount > 0 {
			u.Memory = a.mem / float64(a.memCount)
		}
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out
}

// clipText shortens user text quoted back in an error.
func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
