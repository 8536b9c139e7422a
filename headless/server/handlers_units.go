package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/costpilot/costpilot/backend/service"
)

// units is GET /api/units: the stored business metrics.
func (s *Server) units() http.Handler {
	return endpoint(none, noInput(s.svc.UnitMetrics))
}

// bodyUpload is a request whose body is a file the Service reads (a
// units CSV, a contract commitment dataset), bounded there and by
// dashboard.max_body_bytes.
type bodyUpload struct {
	r *http.Request
}

// importUnits is POST /api/units: the body is the CSV that `costpilot
// units import` reads; ?name= labels it in errors (default "upload").
func (s *Server) importUnits() http.Handler {
	return endpoint(func(r *http.Request) (bodyUpload, error) { return bodyUpload{r}, nil },
		func(ctx context.Context, in bodyUpload) (service.UnitsImport, error) {
			name := in.r.URL.Query().Get("name")
			if name == "" {
				name = "upload"
			}
			res, err := s.svc.ImportUnits(ctx, service.Bounded(name, service.MaxFilterLen), in.r.Body)
			return res, bodyLimitError(err)
		})
}

// deleteUnits is DELETE /api/units/{name}: a business metric.
func (s *Server) deleteUnits() http.Handler {
	return endpoint(func(r *http.Request) (string, error) { return r.PathValue("name"), nil },
		func(ctx context.Context, metric string) (deleted, error) {
			return deleted{true}, s.svc.DeleteUnitMetric(ctx, metric)
		})
}

// bodyLimitError is err, or the 413 error when the body passed its limit.
func bodyLimitError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errTooLarge(mbe.Limit)
	}
	return err
}
