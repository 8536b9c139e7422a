package server

import "net/http"

// aiCosts is GET /api/ai/costs: the AI model usage of the period and
// filters GET /api/costs reads, with the cost per million tokens.
func (s *Server) aiCosts() http.Handler {
	return endpoint(costRequest, s.svc.AICosts)
}
