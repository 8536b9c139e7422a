package service

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// maxViewName bounds a saved view's name.
const maxViewName = 80

// Views lists the saved views, shared by every user.
func (s *Service) Views(ctx context.Context) ([]model.SavedView, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	return s.store.Views(ctx)
}

// View returns the saved view called name (ignoring case).
func (s *Service) View(ctx context.Context, name string) (model.SavedView, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.SavedView{}, err
	}
	v, err := s.store.View(ctx, strings.TrimSpace(name))
	if errors.Is(err, store.ErrNotFound) {
		return v, apperr.E(apperr.NotFound, "there is no saved view called %q", name).WithDetail("field", "view")
	}
	return v, err
}

// SaveView stores a view after checking that it makes a valid cost query.
// It creates a view, or replaces the spec of one with that name when
// replace is set (PUT); creating a name that exists is a ValidationError.
// by is who saves it, for the record.
func (s *Service) SaveView(ctx context.Context, name string, spec model.ViewSpec, by string, replace bool) (model.SavedView, error) {
	p, err := s.require(ctx, model.PermChange)
	if err != nil {
		return model.SavedView{}, err
	}
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > maxViewName {
		return model.SavedView{}, apperr.E(apperr.Validation, "a view needs a name of 1 to %d characters", maxViewName).WithDetail("field", "name")
	}
	if _, err := s.CostQuery(viewRequest(spec)); err != nil {
		return model.SavedView{}, err
	}
	if replace {
		if _, err := s.View(ctx, name); err != nil {
			return model.SavedView{}, err
		}
	}
	v, err := s.store.SaveView(ctx, name, spec, by, replace, s.auditBy(p, AuditViewSave, map[string]any{"name": name, "replace": replace}))
	if errors.Is(err, store.ErrDuplicate) {
		return v, apperr.E(apperr.Validation, "a view called %q exists already: pick another name or replace it", name).WithDetail("field", "name")
	}
	return v, err
}

// DeleteView removes the saved view called name.
func (s *Service) DeleteView(ctx context.Context, name string) error {
	p, err := s.require(ctx, model.PermChange)
	if err != nil {
		return err
	}
	name = strings.TrimSpace(name)
	err = s.store.DeleteView(ctx, name, s.auditBy(p, AuditViewDelete, map[string]any{"name": name}))
	if errors.Is(err, store.ErrNotFound) {
		return apperr.E(apperr.NotFound, "there is no saved view called %q", name).WithDetail("field", "view")
	}
	return err
}

// viewRequest is the cost request a view makes.
func viewRequest(v model.ViewSpec) CostRequest {
	r := CostRequest{Period: string(v.Period), Start: v.Start, End: v.End, Granularity: string(v.Granularity),
		Metric: string(v.Metric), GroupBy: string(v.GroupBy), Filters: v.Filters}
	if v.Days != 0 {
		r.Days = &v.Days
	}
	return r
}

// withView fills what r leaves empty from the saved view r.View names: a
// request's own period, metric, grouping and filters win.
func (s *Service) withView(ctx context.Context, r CostRequest) (CostRequest, error) {
	if r.View == "" {
		return r, nil
	}
	v, err := s.View(ctx, r.View)
	if err != nil {
		return r, err
	}
	base := viewRequest(v.Spec)
	if r.Days != nil || r.Start != "" || r.End != "" || r.Period != "" {
		base.Days, base.Start, base.End, base.Period = r.Days, r.Start, r.End, r.Period
	}
	if r.Granularity != "" {
		base.Granularity = r.Granularity
	}
	if r.Metric != "" {
		base.Metric = r.Metric
	}
	if r.GroupBy != "" {
		base.GroupBy = r.GroupBy
	}
	base.Provider, base.Account, base.Service, base.Tag, base.Per = r.Provider, r.Account, r.Service, r.Tag, r.Per
	if len(r.Filters) > 0 {
		base.Filters = r.Filters
	}
	return base, nil
}

// Costs is a cost request from a front door: its saved view applied, its
// rules checked (CostQuery), and the analysis.
func (s *Service) Costs(ctx context.Context, r CostRequest) (model.CostAnalysis, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.CostAnalysis{}, err
	}
	r, err := s.withView(ctx, r)
	if err != nil {
		return model.CostAnalysis{}, err
	}
	q, err := s.CostQuery(r)
	if err != nil {
		return model.CostAnalysis{}, err
	}
	return s.AnalyzeCosts(ctx, q)
}

// AccountNames returns account names by id: the config's accounts: map
// over the names stored from exports and live APIs.
func (s *Service) AccountNames(ctx context.Context) (map[string]string, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	names, err := s.store.AccountNames(ctx)
	if err != nil {
		return nil, err
	}
	for id, n := range s.cfg.Accounts {
		names[id] = n
	}
	return names, nil
}

// TagValues lists the tag keys and their values over the lines of the
// enabled providers in the period of r (keys and values merged ignoring
// case), for a tag picker.
func (s *Service) TagValues(ctx context.Context, r CostRequest) (map[string][]string, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	q, err := s.CostQuery(r)
	if err != nil {
		return nil, err
	}
	keys, err := s.providers(q.Provider)
	if err != nil {
		return nil, err
	}
	keys = filterProviders(keys, q.Filters)
	sc := s.scope(ctx, keys)
	sc.From, sc.To = q.Period.FirstDay(), q.Period.LastDay()
	return s.store.TagValues(ctx, sc)
}
