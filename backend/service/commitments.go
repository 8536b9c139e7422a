package service

import (
	"context"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/commitments"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
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
	if err := s.ensureFresh(ctx, keys); err != nil {
		return model.CommitmentReport{}, err
	}
	sc := s.scope(ctx, keys)
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
