package server

import (
	"context"
	"net/http"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/service"
)

func (s *Server) schedules() http.Handler {
	return endpoint(none, noInput(s.svc.Schedules))
}

// scheduleRequest is a report schedule to save: POST /api/schedules (id
// 0) and PUT /api/schedules/{id}.
type scheduleRequest struct {
	id       int64
	actor    string
	schedule config.Schedule
}

func (s *Server) saveSchedule(withID bool) http.Handler {
	return endpoint(func(r *http.Request) (scheduleRequest, error) {
		in := scheduleRequest{actor: actorOf(r)}
		if withID {
			id, err := pathID(r)
			if err != nil {
				return in, err
			}
			in.id = id
		}
		sc, err := jsonBody[config.Schedule](r)
		in.schedule = sc
		return in, err
	}, func(ctx context.Context, in scheduleRequest) (service.ScheduleView, error) {
		return s.svc.SaveSchedule(ctx, in.id, in.schedule, in.actor)
	})
}

func (s *Server) createSchedule() http.Handler { return s.saveSchedule(false) }
func (s *Server) updateSchedule() http.Handler { return s.saveSchedule(true) }

func (s *Server) deleteSchedule() http.Handler {
	return endpoint(func(r *http.Request) (scheduleRequest, error) {
		id, err := pathID(r)
		return scheduleRequest{id: id, actor: actorOf(r)}, err
	}, func(ctx context.Context, in scheduleRequest) (deleted, error) {
		return deleted{true}, s.svc.DeleteSchedule(ctx, in.id, in.actor)
	})
}
