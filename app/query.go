package app

import "github.com/costpilot/costpilot/backend/service"

// CostRequest is AnalyzeCosts' input: GET /api/costs' query parameters as
// one object (the Service's CostRequest applies the rules). Days,
// Start/End and Period are alternatives.
type CostRequest struct {
	Days        int                 `json:"days,omitempty"`
	Start       string              `json:"start,omitempty"` // inclusive UTC day, YYYY-MM-DD
	End         string              `json:"end,omitempty"`
	Metric      string              `json:"metric,omitempty"` // billed, effective, list; "" for the configured one
	Provider    string              `json:"provider,omitempty"`
	Account     string              `json:"account,omitempty"`
	Service     string              `json:"service,omitempty"`
	Tag         string              `json:"tag,omitempty"`    // key:value
	Period      string              `json:"period,omitempty"` // a period kind
	Granularity string              `json:"granularity,omitempty"`
	GroupBy     string              `json:"group_by,omitempty"`
	Filters     map[string][]string `json:"filters,omitempty"` // filter parameter to values
	View        string              `json:"view,omitempty"`
	Per         string              `json:"per,omitempty"` // a business metric: summary.per_unit
}

// request translates the binding's argument, field by field.
// A days of 0 is "not given", as an absent JSON field.
func (r CostRequest) request() service.CostRequest {
	out := service.CostRequest{Start: r.Start, End: r.End, Metric: r.Metric,
		Provider: r.Provider, Account: r.Account, Service: r.Service, Tag: r.Tag, Period: r.Period,
		Granularity: r.Granularity, GroupBy: r.GroupBy, Filters: r.Filters, View: r.View, Per: r.Per}
	if r.Days != 0 {
		out.Days = &r.Days
	}
	return out
}
