package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/service"
)

func (s *Server) budgets() http.Handler {
	return endpoint(none, noInput(s.svc.Budgets))
}

// budgetRequest is a budget to save: POST /api/budgets (id 0) and PUT
// /api/budgets/{id}.
type budgetRequest struct {
	id     int64
	actor  string
	budget config.Budget
}

func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.E(apperr.Validation, "id must be a positive number").WithDetail("field", "id")
	}
	return id, nil
}

func (s *Server) saveBudget(withID bool) http.Handler {
	return endpoint(func(r *http.Request) (budgetRequest, error) {
		in := budgetRequest{actor: actorOf(r)}
		if withID {
			id, err := pathID(r)
			if err != nil {
				return in, err
			}
			in.id = id
		}
		b, err := jsonBody[config.Budget](r)
		in.budget = b
		return in, err
	}, func(ctx context.Context, in budgetRequest) (service.BudgetView, error) {
		return s.svc.SaveBudget(ctx, in.id, in.budget, in.actor)
	})
}

func (s *Server) createBudget() http.Handler { return s.saveBudget(false) }
func (s *Server) updateBudget() http.Handler { return s.saveBudget(true) }

func (s *Server) deleteBudget() http.Handler {
	return endpoint(func(r *http.Request) (budgetRequest, error) {
		id, err := pathID(r)
		return budgetRequest{id: id, actor: actorOf(r)}, err
	}, func(ctx context.Context, in budgetRequest) (deleted, error) {
		return deleted{true}, s.svc.DeleteBudget(ctx, in.id, in.actor)
	})
}
