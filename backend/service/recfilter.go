package service

import (
	"context"
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
	// State is open (the default), dismissed, snoozed, done or all.
	State string `json:"state,omitempty"`
}

// Validate checks each field against its allowed values, naming them.
func (f RecommendationFilter) Validate() error {
	for _, c := range []struct {
		field, v string
		allowed  []string
	}{
		{"type", f.Type, model.Names(model.RecommendationTypes)},
		{"priority", f.Priority, model.Names(model.Priorities)},
		{"state", f.State, append(model.Names(model.RecStates), "all")},
	} {
		if c.v == "" {
			continue
		}
		if err := apperr.OneOf(c.field, c.v, c.allowed); err != nil {
			return err
		}
	}
	return checkProviderKey("provider", f.Provider)
}

// checkProviderKey accepts "", a cloud or the form of an imported
// provider's key (whether it has history is the reads' business: one
// without matches nothing).
func checkProviderKey[T ~string](field string, v T) error {
	if v == "" || model.ProviderKey(v).Valid() {
		return nil
	}
	allowed := append(model.Names(model.AllProviders), "an imported provider's key (lower-case letters, digits and -)")
	return apperr.E(apperr.Validation, "%s must be one of %s, got %q", field, strings.Join(allowed, ", "), string(v)).
		WithDetail("field", field).WithDetail("allowed", allowed).WithDetail("value", string(v))
}

// Match reports whether r passes the filter.
func (f RecommendationFilter) Match(r model.Recommendation) bool {
	state := model.RecOpen
	if r.Lifecycle != nil {
		state = r.Lifecycle.State
	}
	want := f.State
	if want == "" {
		want = string(model.RecOpen)
	}
	return (f.Type == "" || string(r.Type) == f.Type) && (f.Provider == "" || string(r.Provider) == f.Provider) &&
		(f.Priority == "" || string(r.Priority) == f.Priority) && (want == "all" || string(state) == want)
}

// Recommendations is every recommendation with its lifecycle, narrowed by
// a filter (open ones unless it asks for another state).
func (s *Service) Recommendations(ctx context.Context, f RecommendationFilter) ([]model.Recommendation, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	recs, err := s.allRecommendations(ctx)
	if err != nil {
		return nil, err
	}
	out := []model.Recommendation{}
	for _, r := range recs {
		// A decision about a left-out demo provider's recommendation
		// stays stored, and is not shown beside real data either.
		if f.Match(r) && !s.demoHidden(r.Provider) {
			out = append(out, r)
		}
	}
	return out, s.nameRecommendations(ctx, out)
}
