package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/backend/store"
)

// intParam reads an integer query parameter, def when absent.
func intParam(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, apperr.E(apperr.Validation, "%s must be an integer, got %q", name, v).WithDetail("field", name)
	}
	return n, nil
}

// costQuery decodes GET /api/costs: days (1..365, default 30) or start and
// end (inclusive YYYY-MM-DD), metric, and the provider, account, service
// and tag=key:value filters.
func (s *Server) costQuery(r *http.Request) (model.CostQuery, error) {
	q := r.URL.Query()
	var cq model.CostQuery
	start, end := q.Get("start"), q.Get("end")
	switch {
	case start != "" || end != "":
		if q.Get("days") != "" {
			return cq, apperr.E(apperr.Validation, "give either days or start and end, not both").WithDetail("field", "days")
		}
		if start == "" || end == "" {
			return cq, apperr.E(apperr.Validation, "start and end go together").WithDetail("field", "start")
		}
		p, err := service.PeriodForDates(start, end)
		if err != nil {
			return cq, err
		}
		cq.Period = p
	default:
		days, err := intParam(r, "days", 30)
		if err != nil {
			return cq, err
		}
		if cq.Period, err = s.svc.PeriodForDays(days); err != nil {
			return cq, err
		}
	}
	tk, tv, err := service.ParseTagFilter(q.Get("tag"))
	if err != nil {
		return cq, err
	}
	cq.Metric = model.CostMetric(q.Get("metric"))
	cq.Provider = model.ProviderKey(q.Get("provider"))
	cq.Account, cq.Service, cq.TagKey, cq.TagValue = q.Get("account"), q.Get("service"), tk, tv
	return cq, nil
}

func (s *Server) costs() http.Handler {
	return endpoint(s.costQuery, s.svc.AnalyzeCosts)
}

// forecastQuery is GET /api/forecast's input.
type forecastQuery struct {
	Days                   int
	IncludeRecommendations bool
}

func (s *Server) forecastQuery(r *http.Request) (forecastQuery, error) {
	days, err := intParam(r, "days", 30)
	if err != nil {
		return forecastQuery{}, err
	}
	if days < 1 || days > service.MaxDays {
		return forecastQuery{}, apperr.E(apperr.Validation, "days must be an integer from 1 to %d, got %d", service.MaxDays, days).WithDetail("field", "days")
	}
	incl := true
	if v := r.URL.Query().Get("include_recommendations"); v != "" {
		if incl, err = strconv.ParseBool(v); err != nil {
			return forecastQuery{}, apperr.E(apperr.Validation, "include_recommendations must be true or false").WithDetail("field", "include_recommendations")
		}
	}
	return forecastQuery{Days: days, IncludeRecommendations: incl}, nil
}

func (s *Server) recommendations() http.Handler {
	return endpoint(none, noInput(s.svc.GenerateRecommendations))
}

func (s *Server) forecast() http.Handler {
	return endpoint(s.forecastQuery, func(ctx context.Context, q forecastQuery) (model.Forecast, error) {
		return s.svc.ForecastCosts(ctx, q.Days, q.IncludeRecommendations)
	})
}

// forecastEvaluation is evaluate_model over HTTP: backtests of the
// forecaster for a horizon of `days`.
func (s *Server) forecastEvaluation() http.Handler {
	return endpoint(s.forecastQuery, func(ctx context.Context, q forecastQuery) (model.ModelEvaluation, error) {
		return s.svc.EvaluateModel(ctx, q.Days)
	})
}

// optimize runs SPEC.md 4.1 rule 3's full pipeline: report and saving on.
func (s *Server) optimize() http.Handler {
	return endpoint(none, func(ctx context.Context, _ struct{}) (model.OptimizationResult, error) {
		return s.svc.OptimizeAll(ctx, true, true)
	})
}

func (s *Server) allocate() http.Handler {
	return endpoint(jsonBody[model.AllocationRules], s.svc.AllocateCosts)
}

func (s *Server) alerts() http.Handler {
	return endpoint(none, noInput(s.svc.GetAlerts))
}

func (s *Server) status() http.Handler {
	return endpoint(none, noInput(s.svc.GetProviderStatus))
}

func (s *Server) statusDetailed() http.Handler {
	return endpoint(none, noInput(s.svc.ProviderDetails))
}

func (s *Server) validateCredentials() http.Handler {
	return endpoint(none, noInput(s.svc.ValidateCredentials))
}

func (s *Server) performance() http.Handler {
	return endpoint(none, noInput(s.svc.PerformanceMetrics))
}

func (s *Server) apiHealth() http.Handler {
	return endpoint(none, func(ctx context.Context, _ struct{}) (model.Health, error) {
		return s.svc.CheckHealth(ctx), nil
	})
}

// runsQuery decodes GET /api/runs?limit= (1..500, default 20).
func runsQuery(r *http.Request) (int, error) {
	n, err := intParam(r, "limit", 20)
	if err != nil {
		return 0, err
	}
	if n < 1 || n > 500 {
		return 0, apperr.E(apperr.Validation, "limit must be from 1 to 500, got %d", n).WithDetail("field", "limit")
	}
	return n, nil
}

func (s *Server) runs() http.Handler {
	return endpoint(runsQuery, s.svc.Runs)
}

// ruleSetRequest is POST /api/allocation/rules.
type ruleSetRequest struct {
	Name  string                `json:"name"`
	Rules model.AllocationRules `json:"rules"`
}

func (s *Server) ruleSets() http.Handler {
	return endpoint(none, noInput(s.svc.RuleSets))
}

func (s *Server) saveRuleSet() http.Handler {
	return endpoint(jsonBody[ruleSetRequest], func(ctx context.Context, in ruleSetRequest) (store.RuleSet, error) {
		return s.svc.SaveRuleSet(ctx, in.Name, in.Rules)
	})
}

func (s *Server) apiNotFound() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, apperr.E(apperr.NotFound, "no such endpoint: %s %s", r.Method, r.URL.Path))
	})
}

// sessionInfo is GET /api/session.
type sessionInfo struct {
	Username string `json:"username"`
	Features any    `json:"features"`
	Currency string `json:"currency"`
	Version  string `json:"version"`
	AuthKind string `json:"auth"`
}

func (s *Server) session() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := sessionInfo{Features: s.svc.Config().Dashboard.Features, Currency: s.svc.Config().Currency.Base, Version: service.Version}
		if p := infoOf(r).principal; p != nil {
			out.Username, out.AuthKind = p.Username, p.Kind
			if p.Kind == service.PrincipalToken {
				out.Username = "token:" + p.TokenName
			}
		}
		writeJSON(w, http.StatusOK, out)
	})
}
