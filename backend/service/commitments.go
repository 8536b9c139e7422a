package service

import (
	"context"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/commitments"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/store"
)

// CommitmentRequest is GET /api/commitments' parameters, the desktop's
// argument and the commitments command's flags: a calendar period, days,
// or start and end.
type CommitmentRequest struct {
	Period string `json:"period,omitempty"` // a model.PeriodKind
	Days   *int   `json:"days,omitempty"`   // nil: DefaultDays unless Start/End are given
	Start  string `json:"start,omitempty"`  // inclusive UTC day, YYYY-MM-DD
	End    string `json:"end,omitempty"`
}

// CommitmentPeriod applies a CommitmentRequest's rules (those of a cost
// query's period).
func (s *Service) CommitmentPeriod(r CommitmentRequest) (model.Period, error) {
	q, err := s.CostQuery(CostRequest{Period: r.Period, Days: r.Days, Start: r.Start, End: r.End})
	return q.Period, err
}

// Commitments is GET /api/commitments: per provider and commitment type,
// coverage, utilization, unused cost and effective savings rate over the
// period, and the commitments whose term ends within 90 days, from the
// stored commitment facts of each enabled provider's source.
func (s *Service) Commitments(ctx context.Context, p model.Period) (model.CommitmentReport, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.CommitmentReport{}, err
	}
	keys, err := s.providers("")
	if err != nil {
		return model.CommitmentReport{}, err
	}
	sc := s.scope(ctx, keys)
	p, basis, err := s.commitmentWindow(ctx, sc, p)
	if err != nil {
		return model.CommitmentReport{}, err
	}
	sc.From, sc.To = p.FirstDay(), p.LastDay()
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return model.CommitmentReport{}, err
	}
	rows, err := s.store.CommitmentTotals(ctx, sc)
	if err != nil {
		return model.CommitmentReport{}, err
	}
	totals := make([]commitments.Total, len(rows))
	for i, r := range rows {
		totals[i] = commitments.Total{Provider: r.Provider, Source: r.Source, CommitmentFact: r.CommitmentFact, Days: r.Days}
	}
	ps := commitments.Providers{Sources: sc.Sources, Unreported: map[model.ProviderKey]string{}, CoverageUnknown: map[model.ProviderKey]string{}}
	failed := map[model.ProviderKey]string{}
	for k, src := range sc.Sources {
		if !src.Live() {
			continue
		}
		why, last, noPrice := s.liveCommitments(k)
		// A reason counts only where the period has no facts: those a
		// connector stored are reported whatever happened since.
		ps.Unreported[k], failed[k] = why, last
		if noPrice != "" {
			ps.CoverageUnknown[k] = noPrice
		}
	}
	today, _ := model.ParseDayNum(demoDay(s.now(), 0))
	rep := commitments.Report(totals, ps, conv.Convert, conv.Target, p, today)
	rep.Basis = basis
	for i, r := range rep.Providers {
		if r.Type == "" && r.Reported && failed[r.Provider] != "" {
			note := "partly reported: the days of the last sync have none; " + failed[r.Provider]
			if r.Note != "" {
				note += "; " + r.Note
			}
			rep.Providers[i].Note = note
		}
	}
	return rep, nil
}

// commitmentWindow moves the default period (the DefaultDays days ending
// yesterday, whether asked for or not) back to the last DefaultDays days
// with data when the data ends before yesterday (a monthly delivery, a
// delay, a historical file), and says so in the report's basis; any other
// period is read as asked.
func (s *Service) commitmentWindow(ctx context.Context, sc store.Scope, p model.Period) (model.Period, *model.Basis, error) {
	def, err := s.CommitmentPeriod(CommitmentRequest{})
	if err != nil {
		return p, nil, err
	}
	if !def.Start.Equal(p.Start) || !def.End.Equal(p.End) {
		return p, nil, nil
	}
	ends, err := s.dataEnds(ctx, sc)
	if err != nil {
		return p, nil, err
	}
	var last string
	for _, e := range ends {
		last = max(last, e)
	}
	b := lastDaysWithData(last, p.LastDay(), DefaultDays)
	if b.Reason == "" {
		return p, nil, nil
	}
	from, _ := time.Parse(model.DateLayout, b.From)
	to, _ := time.Parse(model.DateLayout, b.To)
	return model.Period{Start: from, End: to.Add(24*time.Hour - time.Second)}, &b, nil
}

