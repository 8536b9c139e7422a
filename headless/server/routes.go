package server

import (
	"net/http"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// access says who may call a route.
type access int

const (
	accessPublic access = iota // anyone (login, healthz, static assets)
	accessPage                 // a logged-in session, else 303 to /login
	accessAPI                  // a session or a bearer token, else 401
)

// Route is one method and path the server answers, for the drift guard
// that checks every desktop binding has an HTTP twin.
type Route struct {
	Method string
	Path   string
}

// route is a Route with how to serve it.
type route struct {
	Route
	access access
	// perm is what the caller must be allowed to do (model.Permission,
	// granted by role in one table): checked before the handler runs, so
	// a refused request is answered before its body is read. The Service
	// checks again in every method. Every route but the public ones must
	// declare one (TestEveryRouteDeclaresItsPermission).
	perm  model.Permission
	cache bool // GET answers kept in the response cache
	// with cache: the answers read the history alone, so a decision
	// (a recommendation dismissed, a budget saved) leaves them cached.
	historyOnly bool
	params      []string // with cache: the query parameters the handler reads
	long        bool     // long-running: optimize, reports, import
	upload      bool     // body up to max_upload_bytes instead of max_body_bytes
	noLimit     bool     // exempt from rate limits
	static      bool     // the UI: files are public and exempt, other paths are pages
	build       func(*Server) http.Handler
}

func api(method, path string, perm model.Permission, build func(*Server) http.Handler) route {
	return route{Route: Route{method, path}, access: accessAPI, perm: perm, build: build}
}

// The permissions, short for the table.
const (
	read   = model.PermRead
	change = model.PermChange
	admin  = model.PermAdmin
)

const (
	minute = time.Minute
	hour   = time.Hour
)

// costParams are the parameters GET /api/costs and /api/tags read
// (costRequest): the period, metric, grouping, view and every filter,
// which may repeat (a trailing "*", see canonicalQuery).
var costParams = func() []string {
	out := []string{"days", "start", "end", "metric", "period", "granularity", "group_by", "view", "per"}
	for _, f := range service.FilterParams {
		out = append(out, f+"*")
	}
	return out
}()

// forecastParams are GET /api/forecast's parameters: the cost query's
// filters and grouping beside its own.
var forecastParams = func() []string {
	out := []string{"days", "include_recommendations", "group_by"}
	for _, f := range service.FilterParams {
		out = append(out, f+"*")
	}
	return out
}()

// routeStatic labels requests for the UI's own files in logs and metrics.
const routeStatic = "static"

// routeTable lists every route. Paths follow docs/api.md and the extra
// endpoints the UI uses (docs/operations.md, "HTTP API").
func routeTable() []route {
	// A cached route names the query parameters it reads: they alone make
	// the cache key, and the handler sees no others (respcache.go).
	cachedAPI := func(rt route, params ...string) route { rt.cache, rt.params = true, params; return rt }
	longAPI := func(rt route) route { rt.long = true; return rt }
	historyOnly := func(rt route) route { rt.historyOnly = true; return rt }
	return []route{
		// The core API.
		historyOnly(cachedAPI(api("GET", "/api/costs", read, (*Server).costs), costParams...)),
		historyOnly(cachedAPI(api("GET", "/api/costs/resources", read, (*Server).costResources), slices.Concat(costParams, []string{"offset", "limit"})...)),
		longAPI(api("GET", "/api/costs/resources.csv", read, (*Server).exportResources)),
		cachedAPI(api("GET", "/api/recommendations", read, (*Server).recommendations), "type", "provider", "priority", "state"),
		cachedAPI(api("GET", "/api/recommendations/not-assessed", read, (*Server).notAssessed)),
		api("GET", "/api/recommendations/{id}", read, (*Server).recommendation),
		api("POST", "/api/recommendations/{id}/state", change, (*Server).setRecommendationState),
		cachedAPI(api("GET", "/api/anomalies", read, (*Server).anomalies)),
		api("GET", "/api/anomalies/{id}", read, (*Server).anomaly),
		api("POST", "/api/anomalies/{id}/decision", change, (*Server).decideAnomaly),
		cachedAPI(api("GET", "/api/commitments", read, (*Server).commitments), "period", "days", "start", "end"),
		historyOnly(cachedAPI(api("GET", "/api/ai/costs", read, (*Server).aiCosts), costParams...)),
		historyOnly(cachedAPI(api("GET", "/api/allocation/coverage", read, (*Server).tagCoverage), "period", "days", "start", "end")),
		api("GET", "/api/budgets", read, (*Server).budgets),
		api("POST", "/api/budgets", change, (*Server).createBudget),
		api("PUT", "/api/budgets/{id}", change, (*Server).updateBudget),
		api("DELETE", "/api/budgets/{id}", change, (*Server).deleteBudget),
		api("GET", "/api/units", read, (*Server).units),
		api("POST", "/api/units", change, (*Server).importUnits),
		api("DELETE", "/api/units/{name}", change, (*Server).deleteUnits),
		api("GET", "/api/contracts", read, (*Server).contracts),
		api("POST", "/api/contracts", change, (*Server).importContracts),
		api("GET", "/api/invoices", read, (*Server).invoices),
		api("POST", "/api/invoices/totals", change, (*Server).setInvoiceTotals),
		api("GET", "/api/statements", read, (*Server).statements),
		api("GET", "/api/statements.pdf", read, (*Server).statementPDF),
		api("GET", "/api/schedules", read, (*Server).schedules),
		api("POST", "/api/schedules", admin, (*Server).createSchedule),
		api("PUT", "/api/schedules/{id}", admin, (*Server).updateSchedule),
		api("DELETE", "/api/schedules/{id}", admin, (*Server).deleteSchedule),
		cachedAPI(api("GET", "/api/forecast", read, (*Server).forecast), forecastParams...),
		cachedAPI(api("GET", "/api/forecast/evaluate", read, (*Server).forecastEvaluation), "days"),
		longAPI(api("POST", "/api/optimize", change, (*Server).optimize)),
		longAPI(api("POST", "/api/sync", change, (*Server).sync)),
		api("GET", "/api/kubernetes", read, (*Server).kubernetes),
		longAPI(api("POST", "/api/kubernetes/sync", change, (*Server).kubernetesSync)),
		longAPI(api("POST", "/api/reports", change, (*Server).generateReport)),
		api("GET", "/api/status", read, (*Server).status),
		api("POST", "/api/allocate", read, (*Server).allocate),
		api("GET", "/api/performance", read, (*Server).performance),
		// Endpoints the UI uses beyond the core API.
		api("GET", "/api/reports", read, (*Server).listReports),
		api("GET", "/api/reports/{name}", read, (*Server).downloadReport),
		api("DELETE", "/api/reports/{name}", change, (*Server).deleteReport),
		api("GET", "/api/status/detailed", read, (*Server).statusDetailed),
		api("POST", "/api/credentials/validate", admin, (*Server).validateCredentials),
		api("GET", "/api/allocation/rules", read, (*Server).ruleSets),
		api("POST", "/api/allocation/rules", change, (*Server).saveRuleSet),
		api("GET", "/api/health", read, (*Server).apiHealth),
		cachedAPI(api("GET", "/api/alerts", read, (*Server).alerts)),
		api("GET", "/api/runs", read, (*Server).runs),
		api("GET", "/api/session", read, (*Server).session),
		cachedAPI(api("GET", "/api/tags", read, (*Server).tags), costParams...),
		longAPI(api("GET", "/api/export/focus", read, (*Server).exportFOCUS)),
		api("POST", "/mcp", read, (*Server).mcp),
		api("GET", "/api/views", read, (*Server).views),
		api("POST", "/api/views", change, func(s *Server) http.Handler { return s.saveView(false) }),
		api("PUT", "/api/views/{name}", change, func(s *Server) http.Handler { return s.saveView(true) }),
		api("DELETE", "/api/views/{name}", change, (*Server).deleteView),
		func() route {
			rt := longAPI(api("POST", "/api/import", change, (*Server).importFile))
			rt.upload = true
			return rt
		}(),
		// Administration: users, API tokens, the audit log.
		api("GET", "/api/users", admin, (*Server).users),
		api("POST", "/api/users", admin, (*Server).addUser),
		api("PATCH", "/api/users/{name}", admin, (*Server).updateUser),
		api("DELETE", "/api/users/{name}", admin, (*Server).deleteUser),
		api("GET", "/api/tokens", admin, (*Server).tokens),
		api("POST", "/api/tokens", admin, (*Server).createToken),
		api("DELETE", "/api/tokens/{id}", admin, (*Server).revokeToken),
		api("GET", "/api/audit", admin, (*Server).auditLog),
		// Other /api paths and methods: after the access check, as every
		// /api path, 404 or 405 in the error shape, not the UI.
		api("GET", "/api/", read, (*Server).unmatched),
		api("POST", "/api/", read, (*Server).unmatched),
		api("PUT", "/api/", read, (*Server).unmatched),
		api("PATCH", "/api/", read, (*Server).unmatched),
		api("DELETE", "/api/", read, (*Server).unmatched),
		// Login, health, metrics, UI.
		{Route: Route{"GET", "/login"}, access: accessPublic, build: (*Server).loginPage},
		{Route: Route{"POST", "/login"}, access: accessPublic, build: (*Server).login},
		{Route: Route{"POST", "/logout"}, access: accessPublic, build: (*Server).logout},
		{Route: Route{"GET", "/auth/oidc/login"}, access: accessPublic, build: (*Server).ssoLogin},
		{Route: Route{"GET", "/auth/oidc/callback"}, access: accessPublic, build: (*Server).ssoCallback},
		{Route: Route{"GET", "/login.css"}, access: accessPublic, noLimit: true, build: (*Server).loginCSS},
		{Route: Route{"GET", "/healthz"}, access: accessPublic, noLimit: true, build: (*Server).healthz},
		// Scrapers poll often: /metrics needs auth but no rate limit.
		{Route: Route{"GET", "/metrics"}, access: accessAPI, perm: read, noLimit: true, build: (*Server).promMetrics},
		{Route: Route{"GET", "/"}, access: accessPage, perm: read, static: true, build: (*Server).ui},
	}
}

// Routes lists every method and path the server answers.
func Routes() []Route {
	var out []Route
	for _, rt := range routeTable() {
		out = append(out, rt.Route)
	}
	return out
}

// wrap puts the per-route layers around a handler: body limit, caller
// identification, rate limits, access check, time limit, response cache.
func (s *Server) wrap(rt route, h http.Handler) http.Handler {
	label := rt.Method + " " + rt.Path
	limit := s.cfg.MaxBodyBytes
	if rt.upload {
		limit = s.cfg.MaxUploadBytes
	}
	timeout := shortTimeout
	if rt.long {
		timeout = longTimeout
	}
	// The response cache is outside the time limit: a cached answer needs
	// none. The UI's files carry their own compressed forms.
	inner := withTimeout(timeout, withCaller(h))
	switch {
	case rt.cache:
		inner = s.cached(rt.params, rt.historyOnly, inner)
	case !rt.static:
		inner = compress(inner)
	}
	outer := limitBody(limit, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := infoOf(r)
		info.route = label
		if rt.static && s.isAsset(r.URL.Path) {
			info.route = routeStatic
			s.serveAsset(w, r)
			return
		}
		p, idErr := s.identify(r, rt.access == accessAPI)
		if p != nil {
			// The caller, with its address for the audit log; the cached
			// principal is shared, so this is a copy. It reaches the
			// Service's context in withCaller.
			c := *p
			c.ClientAddr = info.addr
			p = &c
		}
		info.principal = p
		if !rt.noLimit && s.cfg.RateLimit.Enabled {
			if ok, wait := s.limiter.allow(s.limitKeys(rt, r, info)); !ok {
				s.metrics.rateLimited.Add(1)
				refuseBody(w, r)
				writeError(w, r, errRateLimited(wait))
				return
			}
		}
		if rt.access != accessPublic && p == nil {
			refuseBody(w, r)
			if rt.access == accessPage {
				http.Redirect(w, r, loginURL(r), http.StatusSeeOther)
				return
			}
			if idErr == nil {
				idErr = apperr.E(apperr.Unauthenticated, "not logged in: log in at /login or send Authorization: Bearer <token>")
			}
			writeError(w, r, idErr)
			return
		}
		if rt.access != accessPublic {
			if err := service.Authorize(*p, rt.perm); err != nil {
				refuseBody(w, r)
				writeError(w, r, err)
				return
			}
		}
		inner.ServeHTTP(w, r)
	}))
	if !rt.upload {
		return outer
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uploadPace(r, s.readTimeout, longTimeout)
		outer.ServeHTTP(w, r)
	})
}

