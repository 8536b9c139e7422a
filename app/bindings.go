// Package app is the Wails v2 desktop shell: window options, lifecycle,
// menu, window state and the Bindings the frontend calls. It holds no
// business logic: every binding is a one-liner over the backend Service
// (docs/architecture.md). The files that need GTK and WebKit build only with the
// desktop tag; the rest is plain Go that `go test ./...` covers.
package app

import (
	"context"
	"os/user"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// Time limits of bound calls, as the HTTP server's: most finish in well
// under a second; optimize, reports and imports may take minutes.
const (
	callTimeout = 60 * time.Second
	longTimeout = 10 * time.Minute
)

// Bindings is what the window's JavaScript calls. Wails binds every
// exported method, so it holds nothing else; the Service itself (which has
// Close and Store) is never bound. Wails v2 cannot pass a context to a
// bound method (wails#3948): each call derives one from ctx, the app's
// lifetime, which shutdown cancels.
type Bindings struct {
	ctx      context.Context
	svc      *service.Service
	shell    shell
	selfTest *selfTest
	started  time.Time
	// who is the caller every call acts as: a local admin, since whoever
	// runs the desktop can read and write its data dir anyway
	// (docs/decisions.md).
	who service.Principal
	// ready, when set, closes once the window's start refresh is done:
	// calls wait for it, so the first page never reads a demo history
	// half regenerated (nil: no refresh to wait for).
	ready chan struct{}
}

// NewBindings returns the bindings of svc. The context is replaced by the
// app's at start-up.
func NewBindings(svc *service.Service, started time.Time) *Bindings {
	return &Bindings{ctx: context.Background(), svc: svc, shell: noShell{}, started: started,
		who: service.LocalAdmin("desktop", osUser())}
}

// local is the app's context carrying the caller.
func (b *Bindings) local() context.Context {
	return service.WithPrincipal(b.ctx, b.who)
}

// do runs one Service call with a time limit, counted in the performance
// metrics like an HTTP request.
func do[T any](b *Bindings, limit time.Duration, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(b.local(), limit)
	defer cancel()
	if b.ready != nil {
		select {
		case <-b.ready:
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
	}
	t0 := time.Now()
	v, err := fn(ctx)
	b.svc.RecordRequest(time.Since(t0), err != nil)
	return v, err
}

// done adapts a Service call that returns only an error.
func done(fn func(context.Context) error) func(context.Context) (struct{}, error) {
	return func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx) }
}

// AnalyzeCosts is GET /api/costs.
func (b *Bindings) AnalyzeCosts(q CostRequest) (model.CostAnalysis, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.CostAnalysis, error) { return b.svc.Costs(ctx, q.request()) })
}

// CostResources is GET /api/costs/resources: a page of every resource of
// the request's period and scope.
func (b *Bindings) CostResources(q CostRequest, offset, limit int) (model.ResourcePage, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.ResourcePage, error) {
		return b.svc.CostResources(ctx, service.ResourceRequest{CostRequest: q.request(), Offset: offset, Limit: limit})
	})
}

// AICosts is GET /api/ai/costs: the AI model usage of the view, with the
// cost per million tokens.
func (b *Bindings) AICosts(q CostRequest) (model.AICosts, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.AICosts, error) { return b.svc.AICosts(ctx, q.request()) })
}

// TagValues is GET /api/tags.
func (b *Bindings) TagValues(q CostRequest) (map[string][]string, error) {
	return do(b, callTimeout, func(ctx context.Context) (map[string][]string, error) { return b.svc.TagValues(ctx, q.request()) })
}

// ListViews is GET /api/views.
func (b *Bindings) ListViews() ([]model.SavedView, error) {
	return do(b, callTimeout, b.svc.Views)
}

// SaveView is POST /api/views: a new view.
func (b *Bindings) SaveView(name string, spec model.ViewSpec) (model.SavedView, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.SavedView, error) {
		return b.svc.SaveView(ctx, name, spec, desktopUser, false)
	})
}

