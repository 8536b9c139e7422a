package server

import (
	"context"
	"net/http"

	"github.com/costpilot/costpilot/backend/service"
)

func (s *Server) anomalies() http.Handler {
	return endpoint(none, noInput(s.svc.Anomalies))
}

func (s *Server) anomaly() http.Handler {
	return endpoint(func(r *http.Request) (string, error) { return r.PathValue("id"), nil }, s.svc.Anomaly)
}

// decisionRequest is POST /api/anomalies/{id}/decision.
type decisionRequest struct {
	id, actor string
	body      service.AnomalyDecisionRequest
}

func (s *Server) decideAnomaly() http.Handler {
	return endpoint(func(r *http.Request) (decisionRequest, error) {
		b, err := jsonBody[service.AnomalyDecisionRequest](r)
		return decisionRequest{id: r.PathValue("id"), actor: actorOf(r), body: b}, err
	}, func(ctx context.Context, in decisionRequest) (service.AnomalyView, error) {
		return s.svc.DecideAnomaly(ctx, in.id, in.body, in.actor)
	})
}
