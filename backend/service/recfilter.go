package service

import (
	"context"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// RecommendationFilter narrows a recommendation list; empty fields match
// everything. Every front door reads its filters into one and calls
// Recommendations, so the allowed values and their checks live here.
type RecommendationFilter struct {
	Type     string `json:"type,omitempty"`
	Provider string `json:"provider,omitempty"`
	Priority string `json:"priority,omitempty"`
}

var (
	recommendationTypes = []model.RecommendationType{model.RecRightsizing, model.RecIdle, model.RecAutoscaling,
		model.RecCostAllocation, model.RecCommitment}
	priorities = []model.Priority{model.PriorityHigh, model.PriorityMedium, model.PriorityLow}
)

// Validate checks each field against its allowed values, naming them.
func (f RecommendationFilter) Validate() error {
	check := func(field, v string, allowed []string) error {
		if v == "" || slices.Contains(allowed, v) {
			return nil
		}
		return apperr.E(apperr.Validation, "%s must be one of %s, got %q", field, strings.Join(allowed, ", "), v).WithDetail("field", field)
	}
	var types, provs, prios []string
	for _, t := range recommendationTypes {
		types = append(types, string(t))
	}
	for _, p := range model.AllProviders {
		provs = append(provs, string(p))
	}
	for _, p := range priorities {
		prios = append(prios, string(p))
	}
	if err := check("type", f.Type, types); err != nil {
		return err
	}
	if err := check("provider", f.Provider, provs); err != nil {
		return err
	}
	return check("priority", f.Priority, prios)
}

// Match reports whether r passes the filter.
func (f RecommendationFilter) Match(r model.Recommendation) bool {
	return (f.Type == "" || string(r.Type) == f.Type) && (f.Provider == "" || string(r.Provider) == f.Provider) &&
		(f.Priority == "" || string(r.Priority) == f.Priority)
}

// Recommendations is GenerateRecommendations narrowed by a filter.
func (s *Service) Recommendations(ctx context.Context, f RecommendationFilter) ([]model.Recommendation, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	recs, err := s.GenerateRecommendations(ctx)
	if err != nil {
		return nil, err
	}
	out := []model.Recommendation{}
	for _, r := range recs {
		if f.Match(r) {
			out = append(out, r)
		}
	}
	return out, nil
}
