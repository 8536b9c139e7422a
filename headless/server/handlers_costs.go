package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// intParam reads an integer query parameter, def when absent.
func intParam(r *http.Request, name string, def int) (int, error) {
	p, err := optInt(r, name)
	if p == nil || err != nil {
		return def, err
	}
	return *p, nil
}

// optInt reads an optional integer query parameter: nil when absent.
func optInt(r *http.Request, name string) (*int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil, apperr.E(apperr.Validation, "%s must be an integer, got %q", name, v).WithDetail("field", name)
	}
	return &n, nil
}

// costRequest reads GET /api/costs' parameters into the Service's
// CostRequest, which applies the rules. Filter parameters may repeat.
func costRequest(r *http.Request) (service.CostRequest, error) {
	q := r.URL.Query()
	days, err := optInt(r, "days")
	if err != nil {
		return service.CostRequest{}, err
	}
	out := service.CostRequest{Days: days, Start: q.Get("start"), End: q.Get("end"), Metric: q.Get("metric"),
		Period: q.Get("period"), Granularity: q.Get("granularity"), GroupBy: q.Get("group_by"), View: q.Get("view"), Per: q.Get("per")}
	for _, name := range service.FilterParams {
		if vals := q[name]; len(vals) > 0 {
			if out.Filters == nil {
				out.Filters = map[string][]string{}
			}
			out.Filters[name] = vals
		}
	}
	return out, nil
}

func (s *Server) costs() http.Handler {
	return endpoint(costRequest, s.svc.Costs)
}

// costResources is GET /api/costs/resources: a page of every resource
// of the period (offset, limit beside the cost parameters).
func (s *Server) costResources() http.Handler {
	return endpoint(func(r *http.Request) (service.ResourceRequest, error) {
		cr, err := costRequest(r)
		if err != nil {
			return service.ResourceRequest{}, err
		}
		rr := service.ResourceRequest{CostRequest: cr}
		if rr.Offset, err = intParam(r, "offset", 0); err != nil {
			return rr, err
		}
		rr.Limit, err = intParam(r, "limit", 0)
		return rr, err
	}, s.svc.CostResources)
}

// exportResources is GET /api/costs/resources.csv: every resource of the
// period as CSV, streamed; a failure after the first row aborts the
// response, so a cut file is never taken for a whole one.
func (s *Server) exportResources() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := costRequest(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		lw := &lazyFile{w: w, name: "costpilot-resources.csv", ctype: "text/csv; charset=utf-8"}
		if _, err := s.svc.ExportResources(r.Context(), req, lw); err != nil {
			if !lw.started {
				writeError(w, r, err)
				return
			}
			panic(http.ErrAbortHandler)
		}
	})
}

// tags is GET /api/tags: the tag keys and values of the period asked for.
func (s *Server) tags() http.Handler {
	return endpoint(costRequest, s.svc.TagValues)
}

// viewBody is the body of POST and PUT /api/views.
type viewBody struct {
	Name string         `json:"name"`
	Spec model.ViewSpec `json:"spec"`
}

func (s *Server) views() http.Handler {
	return endpoint(none, noInput(s.svc.Views))
}

// saveView is POST /api/views (create) and PUT /api/views/{name}
// (replace the spec of that view).
func (s *Server) saveView(replace bool) http.Handler {
	return endpoint(func(r *http.Request) (viewBody, error) {
		b, err := jsonBody[viewBody](r)
		if replace {
			b.Name = r.PathValue("name")
		}
		return b, err
	}, func(ctx context.Context, b viewBody) (model.SavedView, error) {
		return s.svc.SaveView(ctx, b.Name, b.Spec, principalName(ctx), replace)
	})
}

func (s *Server) deleteView() http.Handler {
	return endpoint(func(r *http.Request) (string, error) { return r.PathValue("name"), nil },
		func(ctx context.Context, name string) (struct{}, error) {
			return struct{}{}, s.svc.DeleteView(ctx, name)
		})
}

// principalName is who makes a request, for the record.
func principalName(ctx context.Context) string {
	info, _ := ctx.Value(ctxKey{}).(*reqInfo)
	if info == nil || info.principal == nil {
		return ""
	}
	if p := info.principal; p.Kind == service.PrincipalToken {
		return "token:" + p.TokenName
	}
	return info.principal.Username
}