// dataEnds is, per provider of the scope with data, its last day with
// data up to yesterday: the last day of its commitment facts where its
// source stores them (what the Commitments view and the commitment
// recommendation read), else the end of its stored cost history.
func (s *Service) dataEnds(ctx context.Context, sc store.Scope) (map[model.ProviderKey]string, error) {
	yday := yesterday(s.now())
	all := sc
	all.From, all.To = "", yday
	rows, err := s.store.CommitmentTotals(ctx, all)
	if err != nil {
		return nil, err
	}
	out := map[model.ProviderKey]string{}
	for _, r := range rows {
		if r.Day > 0 {
			out[r.Provider] = max(out[r.Provider], r.Day.String())
		}
	}
	stats, err := s.store.Stats(ctx)
	if err != nil {
		return nil, err
	}
	for _, h := range stats {
		if _, done := out[h.Provider]; done || h.LastDay == "" {
			continue
		}
		if src, ok := sc.Sources[h.Provider]; ok && src == h.Source {
			out[h.Provider] = min(h.LastDay, yday)
		}
	}
	return out, nil
}

// lastDaysWithData is the n days ending on last (yesterday), or, when
// the data ends before it (end), the n days ending on end, saying why.
// No data at all (end "") keeps the days ending on last.
func lastDaysWithData(end, last string, n int) model.Basis {
	to, why := last, ""
	if end != "" && end < last {
		to = end
		why = fmt.Sprintf("the data ends on %s, before %s: the last %d days with data", end, last, n)
	}
	t, _ := time.Parse(model.DateLayout, to)
	return model.Basis{From: t.AddDate(0, 0, 1-n).Format(model.DateLayout), To: to, Reason: why}
}

// CommitmentNotesBucket is the cache bucket that remembers, per live
// provider, why its last sync could not read commitment discounts. The
// reason is only an explanation: without it the report still says "not
// reported", with a general reason.
const CommitmentNotesBucket = "commitment_notes"

// commitmentNoteTTL keeps a reason until a later sync replaces it.
const commitmentNoteTTL = 400 * 24 * time.Hour

// liveCommitments says why a live provider's commitments may be missing
// (why), what its last sync said when it could not read them (last, ""
// when it could), and why its commitments have no on-demand price
// (noPrice, "" when they have one). It builds the connector, which calls
// nothing.
func (s *Service) liveCommitments(k model.ProviderKey) (why, last, noPrice string) {
	p, err := s.reg.Build(s.cfg, k, s.creds)
	if err != nil {
		return "not reported: " + err.Error(), "", ""
	}
	cs, ok := p.(provider.CommitmentSource)
	if !ok {
		return fmt.Sprintf("not reported: the live %s connector does not read commitment discounts; import a billing export (AWS CUR, Azure amortized cost, Google Cloud billing export, FOCUS) to see them", k), "", ""
	}
	if c, ok := p.(provider.CoverageSource); ok {
		noPrice = c.CoverageNote()
	}
	if note := cs.CommitmentsNote(); note != "" {
		return "not reported: " + note, "", noPrice
	}
	if v, ok := s.cache.Get(CommitmentNotesBucket, string(k)); ok && len(v) > 0 {
		return "not reported: " + string(v), string(v), noPrice
	}
	return "not reported: no commitment data is stored for this period; a sync reads it with the costs", "", noPrice
}

// noteCommitments remembers why a live sync's batch carries no commitment
// discounts (or forgets it when it carries them), and returns it as the
// sync's warning.
func (s *Service) noteCommitments(k model.ProviderKey, b model.Batch) string {
	if !b.Source.Live() {
		return ""
	}
	_ = s.cache.Put(CommitmentNotesBucket, string(k), []byte(b.CommitmentsNote), commitmentNoteTTL)
	return b.CommitmentsNote
}
