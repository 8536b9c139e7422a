package server

import (
	"net/http"

	"github.com/costpilot/costpilot/backend/service"
)

// statementRequest reads the query of the statements routes: a saved
// rule set (rule_set), a billing period (period, YYYY-MM) and by
// (department or project).
func statementRequest(r *http.Request) service.StatementRequest {
	q := r.URL.Query()
	return service.StatementRequest{RuleSet: q.Get("rule_set"), Period: q.Get("period"), By: q.Get("by")}
}

// statements is GET /api/statements: the chargeback statements of a
// saved rule set and billing period, by department or project.
func (s *Server) statements() http.Handler {
	return endpoint(func(r *http.Request) (service.StatementRequest, error) { return statementRequest(r), nil }, s.svc.Statements)
}

// statementPDF is GET /api/statements.pdf: the PDF of one statement
// (name, the department or project) of the same query, as a download.
func (s *Server) statementPDF() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, body, err := s.svc.StatementPDF(r.Context(), statementRequest(r), r.URL.Query().Get("name"))
		if err != nil {
			writeError(w, r, err)
			return
		}
		lw := &lazyFile{w: w, name: name, ctype: "application/pdf"}
		_, _ = lw.Write(body)
	})
}
