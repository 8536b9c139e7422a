package service

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/analysis"
	"github.com/costpilot/costpilot/backend/forecast"
	"github.com/costpilot/costpilot/backend/model"
)

// otherGroup is the cell group of the view's smaller groups together.
const otherGroup = "\x00other"

// forecastCells reads the daily history of a forecast view over the
// inclusive days [start, end] as forecast cells: one per provider, or,
// grouped by a dimension other than provider, one per provider and each of
// the analysis.SeriesGroups largest groups plus one per provider for the
// rest, so that the cells always add up to the view's total. It returns
// the view's providers, each cell group's key and label, and the currency.
func (s *Service) forecastCells(ctx context.Context, q model.CostQuery, start, end time.Time) ([]forecast.Cell, []model.ProviderKey, map[string]model.GroupForecast, string, error) {
	keys, sc, err := s.queryScope(ctx, q)
	if err != nil {
		return nil, nil, nil, "", err
	}
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, nil, nil, "", err
	}
	metric := s.cfg.Analysis.CostMetric
	n := int(end.Sub(start).Hours()/24) + 1
	index := func(day string) int {
		t, err := time.Parse(model.DateLayout, day)
		if err != nil {
			return -1
		}
		return int(t.Sub(start).Hours() / 24)
	}
	daySums, err := s.store.DaySums(ctx, sc, metric)
	if err != nil {
		return nil, nil, nil, "", err
	}
	per := map[model.ProviderKey][]float64{}
	for _, k := range keys {
		per[k] = make([]float64, n)
	}
	for _, d := range daySums {
		if i := index(d.Day); i >= 0 && i < n && per[d.Provider] != nil {
			per[d.Provider][i] += conv.Convert(d.Amount, d.Currency)
		}
	}
	labels := map[string]model.GroupForecast{}
	if q.GroupBy == "" || q.GroupBy == model.DimProvider {
		cells := make([]forecast.Cell, 0, len(keys))
		for _, k := range keys {
			c := forecast.Cell{Provider: k, Values: per[k]}
			if q.GroupBy != "" {
				c.Group = string(k)
				labels[c.Group] = model.GroupForecast{Key: string(k), Label: string(k)}
			}
			cells = append(cells, c)
		}
		return cells, keys, labels, conv.Target, nil
	}
	sums, err := s.store.GroupSums(ctx, sc, metric, q.GroupBy)
	if err != nil {
		return nil, nil, nil, "", err
	}
	names, err := s.groupLabels(ctx, q.GroupBy, sums)
	if err != nil {
		return nil, nil, nil, "", err
	}
	groups := analysis.Groups(q.GroupBy, sums, nil, conv, names)
	top := analysis.SeriesKeys(groups)
	gdays, err := s.store.GroupDaySums(ctx, sc, metric, q.GroupBy, top)
	if err != nil {
		return nil, nil, nil, "", err
	}
	// Tag values are grouped ignoring case, as the cost view does.
	_, isTag := q.GroupBy.TagKey()
	inTop := map[string]bool{}
	for _, t := range top {
		inTop[t] = true
	}
	others := 0 // groups outside the largest
	for _, g := range groups {
		switch {
		case g.Other > 0:
			others += g.Other
		case inTop[g.Key]:
			labels[g.Key] = model.GroupForecast{Key: g.Key, Label: g.Label}
		default:
			others++
		}
	}
	type cellKey struct {
		p model.ProviderKey
		g string
	}
	vals := map[cellKey][]float64{}
	for _, d := range gdays {
		g, ok := d.Value, inTop[d.Value]
		if !ok && isTag {
			for _, t := range top {
				if strings.EqualFold(t, d.Value) {
					g, ok = t, true
				}
			}
		}
		i := index(d.Day)
		if !ok || i < 0 || i >= n || per[d.Provider] == nil {
			continue
		}
		ck := cellKey{d.Provider, g}
		if vals[ck] == nil {
			vals[ck] = make([]float64, n)
		}
		vals[ck][i] += conv.Convert(d.Amount, d.Currency)
	}
	var cells []forecast.Cell
	for _, k := range keys {
		rest := append([]float64(nil), per[k]...)
		for _, t := range top {
			if v := vals[cellKey{k, t}]; v != nil {
				cells = append(cells, forecast.Cell{Provider: k, Group: t, Values: v})
				for i := range rest {
					rest[i] -= v[i]
				}
			}
		}
		// The rest is the provider's cost outside the largest groups; sums
		// of the same amounts in another order leave crumbs, not cost.
		for i, v := range rest {
			if math.Abs(v) <= 1e-9*math.Max(1, math.Abs(per[k][i])) {
				rest[i] = 0
			}
		}
		if f, _ := forecast.Span(rest); f >= 0 {
			cells = append(cells, forecast.Cell{Provider: k, Group: otherGroup, Values: rest})
		}
	}
	labels[otherGroup] = model.GroupForecast{Key: "", Label: "Other", Other: max(others, 1)}
	return cells, keys, labels, conv.Target, nil
}
