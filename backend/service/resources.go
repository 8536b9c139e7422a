package service

import (
	"context"
	"io"

	"github.com/costpilot/costpilot/backend/analysis"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/report"
)

// Resource pages: DefaultResourcePage rows unless the request asks for
// up to MaxResourcePage.
const (
	DefaultResourcePage = 50
	MaxResourcePage     = 1000
)

// ResourceRequest is GET /api/costs/resources: a cost request (period,
// filters, view) and the page of its resources.
type ResourceRequest struct {
	CostRequest
	Offset int `json:"offset,omitempty"`
	Limit  int `json:"limit,omitempty"` // 0: DefaultResourcePage
}

// CostResources is GET /api/costs/resources: a page of every resource
// with cost in the request's period and scope, most expensive first, with
// how many there are in all. Unlike GET /api/costs, which lists each
// provider's top resources, nothing is left out.
func (s *Service) CostResources(ctx context.Context, r ResourceRequest) (model.ResourcePage, error) {
	if r.Limit == 0 {
		r.Limit = DefaultResourcePage
	}
	if r.Limit < 1 || r.Limit > MaxResourcePage {
		return model.ResourcePage{}, apperr.E(apperr.Validation, "limit must be an integer from 1 to %d, got %d", MaxResourcePage, r.Limit).WithDetail("field", "limit")
	}
	if r.Offset < 0 {
		return model.ResourcePage{}, apperr.E(apperr.Validation, "offset must not be negative, got %d", r.Offset).WithDetail("field", "offset")
	}
	rows, page, err := s.resources(ctx, r.CostRequest)
	if err != nil {
		return model.ResourcePage{}, err
	}
	page.Offset, page.Limit = r.Offset, r.Limit
	from := min(r.Offset, len(rows))
	page.Resources = rows[from:min(from+r.Limit, len(rows))]
	if err := s.nameRows(ctx, page.Resources); err != nil {
		return model.ResourcePage{}, err
	}
	return page, nil
}

// ExportResources writes every resource of the request's period and scope
// to w as CSV, most expensive first, and returns how many it wrote.
func (s *Service) ExportResources(ctx context.Context, r CostRequest, w io.Writer) (int, error) {
	rows, page, err := s.resources(ctx, r)
	if err != nil {
		return 0, err
	}
	if err := s.nameRows(ctx, rows); err != nil {
		return 0, err
	}
	if err := report.WriteResourcesCSV(w, rows, page.Currency); err != nil {
		return 0, apperr.Wrap(apperr.Report, err, "cannot write the resources CSV")
	}
	return len(rows), nil
}

// resources lists every resource of a cost request, converted and
// sorted, and the page's totals without its rows.
func (s *Service) resources(ctx context.Context, r CostRequest) ([]model.ResourceRow, model.ResourcePage, error) {
	var page model.ResourcePage
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, page, err
	}
	r, err := s.withView(ctx, r)
	if err != nil {
		return nil, page, err
	}
	q, err := s.CostQuery(r)
	if err != nil {
		return nil, page, err
	}
	if q.Metric == "" {
		q.Metric = s.cfg.Analysis.CostMetric
	}
	keys, sc, err := s.queryScope(ctx, q)
	if err != nil {
		return nil, page, err
	}
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, page, err
	}
	sums, _, err := s.store.ResourceSums(ctx, sc, q.Metric, 0)
	if err != nil {
		return nil, page, err
	}
	rows := analysis.Resources(keys, sums, conv)
	page = model.ResourcePage{Total: len(rows), Currency: conv.Target, Start: sc.From, End: sc.To, Resources: []model.ResourceRow{}}
	for _, row := range rows {
		page.TotalCost += row.Cost
	}
	return rows, page, nil
}