// ReplaceView is PUT /api/views/{name}.
func (b *Bindings) ReplaceView(name string, spec model.ViewSpec) (model.SavedView, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.SavedView, error) {
		return b.svc.SaveView(ctx, name, spec, desktopUser, true)
	})
}

// DeleteView is DELETE /api/views/{name}.
func (b *Bindings) DeleteView(name string) error {
	_, err := do(b, callTimeout, done(func(ctx context.Context) error { return b.svc.DeleteView(ctx, name) }))
	return err
}

// Commitments is GET /api/commitments?days=|start=&end=.
func (b *Bindings) Commitments(q service.CommitmentRequest) (model.CommitmentReport, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.CommitmentReport, error) {
		p, err := b.svc.CommitmentPeriod(q)
		if err != nil {
			return model.CommitmentReport{}, err
		}
		return b.svc.Commitments(ctx, p)
	})
}

// Contracts is GET /api/contracts.
func (b *Bindings) Contracts() ([]model.ContractCommitment, error) {
	return do(b, callTimeout, b.svc.Contracts)
}

// TagCoverage is GET /api/allocation/coverage?days=|period=|start=&end=.
func (b *Bindings) TagCoverage(q service.CommitmentRequest) (model.TagCoverage, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.TagCoverage, error) {
		p, err := b.svc.CommitmentPeriod(q)
		if err != nil {
			return model.TagCoverage{}, err
		}
		return b.svc.TagCoverage(ctx, p)
	})
}

// GenerateRecommendations is GET /api/recommendations?type=&provider=&priority=&state=.
func (b *Bindings) GenerateRecommendations(f service.RecommendationFilter) ([]model.Recommendation, error) {
	return do(b, callTimeout, func(ctx context.Context) ([]model.Recommendation, error) { return b.svc.Recommendations(ctx, f) })
}

// RecommendationsNotAssessed is GET /api/recommendations/not-assessed.
func (b *Bindings) RecommendationsNotAssessed() ([]model.NotAssessed, error) {
	return do(b, callTimeout, func(ctx context.Context) ([]model.NotAssessed, error) { return b.svc.NotAssessed(ctx) })
}

// Recommendation is GET /api/recommendations/{id}.
func (b *Bindings) Recommendation(id string) (service.RecommendationDetail, error) {
	return do(b, callTimeout, func(ctx context.Context) (service.RecommendationDetail, error) { return b.svc.Recommendation(ctx, id) })
}

// SetRecommendationState is POST /api/recommendations/{id}/state; the
// audit log names the desktop's OS user.
func (b *Bindings) SetRecommendationState(id string, c service.StateChange) (model.Recommendation, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.Recommendation, error) {
		return b.svc.SetRecommendationState(ctx, id, c, desktopActor())
	})
}

// ForecastCosts is GET /api/forecast?days=N, with the recommendations' impact.
func (b *Bindings) ForecastCosts(days int) (model.Forecast, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.Forecast, error) { return b.svc.ForecastCosts(ctx, days, true) })
}

// OptimizeAll is POST /api/optimize: the full pipeline, report and saving on.
func (b *Bindings) OptimizeAll() (model.OptimizationResult, error) {
	return do(b, longTimeout, func(ctx context.Context) (model.OptimizationResult, error) { return b.svc.OptimizeAll(ctx, true, true) })
}

// Sync is POST /api/sync: the Sync action (demo regenerated, changed
// export files imported, live days fetched).
func (b *Bindings) Sync(req service.SyncRequest) ([]service.SyncResult, error) {
	return do(b, longTimeout, func(ctx context.Context) ([]service.SyncResult, error) { return b.svc.RunSync(ctx, req) })
}

// GenerateReport is POST /api/reports.
func (b *Bindings) GenerateReport(req model.ReportRequest) (model.ReportResult, error) {
	return do(b, longTimeout, func(ctx context.Context) (model.ReportResult, error) {
		return b.svc.GenerateReport(ctx, req)
	})
}

// ListReports is GET /api/reports.
func (b *Bindings) ListReports() ([]service.ReportFile, error) {
	return do(b, callTimeout, b.svc.ListReports)
}

