package server

import (
	"context"
	"net/http"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// contracts is GET /api/contracts: the FOCUS contract commitments with
// how far each has come.
func (s *Server) contracts() http.Handler {
	return endpoint(none, noInput(s.svc.Contracts))
}

// importContracts is POST /api/contracts: the body is a FOCUS Contract
// Commitment dataset (CSV, gzip or not); ?name= labels it in errors
// (default "upload").
func (s *Server) importContracts() http.Handler {
	return endpoint(func(r *http.Request) (bodyUpload, error) { return bodyUpload{r}, nil },
		func(ctx context.Context, in bodyUpload) ([]model.ContractCommitment, error) {
			name := in.r.URL.Query().Get("name")
			if name == "" {
				name = "upload"
			}
			res, err := s.svc.ImportContracts(ctx, service.Bounded(name, service.MaxFilterLen), in.r.Body)
			return res, bodyLimitError(err)
		})
}