// limitKeys are the allowances a request draws on (docs/api.md): a
// browser session has its own hourly allowance; everyone else (no
// session, bearer tokens) draws on the per-address daily and hourly ones;
// GET /api/costs also on its per-minute one, larger for the UI (a session,
// or auth off) so that a person clicking through views is never refused.
func (s *Server) limitKeys(rt route, r *http.Request, info *reqInfo) []limitKey {
	rl := s.cfg.RateLimit
	var keys []limitKey
	who := "a:" + info.addr
	p := info.principal
	costs := rl.CostsPerMinute
	switch {
	case p != nil && p.Kind == "session":
		who = "s:" + p.SessionID
		keys = append(keys, limitKey{who + "|h", rate{rl.SessionPerHour, hour}})
		costs = rl.SessionCostsPerMinute
	case p != nil && p.Kind == "anonymous":
		// Auth is off: the browser UI has no session, so the address gets
		// the session allowances or the 30-second refresh would lock it out.
		keys = append(keys, limitKey{who + "|sh", rate{rl.SessionPerHour, hour}})
		costs = rl.SessionCostsPerMinute
	default:
		keys = append(keys, limitKey{who + "|d", rate{rl.PerDay, 24 * hour}}, limitKey{who + "|h", rate{rl.PerHour, hour}})
	}
	if rt.Method == "GET" && rt.Path == "/api/costs" {
		keys = append(keys, limitKey{who + "|costs", rate{costs, minute}})
	}
	return keys
}