// ProviderStatus is GET /api/status.
func (b *Bindings) ProviderStatus() (model.ProviderStatus, error) {
	return do(b, callTimeout, b.svc.ProviderStatus)
}

// ProviderDetails is GET /api/status/detailed.
func (b *Bindings) ProviderDetails() ([]model.ProviderDetail, error) {
	return do(b, callTimeout, b.svc.ProviderDetails)
}

// ValidateCredentials is POST /api/credentials/validate.
func (b *Bindings) ValidateCredentials() (map[model.ProviderKey]model.CredentialCheck, error) {
	return do(b, callTimeout, b.svc.ValidateCredentials)
}

// AllocateCosts is POST /api/allocate.
func (b *Bindings) AllocateCosts(rules model.AllocationRules) (model.AllocationResult, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.AllocationResult, error) { return b.svc.AllocateCosts(ctx, rules) })
}

// ListAllocationRules is GET /api/allocation/rules.
func (b *Bindings) ListAllocationRules() ([]model.RuleSet, error) {
	return do(b, callTimeout, b.svc.RuleSets)
}

// SaveAllocationRule is POST /api/allocation/rules.
func (b *Bindings) SaveAllocationRule(name string, rules model.AllocationRules) (model.RuleSet, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.RuleSet, error) { return b.svc.SaveRuleSet(ctx, name, rules) })
}

// Metrics is GET /api/performance.
func (b *Bindings) Metrics() (model.PerformanceMetrics, error) {
	return do(b, callTimeout, b.svc.PerformanceMetrics)
}

// CheckHealth is GET /api/health.
func (b *Bindings) CheckHealth() (model.Health, error) {
	return do(b, callTimeout, func(ctx context.Context) (model.Health, error) { return b.svc.CheckHealth(ctx), nil })
}

// Alerts is GET /api/alerts.
func (b *Bindings) Alerts() ([]model.Alert, error) {
	return do(b, callTimeout, b.svc.Alerts)
}

// ListRuns is GET /api/runs.
func (b *Bindings) ListRuns() ([]model.Run, error) {
	return do(b, callTimeout, func(ctx context.Context) ([]model.Run, error) { return b.svc.Runs(ctx, 0) })
}

// Session is GET /api/session. The desktop is a local, single-user app:
// there is no login and no user name, and its user is an admin.
func (b *Bindings) Session() (Session, error) {
	c := b.svc.Config()
	return Session{Features: c.Dashboard.Features, Currency: c.Currency.Base, Version: service.Version, AuthKind: "desktop",
		Role: b.who.Role, Permissions: model.PermissionsOf(b.who.Role)}, nil
}

// SetCredential stores one credential field in the OS keyring (desktop only).
func (b *Bindings) SetCredential(provider, field, value string) error {
	_, err := do(b, callTimeout, done(func(ctx context.Context) error {
		return b.svc.SetCredential(ctx, model.ProviderKey(provider), field, value)
	}))
	return err
}

// DeleteCredential removes one credential field from the OS keyring (desktop only).
func (b *Bindings) DeleteCredential(provider, field string) error {
	_, err := do(b, callTimeout, done(func(ctx context.Context) error {
		return b.svc.DeleteCredential(ctx, model.ProviderKey(provider), field)
	}))
	return err
}

// CredentialFields lists a provider's credential fields and which are set (desktop only).
func (b *Bindings) CredentialFields(provider string) ([]model.CredentialField, error) {
	return do(b, callTimeout, func(ctx context.Context) ([]model.CredentialField, error) {
		return b.svc.CredentialFields(ctx, model.ProviderKey(provider))
	})
}

// CredentialStoreStatus says which keyring is in use and whether it is locked (desktop only).
func (b *Bindings) CredentialStoreStatus() (model.CredentialStoreStatus, error) {
	return do(b, callTimeout, b.svc.CredentialStoreStatus)
}

// UnlockCredentials gives the encrypted-file keyring its passphrase (desktop only).
func (b *Bindings) UnlockCredentials(passphrase string) error {
	_, err := do(b, callTimeout, done(func(ctx context.Context) error { return b.svc.UnlockCredentials(ctx, passphrase) }))
	return err
}

