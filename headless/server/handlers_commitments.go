package server

import (
	"net/http"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// commitmentPeriod reads GET /api/commitments' period, days, or start and end;
// the Service applies the rules.
func (s *Server) commitmentPeriod(r *http.Request) (model.Period, error) {
	days, err := optInt(r, "days")
	if err != nil {
		return model.Period{}, err
	}
	q := r.URL.Query()
	return s.svc.CommitmentPeriod(service.CommitmentRequest{Period: q.Get("period"), Days: days, Start: q.Get("start"), End: q.Get("end")})
}

func (s *Server) commitments() http.Handler {
	return endpoint(s.commitmentPeriod, s.svc.Commitments)
}

// tagCoverage is GET /api/allocation/coverage: the same period parameters.
func (s *Server) tagCoverage() http.Handler {
	return endpoint(s.commitmentPeriod, s.svc.TagCoverage)
}
