package server

import (
	"net/http"

	"github.com/costpilot/costpilot/backend/model"
)

// versionsOf returns the data dir's change versions for this request,
// read once per request however many layers ask. The read reflects every
// commit of any process made before it, and costs nanoseconds while
// nothing was committed, so the dashboard's caches can
// ask on every request.
func (s *Server) versionsOf(r *http.Request) (model.Versions, error) {
	info := infoOf(r)
	if info == nil {
		return s.svc.ChangeVersions(r.Context())
	}
	if !info.versionsRead {
		info.versions, info.versionsErr = s.svc.ChangeVersions(r.Context())
		info.versionsRead = true
	}
	return info.versions, info.versionsErr
}
