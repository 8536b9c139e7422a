package service

import (
	"context"
	"fmt"

	"github.com/costpilot/costpilot/backend/commitments"
	"github.com/costpilot/costpilot/backend/model"
)

// CommitmentRequest is GET /api/commitments' parameters, the desktop's
// argument and the commitments command's flags: days, or start and end.
type CommitmentRequest struct {
	Days  *int   `json:"days,omitempty"`  // nil: DefaultDays unless Start/End are given
	Start string `json:"start,omitempty"` // inclusive UTC day, YYYY-MM-DD
	End   string `json:"end,omitempty"`
}

// CommitmentPeriod applies a CommitmentRequest's rules (those of a cost
// query's period).
func (s *Service) CommitmentPeriod(r CommitmentRequest) (model.Period, error) {
	q, err := s.CostQuery(CostRequest{Days: r.Days, Start: r.Start, End: r.End})
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
	ps := commitments.Providers{Sources: sc.Sources, Unreported: map[model.ProviderKey]string{}}
	for k, src := range sc.Sources {
		if src == model.SourceAPI {
			ps.Unreported[k] = fmt.Sprintf("not reported: the live %s connector does not read commitment discounts yet; import a billing export (AWS CUR, Azure amortized cost, Google Cloud billing export, FOCUS) to see them", k)
		}
	}
	today, _ := model.ParseDayNum(demoDay(s.now(), 0))
	return commitments.Report(totals, ps, conv.Convert, conv.Target, p, today), nil
}
