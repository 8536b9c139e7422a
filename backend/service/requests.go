package service

import (
	"slices"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/period"
)

// Requests as the front doors receive them, and the one place their
// defaults and checks live: the HTTP server, the desktop bindings and the
// CLI each fill a request from their own input and call these.

// DefaultDays is the period of an analysis or forecast that names none.
const DefaultDays = 30

// CostRequest is an analyze_costs query before its rules are applied:
// GET /api/costs' parameters, the desktop's AnalyzeCosts argument, the
// analyze command's flags. Days, Start/End and Period are alternatives.
type CostRequest struct {
	Days     *int   `json:"days,omitempty"`  // nil: DefaultDays unless Start/End or Period are given
	Start    string `json:"start,omitempty"` // inclusive UTC day, YYYY-MM-DD
	End      string `json:"end,omitempty"`
	Metric   string `json:"metric,omitempty"` // billed, effective, list; "" for the configured one
	Provider string `json:"provider,omitempty"`
	Account  string `json:"account,omitempty"`
	Service  string `json:"service,omitempty"`
	Tag      string `json:"tag,omitempty"` // key:value
	// Period is a period kind (model.PeriodKinds); "" follows Days or
	// Start/End. Granularity is the series' bucket (default day).
	Period      string `json:"period,omitempty"`
	Granularity string `json:"granularity,omitempty"`
	// GroupBy is a dimension (model.Dimensions, model.K8sDimensions),
	// tag:<key> or label:<key> (a Kubernetes pod label).
	GroupBy string `json:"group_by,omitempty"`
	// Filters maps a filter parameter (FilterParams) to its values; a
	// line passes when it has one of the values of every parameter given.
	Filters map[string][]string `json:"filters,omitempty"`
	// View names a saved view whose period, metric, grouping and filters
	// fill what the request leaves empty.
	View string `json:"view,omitempty"`
	// Per names a business metric to divide the cost by
	// (summary.per_unit); "" for none.
	Per string `json:"per,omitempty"`
}

// FilterParams are the multi-valued filter parameters of a cost query,
// named as the dimensions, plus account (billing account or sub-account)
// and tag (key:value, where value may be model.NoValue for untagged).
var FilterParams = append(append(model.Names(model.Dimensions), string(model.DimAccount), "tag"),
	append(model.Names(model.K8sDimensions), k8sFilterName)...)

// CostQuery applies a CostRequest's rules: days or start and end or a
// period kind (not together), the period's resolution (package period),
// the grouping and filter syntax.
func (s *Service) CostQuery(r CostRequest) (model.CostQuery, error) {
	var q model.CostQuery
	spec := period.Spec{Kind: model.PeriodKind(r.Period), Start: r.Start, End: r.End, Granularity: model.Granularity(r.Granularity)}
	if r.Start != "" || r.End != "" {
		if r.Days != nil {
			return q, apperr.E(apperr.Validation, "give either days or start and end, not both").WithDetail("field", "days")
		}
		if r.Start == "" || r.End == "" {
			return q, apperr.E(apperr.Validation, "start and end go together").WithDetail("field", "start")
		}
		if spec.Kind != "" && spec.Kind != model.PeriodCustom {
			return q, apperr.E(apperr.Validation, "start and end make a custom period, not %s", spec.Kind).WithDetail("field", "period")
		}
		spec.Kind = model.PeriodCustom
	} else {
		spec.Days = DefaultDays
		if r.Days != nil {
			if spec.Kind != "" && spec.Kind != model.PeriodDays {
				return q, apperr.E(apperr.Validation, "days goes with the period days, not %s", spec.Kind).WithDetail("field", "period")
			}
			spec.Days = *r.Days
		}
		if spec.Kind == model.PeriodCustom {
			return q, apperr.E(apperr.Validation, "a custom period needs start and end").WithDetail("field", "start")
		}
	}
	res, err := period.Resolve(s.now(), spec)
	if err != nil {
		return q, err
	}
	q.Period = dayPeriod(res.Current)
	prev := dayPeriod(res.Previous)
	q.Info, q.Previous = &res.Info, &prev
	if r.GroupBy != "" {
		q.GroupBy = model.Dimension(r.GroupBy)
		if _, ok := q.GroupBy.TagKey(); !ok && !q.GroupBy.IsK8s() {
			if err := apperr.OneOf("group_by", q.GroupBy, append(slices.Clip(model.Dimensions), model.K8sDimensions...)); err != nil {
				return q, err
			}
		}
	}
	if q.TagKey, q.TagValue, err = ParseTagFilter(r.Tag); err != nil {
		return q, err
	}
	if err := CheckLen("metric", r.Metric, MaxFilterLen); err != nil {
		return q, err
	}
	if q.Filters, err = costFilters(r.Filters); err != nil {
		return q, err
	}
	// AnalyzeCosts checks the metric and provider values.
	q.Metric, q.Provider = model.CostMetric(r.Metric), model.ProviderKey(r.Provider)
	q.Account, q.Service = r.Account, r.Service
	if err := CheckLen("per", r.Per, MaxFilterLen); err != nil {
		return q, err
	}
	q.Per = strings.TrimSpace(r.Per)
	return q, nil
}

