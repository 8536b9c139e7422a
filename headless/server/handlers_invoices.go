package server

import (
	"net/http"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// invoices is GET /api/invoices: the billed cost per invoice against the
// invoice totals given (query provider, account, period or from and to).
func (s *Server) invoices() http.Handler {
	return endpoint(func(r *http.Request) (service.InvoiceRequest, error) {
		q := r.URL.Query()
		return service.InvoiceRequest{Provider: q.Get("provider"), Account: q.Get("account"), Period: q.Get("period"),
			From: q.Get("from"), To: q.Get("to")}, nil
	}, s.svc.Invoices)
}

// setInvoiceTotals is POST /api/invoices/totals: a JSON array of invoice
// totals, stored all or none.
func (s *Server) setInvoiceTotals() http.Handler {
	return endpoint(jsonBody[[]model.InvoiceTotal], s.svc.SetInvoiceTotals)
}
