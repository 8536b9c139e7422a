package app

import (
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// defaultDays is the period of an analysis that names none, as GET /api/costs.
const defaultDays = 30

// CostRequest is AnalyzeCosts' input: GET /api/costs' query parameters as
// one object. Days and Start/End are alternatives.
type CostRequest struct {
	Days     int    `json:"days,omitempty"`
	Start    string `json:"start,omitempty"` // inclusive UTC day, YYYY-MM-DD
	End      string `json:"end,omitempty"`
	Metric   string `json:"metric,omitempty"` // billed, effective, list; "" for the configured one
	Provider string `json:"provider,omitempty"`
	Account  string `json:"account,omitempty"`
	Service  string `json:"service,omitempty"`
	Tag      string `json:"tag,omitempty"` // key:value
}

// costQuery decodes a CostRequest with the rules of GET /api/costs.
func costQuery(svc *service.Service, r CostRequest) (model.CostQuery, error) {
	var q model.CostQuery
	var err error
	if r.Start != "" || r.End != "" {
		if r.Days != 0 {
			return q, validation("give either days or start and end, not both", "days")
		}
		if r.Start == "" || r.End == "" {
			return q, validation("start and end go together", "start")
		}
		if q.Period, err = service.PeriodForDates(r.Start, r.End); err != nil {
			return q, err
		}
	} else {
		days := r.Days
		if days == 0 {
			days = defaultDays
		}
		if q.Period, err = svc.PeriodForDays(days); err != nil {
			return q, err
		}
	}
	if q.TagKey, q.TagValue, err = service.ParseTagFilter(r.Tag); err != nil {
		return q, err
	}
	q.Metric, q.Provider = model.CostMetric(r.Metric), model.ProviderKey(r.Provider)
	q.Account, q.Service = r.Account, r.Service
	return q, nil
}