// dayPeriod is the period of a span of whole days.
func dayPeriod(sp period.Span) model.Period {
	return model.Period{Start: sp.From.Time(), End: sp.To.Time().Add(24*time.Hour - time.Second)}
}

// costFilters reads the filter parameters: each a dimension with values;
// tag values are key:value, grouped per key.
func costFilters(params map[string][]string) ([]model.Filter, error) {
	var out []model.Filter
	tags := map[string][]string{}
	var tagOrder []string
	for _, name := range FilterParams {
		var vals []string
		for _, v := range params[name] {
			if err := CheckLen(name, v, MaxFilterLen); err != nil {
				return nil, err
			}
			if v = strings.TrimSpace(v); v != "" {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			continue
		}
		if name == k8sFilterName {
			byKey := map[string][]string{}
			var keys []string
			for _, v := range vals {
				k, val, err := parseLabelFilter(v)
				if err != nil {
					return nil, err
				}
				if _, seen := byKey[k]; !seen {
					keys = append(keys, k)
				}
				byKey[k] = append(byKey[k], val)
			}
			for _, k := range keys {
				out = append(out, model.Filter{Dim: model.LabelDimension(k), Values: byKey[k]})
			}
			continue
		}
		if name != "tag" {
			if name == string(model.DimProvider) {
				for _, v := range vals {
					if err := checkProviderKey("provider", v); err != nil {
						return nil, err
					}
				}
			}
			out = append(out, model.Filter{Dim: model.Dimension(name), Values: vals})
			continue
		}
		for _, v := range vals {
			k, val, err := ParseTagFilter(v)
			if err != nil {
				return nil, err
			}
			if _, seen := tags[k]; !seen {
				tagOrder = append(tagOrder, k)
			}
			tags[k] = append(tags[k], val)
		}
	}
	for _, k := range tagOrder {
		out = append(out, model.Filter{Dim: model.TagDimension(k), Values: tags[k]})
	}
	for name := range params {
		if !slices.Contains(FilterParams, name) {
			return nil, apperr.Invalid("filter", name, FilterParams)
		}
	}
	return out, nil
}

// ForecastRequest is a forecast_costs query before its defaults.
type ForecastRequest struct {
	Days                   *int  `json:"days,omitempty"`                    // nil: DefaultDays
	IncludeRecommendations *bool `json:"include_recommendations,omitempty"` // nil: true
	// Filters and GroupBy select and group the view as in a CostRequest.
	Filters map[string][]string `json:"filters,omitempty"`
	GroupBy string              `json:"group_by,omitempty"`
}

// ForecastQuery applies a ForecastRequest's defaults and bounds.
func ForecastQuery(r ForecastRequest) (days int, includeRecommendations bool, err error) {
	days = DefaultDays
	if r.Days != nil {
		days = *r.Days
	}
	if days < 1 || days > MaxDays {
		return 0, false, apperr.E(apperr.Validation, "days must be an integer from 1 to %d, got %d", MaxDays, days).WithDetail("field", "days")
	}
	return days, r.IncludeRecommendations == nil || *r.IncludeRecommendations, nil
}

// DefaultRuns and MaxRuns bound how many pipeline runs a listing returns.
const (
	DefaultRuns = 20
	MaxRuns     = 500
)

// RunsLimit applies the runs listing's default and bounds; 0 (or an
// absent limit) is the default.
func RunsLimit(n int) (int, error) {
	if n == 0 {
		return DefaultRuns, nil
	}
	if n < 1 || n > MaxRuns {
		return 0, apperr.E(apperr.Validation, "limit must be from 1 to %d, got %d", MaxRuns, n).WithDetail("field", "limit")
	}
	return n, nil
}

// ReportDefaults fills generate_report's defaults: comprehensive, html.
func ReportDefaults(req model.ReportRequest) model.ReportRequest {
	if req.Type == "" {
		req.Type = model.ReportComprehensive
	}
	if req.Format == "" {
		req.Format = model.FormatHTML
	}
	return req
}
