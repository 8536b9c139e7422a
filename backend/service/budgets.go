package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/provider/demo"
	"github.com/costpilot/costpilot/backend/store"
)

// Budget sources.
const (
	BudgetFromConfig    = "config"    // the config file's budgets: edited there
	BudgetFromDashboard = "dashboard" // made in the dashboard, the API or the CLI
)

// Audit events of budgets.
const (
	AuditBudgetSave   = "budget_save"
	AuditBudgetDelete = "budget_delete"
)

// BudgetView is a budget with where it comes from and how it stands: GET
// /api/budgets.
type BudgetView struct {
	ID        int64                `json:"id"` // 0 for the config file's
	Source    string               `json:"source"`
	ChangedBy string               `json:"changed_by,omitempty"`
	ChangedAt string               `json:"changed_at,omitempty"`
	Status    monitor.BudgetStatus `json:"status"`
	// Measured is false for a budget with no status: its scope names a
	// provider that is not enabled, or it is on cost per unit and its
	// metric is not stored or has no units in the period yet.
	Measured bool `json:"measured"`
	// Unmeasured says why a budget is not measured: provider off, no
	// metric, no units.
	Unmeasured string `json:"unmeasured,omitempty"`
}

// budgets is every budget: the config file's, then the stored ones.
func (s *Service) budgets(ctx context.Context) ([]BudgetView, error) {
	var out []BudgetView
	for _, b := range s.cfg.Budgets {
		out = append(out, BudgetView{Source: BudgetFromConfig, Status: monitor.BudgetStatus{Budget: b}})
	}
	stored, err := s.store.Budgets(ctx)
	if err != nil {
		return nil, err
	}
	for _, b := range stored {
		out = append(out, BudgetView{ID: b.ID, Source: BudgetFromDashboard, ChangedBy: b.ChangedBy, ChangedAt: b.ChangedAt,
			Status: monitor.BudgetStatus{Budget: b.Budget}})
	}
	return out, nil
}

// Budgets is every budget measured against the spend of its current
// period and the forecast to the period's end.
func (s *Service) Budgets(ctx context.Context) ([]BudgetView, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	views, err := s.budgets(ctx)
	if err != nil || len(views) == 0 {
		return []BudgetView{}, err
	}
	today := demo.Today(s.now())
	yday := today.AddDate(0, 0, -1)
	for i := range views {
		st, unmeasured, err := s.budgetStatus(ctx, views[i].Status.Budget, today, yday)
		if err != nil {
			return nil, err
		}
		if unmeasured != "" {
			views[i].Unmeasured = unmeasured
			continue
		}
		views[i].Status, views[i].Measured = st, true
	}
	return views, nil
}

// checkBudget is config.CheckBudget as an error naming the first field.
func checkBudget(b config.Budget) error {
	var err error
	config.CheckBudget("", b, func(field, format string, args ...any) {
		if err == nil {
			err = apperr.E(apperr.Validation, "%s %s", field, fmt.Sprintf(format, args...)).WithDetail("field", field)
		}
	})
	if err == nil && b.Scope.Tag != "" {
		_, _, err = ParseTagFilter(b.Scope.Tag)
	}
	return err
}

// checkPer refuses a budget on cost per unit of a metric not stored,
// naming the stored ones.
func (s *Service) checkPer(ctx context.Context, per string) error {
	if per == "" {
		return nil
	}
	known, err := s.store.UnitMetrics(ctx)
	if err != nil {
		return err
	}
	for _, m := range known {
		if m.Name == per {
			return nil
		}
	}
	return unknownMetric(per, known)
}

// SaveBudget creates a budget (id 0) or changes one made in the dashboard;
// the config file's budgets are changed in the file.
func (s *Service) SaveBudget(ctx context.Context, id int64, b config.Budget, actor string) (BudgetView, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return BudgetView{}, err
	}
	if err := checkBudget(b); err != nil {
		return BudgetView{}, err
	}
	if err := s.checkPer(ctx, b.Per); err != nil {
		return BudgetView{}, err
	}
	for _, c := range s.cfg.Budgets {
		if c.Name == b.Name {
			return BudgetView{}, apperr.E(apperr.Validation, "the config file has a budget named %q: choose another name", b.Name).WithDetail("field", "name")
		}
	}
	at := s.now().UTC().Format(time.RFC3339)
	ev := store.AuditEvent{Time: at, Event: AuditBudgetSave, Username: actor, Details: map[string]any{
		"name": b.Name, "amount": b.Amount, "period": b.Period, "scope": b.Scope, "per": b.Per}}
	id, err := s.store.SaveBudget(ctx, store.StoredBudget{ID: id, Budget: b, ChangedBy: actor, ChangedAt: at}, ev)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return BudgetView{}, apperr.E(apperr.NotFound, "no budget %d", id).WithDetail("field", "id")
	case errors.Is(err, store.ErrNameTaken):
		return BudgetView{}, apperr.E(apperr.Validation, "a budget named %q exists", b.Name).WithDetail("field", "name")
	case err != nil:
		return BudgetView{}, err
	}
	views, err := s.Budgets(ctx)
	if err != nil {
		return BudgetView{}, err
	}
	for _, v := range views {
		if v.ID == id {
			return v, nil
		}
	}
	return BudgetView{}, apperr.E(apperr.NotFound, "no budget %d", id)
}

// DeleteBudget removes a budget made in the dashboard.
func (s *Service) DeleteBudget(ctx context.Context, id int64, actor string) error {
	if err := s.can(ctx, model.PermChange); err != nil {
		return err
	}
	ev := store.AuditEvent{Time: s.now().UTC().Format(time.RFC3339), Event: AuditBudgetDelete, Username: actor,
		Details: map[string]any{"id": id}}
	err := s.store.DeleteBudget(ctx, id, ev)
	if errors.Is(err, store.ErrNotFound) {
		return apperr.E(apperr.NotFound, "no budget %d made in the dashboard (the config file's are removed there)", id).WithDetail("field", "id")
	}
	return err
}
