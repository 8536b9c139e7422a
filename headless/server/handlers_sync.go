package server

import (
	"net/http"

	"github.com/costpilot/costpilot/backend/service"
)

// sync is POST /api/sync: the UI's Sync action, as `costpilot sync` does
// (demo regenerated, changed export files imported, live days fetched).
func (s *Server) sync() http.Handler {
	return endpoint(jsonBody[service.SyncRequest], s.svc.RunSync)
}