// methods are those a route may serve; unmatched probes them for Allow.
var methods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}

// unmatched answers what no route serves, in the error shape like every
// other answer: 405 with Allow when the path is served for other methods,
// else 404. Without it, the mux would answer in plain text.
func (s *Server) unmatched() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refuseBody(w, r)
		var allow []string
		for _, m := range methods {
			probe := &http.Request{Method: m, URL: r.URL, Host: r.Host}
			if _, pattern := s.mux.Handler(probe); s.served[pattern] {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			writeError(w, r, apperr.E(apperr.NotFound, "no such path: %s", service.Bounded(r.URL.Path, service.MaxFilterLen)))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, r, apperr.E(apperr.Validation, "method %s is not allowed on %s: use %s", service.Bounded(r.Method, 16), service.Bounded(r.URL.Path, service.MaxFilterLen), strings.Join(allow, " or ")).
			WithDetail("status", http.StatusMethodNotAllowed))
	})
}

// canonical answers a path with empty, . or .. segments (//api/costs,
// /api//costs, /api/./costs) with a 404 in the error shape. The mux would
// redirect it to the clean path, in HTML: an API client would follow a
// redirect it did not ask for, or show a page where it expects JSON.
func canonical(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The escaped path, as the mux matches it: an encoded slash
		// (..%2F) is part of a segment, for the handler to refuse.
		if p := r.URL.EscapedPath(); p != "" && p[0] == '/' {
			if c := cleanPath(p); c != p {
				refuseBody(w, r)
				writeError(w, r, apperr.E(apperr.NotFound, "no such path: %s (paths have no empty, . or .. segments: %s)",
					service.Bounded(p, service.MaxFilterLen), service.Bounded(c, service.MaxFilterLen)))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// withCaller hands the caller identified in wrap to the Service, in the
// context. It runs past the response cache, so a cached answer, which
// calls no Service method, does not pay for a context and a request copy.
func withCaller(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info := infoOf(r); info != nil && info.principal != nil {
			r = r.WithContext(service.WithPrincipal(r.Context(), *info.principal))
		}
		next.ServeHTTP(w, r)
	})
}

// cleanPath is p without empty, . and .. segments, keeping a final slash.
func cleanPath(p string) string {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}