// Session is what the Session binding answers, in GET /api/session's shape.
type Session struct {
	Username string                `json:"username"`
	Features config.FeaturesConfig `json:"features"`
	Currency string                `json:"currency"`
	Version  string                `json:"version"`
	AuthKind string                `json:"auth"`
	Role     model.Role            `json:"role"`
	// Permissions are what the role may do: the UI hides the rest.
	Permissions []model.Permission `json:"permissions"`
}

// ListBudgets is GET /api/budgets.
func (b *Bindings) ListBudgets() ([]service.BudgetView, error) {
	return do(b, callTimeout, b.svc.Budgets)
}

// SaveBudget is POST /api/budgets (id 0) and PUT /api/budgets/{id}.
func (b *Bindings) SaveBudget(id int64, budget config.Budget) (service.BudgetView, error) {
	return do(b, callTimeout, func(ctx context.Context) (service.BudgetView, error) {
		return b.svc.SaveBudget(ctx, id, budget, desktopActor())
	})
}

// DeleteBudget is DELETE /api/budgets/{id}.
func (b *Bindings) DeleteBudget(id int64) (bool, error) {
	return do(b, callTimeout, func(ctx context.Context) (bool, error) { return true, b.svc.DeleteBudget(ctx, id, desktopActor()) })
}

// UnitMetrics is GET /api/units: the stored business metrics.
func (b *Bindings) UnitMetrics() ([]model.UnitMetric, error) {
	return do(b, callTimeout, b.svc.UnitMetrics)
}

// ImportUnits is POST /api/units: a units CSV the page read (units files
// are small: package units bounds them), name labelling its errors.
func (b *Bindings) ImportUnits(name, csv string) (service.UnitsImport, error) {
	return do(b, callTimeout, func(ctx context.Context) (service.UnitsImport, error) {
		return b.svc.ImportUnits(ctx, service.Bounded(name, service.MaxFilterLen), strings.NewReader(csv))
	})
}

// ListSchedules is GET /api/schedules.
func (b *Bindings) ListSchedules() ([]service.ScheduleView, error) {
	return do(b, callTimeout, b.svc.Schedules)
}

// SaveSchedule is POST /api/schedules (id 0) and PUT /api/schedules/{id}.
func (b *Bindings) SaveSchedule(id int64, sc config.Schedule) (service.ScheduleView, error) {
	return do(b, callTimeout, func(ctx context.Context) (service.ScheduleView, error) {
		return b.svc.SaveSchedule(ctx, id, sc, desktopActor())
	})
}

// DeleteSchedule is DELETE /api/schedules/{id}.
func (b *Bindings) DeleteSchedule(id int64) (bool, error) {
	return do(b, callTimeout, func(ctx context.Context) (bool, error) { return true, b.svc.DeleteSchedule(ctx, id, desktopActor()) })
}

// ListAnomalies is GET /api/anomalies.
func (b *Bindings) ListAnomalies() (service.AnomalyList, error) {
	return do(b, callTimeout, b.svc.Anomalies)
}

// Anomaly is GET /api/anomalies/{id}.
func (b *Bindings) Anomaly(id string) (service.AnomalyDetail, error) {
	return do(b, callTimeout, func(ctx context.Context) (service.AnomalyDetail, error) { return b.svc.Anomaly(ctx, id) })
}

// DecideAnomaly is POST /api/anomalies/{id}/decision.
func (b *Bindings) DecideAnomaly(id string, r service.AnomalyDecisionRequest) (service.AnomalyView, error) {
	return do(b, callTimeout, func(ctx context.Context) (service.AnomalyView, error) {
		return b.svc.DecideAnomaly(ctx, id, r, desktopActor())
	})
}

// desktopActor names the desktop's user in the audit log: the desktop has
// no login, so it is the OS account running it.
func desktopActor() string {
	if u := osUser(); u != "" {
		return "desktop:" + u
	}
	return "desktop"
}

// desktopUser is who saves a view from the window.
const desktopUser = "desktop"

// osUser is the OS account running the app, "" if unknown.
func osUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}
