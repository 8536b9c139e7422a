package server

import (
	"context"
	"net/http"

	"github.com/costpilot/costpilot/backend/service"
)

// kubernetes is GET /api/kubernetes: the stored clusters and each
// workload's requests, usage and efficiency over ?days= (default 30).
func (s *Server) kubernetes() http.Handler {
	return endpoint(func(r *http.Request) (int, error) { return intParam(r, "days", 0) }, s.svc.KubernetesOverview)
}

// kubernetesSyncRequest is POST /api/kubernetes/sync's body: a cluster of
// kubernetes.clusters, or none for all.
type kubernetesSyncRequest struct {
	Cluster string `json:"cluster"`
}

// kubernetesSync is POST /api/kubernetes/sync: `costpilot kubernetes sync`.
func (s *Server) kubernetesSync() http.Handler {
	return endpoint(jsonBody[kubernetesSyncRequest], func(ctx context.Context, r kubernetesSyncRequest) ([]service.KubernetesSync, error) {
		return s.svc.SyncKubernetes(ctx, r.Cluster)
	})
}
