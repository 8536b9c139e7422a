package service

import (
	"context"

	"github.com/costpilot/costpilot/backend/analysis"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// Resource names come from the store's resource_names table (what the
// exports and the demo call each resource), read for the resources an
// answer holds only: a few hundred ids, not the whole history.

// resourceNames returns the stored names of ids, by id.
func (s *Service) resourceNames(ctx context.Context, ids []string) (map[string]string, error) {
	rn, err := s.store.ResourceNames(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(rn))
	for id, n := range rn {
		out[id] = n.Name
	}
	return out, nil
}

// nameResources sets the name of each resource of a cost analysis.
func (s *Service) nameResources(ctx context.Context, a *model.CostAnalysis) error {
	var ids []string
	for _, pc := range a.Providers {
		for _, r := range pc.Resources {
			ids = append(ids, r.ResourceID)
		}
	}
	names, err := s.resourceNames(ctx, ids)
	if err != nil || len(names) == 0 {
		return err
	}
	for _, pc := range a.Providers {
		for i := range pc.Resources {
			pc.Resources[i].ResourceName = names[pc.Resources[i].ResourceID]
		}
	}
	return nil
}

// nameRows sets the name of each row of a resource page or export.
func (s *Service) nameRows(ctx context.Context, rows []model.ResourceRow) error {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ResourceID
	}
	names, err := s.resourceNames(ctx, ids)
	if err != nil || len(names) == 0 {
		return err
	}
	for i := range rows {
		rows[i].ResourceName = names[rows[i].ResourceID]
	}
	return nil
}

// nameRecommendations sets the name of each recommendation's resource.
func (s *Service) nameRecommendations(ctx context.Context, recs []model.Recommendation) error {
	ids := make([]string, 0, len(recs))
	for _, r := range recs {
		if r.ResourceID != "" {
			ids = append(ids, r.ResourceID)
		}
	}
	names, err := s.resourceNames(ctx, ids)
	if err != nil || len(names) == 0 {
		return err
	}
	for i := range recs {
		if n := names[recs[i].ResourceID]; n != "" {
			recs[i].ResourceName = n
		}
	}
	return nil
}

// groupLabels names the groups of an answer: accounts by their names,
// resources as "name (id)"; nil for other dimensions.
func (s *Service) groupLabels(ctx context.Context, d model.Dimension, sums ...[]store.GroupSum) (analysis.Labels, error) {
	if d != model.DimResource {
		return s.accountLabels(ctx, d)
	}
	var ids []string
	for _, list := range sums {
		for _, g := range list {
			if g.Value != "" {
				ids = append(ids, g.Value)
			}
		}
	}
	names, err := s.resourceNames(ctx, ids)
	if err != nil {
		return nil, err
	}
	return func(key string) string {
		if n := names[key]; n != "" {
			return n + " (" + key + ")"
		}
		return ""
	}, nil
}
