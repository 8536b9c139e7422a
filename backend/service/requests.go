package service

import (
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Requests as the front doors receive them, and the one place their
// defaults and checks live: the HTTP server, the desktop bindings and the
// CLI each fill a request from their own input and call these.

// DefaultDays is the period of an analysis or forecast that names none.
const DefaultDays = 30

// CostRequest is an analyze_costs query before its rules are applied:
// GET /api/costs' parameters, the desktop's AnalyzeCosts argument, the
// analyze command's flags. Days and Start/End are alternatives.
type CostRequest struct {
	Days     *int   `json:"days,omitempty"`  // nil: DefaultDays unless Start/End are given
	Start    string `json:"start,omitempty"` // inclusive UTC day, YYYY-MM-DD
	End      string `json:"end,omitempty"`
	Metric   string `json:"metric,omitempty"` // billed, effective, list; "" for the configured one
	Provider string `json:"provider,omitempty"`
	Account  string `json:"account,omitempty"`
	Service  string `json:"service,omitempty"`
	Tag      string `json:"tag,omitempty"` // key:value
}

// CostQuery applies a CostRequest's rules: days or start and end (not
// both; start and end together), the days bounds and the tag syntax.
func (s *Service) CostQuery(r CostRequest) (model.CostQuery, error) {
	var q model.CostQuery
	var err error
	if r.Start != "" || r.End != "" {
		if r.Days != nil {
			return q, apperr.E(apperr.Validation, "give either days or start and end, not both").WithDetail("field", "days")
		}
		if r.Start == "" || r.End == "" {
			return q, apperr.E(apperr.Validation, "start and end go together").WithDetail("field", "start")
		}
		if q.Period, err = PeriodForDates(r.Start, r.End); err != nil {
			return q, err
		}
	} else {
		days := DefaultDays
		if r.Days != nil {
			days = *r.Days
		}
		if q.Period, err = s.PeriodForDays(days); err != nil {
			return q, err
		}
	}
	if q.TagKey, q.TagValue, err = ParseTagFilter(r.Tag); err != nil {
		return q, err
	}
	for _, f := range [][2]string{{"provider", r.Provider}, {"account", r.Account}, {"service", r.Service}, {"metric", r.Metric}} {
		if err := CheckLen(f[0], f[1], MaxFilterLen); err != nil {
			return q, err
		}
	}
	// AnalyzeCosts checks the metric and provider values.
	q.Metric, q.Provider = model.CostMetric(r.Metric), model.ProviderKey(r.Provider)
	q.Account, q.Service = r.Account, r.Service
	return q, nil
}

// ForecastRequest is a forecast_costs query before its defaults.
type ForecastRequest struct {
	Days                   *int  `json:"days,omitempty"`                    // nil: DefaultDays
	IncludeRecommendations *bool `json:"include_recommendations,omitempty"` // nil: true
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