// forecastQuery reads GET /api/forecast's parameters; the Service
// applies the defaults and bounds.
func (s *Server) forecastQuery(r *http.Request) (service.ForecastRequest, error) {
	var fr service.ForecastRequest
	var err error
	if fr.Days, err = optInt(r, "days"); err != nil {
		return fr, err
	}
	if v := r.URL.Query().Get("include_recommendations"); v != "" {
		incl, err := strconv.ParseBool(v)
		if err != nil {
			return fr, apperr.E(apperr.Validation, "include_recommendations must be true or false").WithDetail("field", "include_recommendations")
		}
		fr.IncludeRecommendations = &incl
	}
	cr, err := costRequest(r)
	fr.Filters, fr.GroupBy = cr.Filters, cr.GroupBy
	return fr, err
}

func (s *Server) recommendations() http.Handler {
	return endpoint(func(r *http.Request) (service.RecommendationFilter, error) {
		q := r.URL.Query()
		return service.RecommendationFilter{Type: q.Get("type"), Provider: q.Get("provider"), Priority: q.Get("priority"),
			State: q.Get("state")}, nil
	}, s.svc.Recommendations)
}

func (s *Server) notAssessed() http.Handler {
	return endpoint(none, noInput(s.svc.NotAssessed))
}

func (s *Server) recommendation() http.Handler {
	return endpoint(func(r *http.Request) (string, error) { return r.PathValue("id"), nil }, s.svc.Recommendation)
}

// stateRequest is the body of POST /api/recommendations/{id}/state.
type stateRequest struct {
	id     string
	actor  string
	change service.StateChange
}

func (s *Server) setRecommendationState() http.Handler {
	return endpoint(func(r *http.Request) (stateRequest, error) {
		c, err := jsonBody[service.StateChange](r)
		return stateRequest{id: r.PathValue("id"), actor: actorOf(r), change: c}, err
	}, func(ctx context.Context, in stateRequest) (model.Recommendation, error) {
		return s.svc.SetRecommendationState(ctx, in.id, in.change, in.actor)
	})
}

// actorOf names who makes a request, for the audit log.
func actorOf(r *http.Request) string {
	if p := infoOf(r).principal; p != nil {
		return p.Name()
	}
	return ""
}

func (s *Server) forecast() http.Handler {
	return endpoint(s.forecastQuery, s.svc.ForecastView)
}

// forecastEvaluation is evaluate_model over HTTP: backtests of the
// forecaster for a horizon of `days`.
func (s *Server) forecastEvaluation() http.Handler {
	return endpoint(s.forecastQuery, func(ctx context.Context, q service.ForecastRequest) (model.ModelEvaluation, error) {
		days, _, err := service.ForecastQuery(q)
		if err != nil {
			return model.ModelEvaluation{}, err
		}
		return s.svc.EvaluateModel(ctx, days)
	})
}

// optimize runs the full pipeline: report and saving on.
func (s *Server) optimize() http.Handler {
	return endpoint(none, func(ctx context.Context, _ struct{}) (model.OptimizationResult, error) {
		return s.svc.OptimizeAll(ctx, true, true)
	})
}

func (s *Server) allocate() http.Handler {
	return endpoint(jsonBody[model.AllocationRules], s.svc.AllocateCosts)
}

func (s *Server) alerts() http.Handler {
	return endpoint(none, noInput(s.svc.Alerts))
}

func (s *Server) status() http.Handler {
	return endpoint(none, noInput(s.svc.ProviderStatus))
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

// runsQuery reads GET /api/runs?limit=; the Service applies the default
// and bounds.
func runsQuery(r *http.Request) (int, error) {
	return intParam(r, "limit", 0)
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
	return endpoint(jsonBody[ruleSetRequest], func(ctx context.Context, in ruleSetRequest) (model.RuleSet, error) {
		return s.svc.SaveRuleSet(ctx, in.Name, in.Rules)
	})
}

// sessionInfo is GET /api/session.
type sessionInfo struct {
	Username string     `json:"username"`
	Features any        `json:"features"`
	Currency string     `json:"currency"`
	Version  string     `json:"version"`
	AuthKind string     `json:"auth"`
	Role     model.Role `json:"role"`
	// Permissions are what the role may do: the UI hides the rest.
	Permissions []model.Permission `json:"permissions"`
}

func (s *Server) session() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := sessionInfo{Features: s.svc.Config().Dashboard.Features, Currency: s.svc.Config().Currency.Base, Version: service.Version}
		if p := infoOf(r).principal; p != nil {
			out.Username, out.AuthKind, out.Role, out.Permissions = p.Username, p.Kind, p.Role, model.PermissionsOf(p.Role)
			if p.Kind == service.PrincipalToken {
				out.Username = "token:" + p.TokenName
			}
		}
		writeJSON(w, http.StatusOK, out)
	})
}
