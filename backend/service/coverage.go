package service

import (
	"context"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/recommend"
)

// TagCoverage is GET /api/allocation/coverage: the period's usage spend
// split into allocatable (carrying an owner tag) and unallocated, per
// provider, account and owner, month by month, with the tagging worklist.
// It reads the stored history only: refreshing is the background loop's
// and the explicit sync's job.
func (s *Service) TagCoverage(ctx context.Context, p model.Period) (model.TagCoverage, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.TagCoverage{}, err
	}
	keys, err := s.providers("")
	if err != nil {
		return model.TagCoverage{}, err
	}
	lines, err := s.linesIn(ctx, keys, p.FirstDay(), p.LastDay())
	if err != nil {
		return model.TagCoverage{}, err
	}
	metric := s.cfg.Analysis.CostMetric
	out := recommend.TagCoverage(lines, metric)
	out.From, out.To = p.FirstDay(), p.LastDay()
	sc := s.scope(ctx, keys)
	sc.From, sc.To = p.FirstDay(), p.LastDay()
	if conv, err := s.converter(ctx, sc); err == nil {
		out.Currency = conv.Target
	}
	// Month by month: each calendar month the period touches, cut to the
	// period (a partial first or last month says which days).
	first, _ := model.ParseDayNum(p.FirstDay())
	last, _ := model.ParseDayNum(p.LastDay())
	for m := first.Month(); m <= last.Month(); m++ {
		from, to := max(m.First(), first).String(), min(m.Last(), last).String()
		ml, err := s.linesIn(ctx, keys, from, to)
		if err != nil {
			return model.TagCoverage{}, err
		}
		out.Months = append(out.Months, model.CoverageMonth{Month: m.First().String()[:7], From: from, To: to,
			CoverageCell: recommend.CoverageOf(ml, metric)})
	}
	return out, nil
}
