package service

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/analysis"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
	"github.com/costpilot/costpilot/backend/units"
)

// Audit events of business metrics.
const (
	AuditUnitsImport = "units_import"
	AuditUnitsDelete = "units_delete"
)

// UnitsImport is what a units import stored: POST /api/units.
type UnitsImport struct {
	File    string             `json:"file"`
	Metrics []model.UnitMetric `json:"metrics"` // the metrics of the file, as now stored
	Rows    int                `json:"rows"`
}

// ImportUnits stores the business metrics of a units CSV read from r
// (package units: date,metric,value and optional scope columns); name
// labels errors. A bad row fails the whole file, naming its line, and
// nothing is written; values replace those of the same metric and day.
func (s *Service) ImportUnits(ctx context.Context, name string, r io.Reader) (UnitsImport, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return UnitsImport{}, err
	}
	series, err := units.Parse(r, name)
	if err != nil {
		return UnitsImport{}, err
	}
	res := UnitsImport{File: name}
	for _, u := range series {
		res.Rows += len(u.Values)
	}
	res.Metrics, err = s.storeUnits(ctx, series, map[string]any{"file": name, "rows": res.Rows}, func(u units.Series, conflict *store.ScopeConflictError) error {
		return apperr.E(apperr.Validation,
			"%s:%d: metric %q is stored scoped %s, this file scopes it %s: delete the metric first (costpilot units delete %s) or use another name",
			name, u.Line, u.Metric, model.FormatScope(conflict.Stored), model.FormatScope(u.Scope), u.Metric).
			WithDetail("file", name).WithDetail("line", u.Line).WithDetail("field", "metric")
	})
	if err != nil {
		return UnitsImport{}, err
	}
	return res, nil
}

// storeUnits stores series (values replace those of the same metric and
// day) with an audit event of details and the metrics' names, and returns
// the metrics as now stored. A metric stored with another scope is the
// error conflict makes of it.
func (s *Service) storeUnits(ctx context.Context, series []units.Series, details map[string]any,
	conflict func(units.Series, *store.ScopeConflictError) error) ([]model.UnitMetric, error) {
	in := make([]store.UnitSeries, len(series))
	names := make([]string, len(series))
	for i, u := range series {
		in[i] = store.UnitSeries{Metric: u.Metric, Scope: u.Scope, Values: u.Values}
		names[i] = u.Metric
	}
	details["metrics"] = names
	p, _ := PrincipalFrom(ctx)
	ev := s.auditBy(p, AuditUnitsImport, details)
	err := s.store.SaveUnits(ctx, in, Bounded(p.Name(), maxAuditLen), ev.Time, ev)
	var sc *store.ScopeConflictError
	if errors.As(err, &sc) {
		for _, u := range series {
			if u.Metric == sc.Metric {
				return nil, conflict(u, sc)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	_ = s.cache.DeleteBucket(ResultsBucket)
	all, err := s.store.UnitMetrics(ctx)
	if err != nil {
		return nil, err
	}
	var out []model.UnitMetric
	for _, m := range all {
		if slices.Contains(names, m.Name) {
			out = append(out, m)
		}
	}
	return out, nil
}

// UnitMetrics lists the stored business metrics: GET /api/units.
func (s *Service) UnitMetrics(ctx context.Context) ([]model.UnitMetric, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	return s.store.UnitMetrics(ctx)
}

// DeleteUnitMetric removes a business metric and its values.
func (s *Service) DeleteUnitMetric(ctx context.Context, metric string) error {
	if err := s.can(ctx, model.PermChange); err != nil {
		return err
	}
	if err := CheckLen("metric", metric, units.MaxNameLen); err != nil {
		return err
	}
	p, _ := PrincipalFrom(ctx)
	err := s.store.DeleteUnitMetric(ctx, metric, s.auditBy(p, AuditUnitsDelete, map[string]any{"metric": metric}))
	if errors.Is(err, store.ErrNotFound) {
		return apperr.E(apperr.NotFound, "no business metric %q", metric).WithDetail("field", "metric")
	}
	if err == nil {
		_ = s.cache.DeleteBucket(ResultsBucket)
	}
	return err
}

// perUnit sets summary.per_unit: the period's cost within the metric's
// scope (and the query's filters) divided by the metric's units, in
// total and per day, and, for a resolved period, the same for the
// previous span. It only reads.
func (s *Service) perUnit(ctx context.Context, a *model.CostAnalysis, q model.CostQuery, sc store.Scope, conv *analysis.Converter) error {
	pu, err := s.divide(ctx, q, sc, conv)
	if err != nil {
		return err
	}
	if q.Previous != nil {
		prev := sc
		prev.From, prev.To = q.Previous.FirstDay(), q.Previous.LastDay()
		p, err := s.divide(ctx, q, prev, conv)
		if err != nil {
			return err
		}
		pu.Previous = &model.PerUnitPrevious{Start: prev.From, End: prev.To, Units: p.Units, Cost: p.Cost, CostPerUnit: p.CostPerUnit}
	}
	a.Summary.PerUnit = &pu
	return nil
}

// divide is the cost per unit of q.Per over the days of sc.
func (s *Service) divide(ctx context.Context, q model.CostQuery, sc store.Scope, conv *analysis.Converter) (model.PerUnit, error) {
	from, _ := model.ParseDayNum(sc.From)
	to, _ := model.ParseDayNum(sc.To)
	scope, values, err := s.store.UnitValues(ctx, q.Per, from, to)
	if errors.Is(err, store.ErrNotFound) {
		known, lerr := s.store.UnitMetrics(ctx)
		if lerr != nil {
			return model.PerUnit{}, lerr
		}
		return model.PerUnit{}, unknownMetric(q.Per, known)
	}
	if err != nil {
		return model.PerUnit{}, err
	}
	scoped := sc
	scoped.Filters = append(slices.Clone(sc.Filters), units.Filters(scope)...)
	days, err := s.store.DaySums(ctx, scoped, q.Metric)
	if err != nil {
		return model.PerUnit{}, err
	}
	cost := map[model.DayNum]float64{}
	for _, d := range days {
		if n, ok := model.ParseDayNum(d.Day); ok {
			cost[n] += conv.Convert(d.Amount, d.Currency)
		}
	}
	return units.Divide(q.Per, scope, from, to, cost, values), nil
}

// unknownMetric is the error of a per naming no stored metric: it names
// the stored ones.
func unknownMetric(per string, known []model.UnitMetric) error {
	names := make([]string, len(known))
	for i, m := range known {
		names[i] = m.Name
	}
	if len(names) == 0 {
		return apperr.E(apperr.Validation, "no business metric %q: none is stored (costpilot units import FILE.csv)", per).WithDetail("field", "per")
	}
	return apperr.E(apperr.Validation, "no business metric %q: the stored ones are %s", per, strings.Join(names, ", ")).
		WithDetail("field", "per").WithDetail("value", per).WithDetail("allowed", names)
}
