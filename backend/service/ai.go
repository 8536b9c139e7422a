package service

import (
	"context"

	"github.com/costpilot/costpilot/backend/aicost"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// AICosts is GET /api/ai/costs: the AI model usage of a cost request's
// period, providers and filters (or its saved view's), per provider,
// model, project and token kind, with the cost per million tokens
// (package aicost says which lines are AI usage). A budget or anomaly
// check on AI spend is one on the AI provider (provider=anthropic) or on
// the AI service.
func (s *Service) AICosts(ctx context.Context, r CostRequest) (model.AICosts, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.AICosts{}, err
	}
	r, err := s.withView(ctx, r)
	if err != nil {
		return model.AICosts{}, err
	}
	q, err := s.CostQuery(r)
	if err != nil {
		return model.AICosts{}, err
	}
	if q.Period.End.IsZero() {
		q.Period.End = s.now()
	}
	if q.Period.Start.IsZero() {
		q.Period.Start = q.Period.End.AddDate(0, 0, -30)
	}
	if q.Metric == "" {
		q.Metric = s.cfg.Analysis.CostMetric
	}
	if err := apperr.OneOf("metric", q.Metric, model.CostMetrics); err != nil {
		return model.AICosts{}, err
	}
	_, sc, err := s.queryScope(ctx, q)
	if err != nil {
		return model.AICosts{}, err
	}
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return model.AICosts{}, err
	}
	lines, err := s.store.UsageLines(ctx, sc)
	if err != nil {
		return model.AICosts{}, err
	}
	out := aicost.Summarize(lines, q.Metric, conv.Convert, s.providerName)
	out.From, out.To, out.Currency, out.Metric = sc.From, sc.To, conv.Target, q.Metric
	return out, nil
}
