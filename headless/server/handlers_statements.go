package server

import (
	"net/http"

	"github.com/costpilot/costpilot/backend/service"
)

// statements is GET /api/statements: the chargeback statements of a
// saved rule set (rule_set) and billing period (period, YYYY-MM), by
// department or project (by).
func (s *Server) statements() http.Handler {
	return endpoint(func(r *http.Request) (service.StatementRequest, error) {
		q := r.URL.Query()
		return service.StatementRequest{RuleSet: q.Get("rule_set"), Period: q.Get("period"), By: q.Get("by")}, nil
	}, s.svc.Statements)
}
