package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// StoredBudget is a budget made in the dashboard, the API or the CLI.
type StoredBudget struct {
	ID        int64
	Budget    config.Budget
	ChangedBy string
	ChangedAt string
}

// Budgets lists the stored budgets by name.
func (s *Store) Budgets(ctx context.Context) ([]StoredBudget, error) {
	const q = `SELECT id, name, amount, period, provider, account, service, category, tag, cluster, namespace, per, changed_by, changed_at FROM budgets ORDER BY name`
	var out []StoredBudget
	err := s.query(ctx, q, nil, func(rows *sql.Rows) error {
		var b StoredBudget
		var p string
		if err := rows.Scan(&b.ID, &b.Budget.Name, &b.Budget.Amount, &b.Budget.Period, &p, &b.Budget.Scope.Account,
			&b.Budget.Scope.Service, &b.Budget.Scope.Category, &b.Budget.Scope.Tag, &b.Budget.Scope.Cluster, &b.Budget.Scope.Namespace, &b.Budget.Per, &b.ChangedBy, &b.ChangedAt); err != nil {
			return err
		}
		b.Budget.Scope.Provider = model.ProviderKey(p)
		out = append(out, b)
		return nil
	})
	return out, err
}

// ErrNameTaken is a budget name already in use.
var ErrNameTaken = errors.New("store: name taken")

// SaveBudget creates (ID 0) or replaces a budget, with its audit line in
// the same transaction, and returns its id. The decisions version moves:
// alerts and budget answers depend on budgets.
func (s *Store) SaveBudget(ctx context.Context, b StoredBudget, audit AuditEvent) (int64, error) {
	id := b.ID
	err := s.decisionsTx(ctx, func(tx *sql.Tx) error {
		x := b.Budget
		var err error
		if id == 0 {
			err = tx.QueryRowContext(ctx, `INSERT INTO budgets(name, amount, period, provider, account, service, category, tag, cluster, namespace, per, changed_by, changed_at)
				VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`, x.Name, x.Amount, x.Period, string(x.Scope.Provider), x.Scope.Account,
				x.Scope.Service, x.Scope.Category, x.Scope.Tag, x.Scope.Cluster, x.Scope.Namespace, x.Per, b.ChangedBy, b.ChangedAt).Scan(&id)
		} else {
			var res sql.Result
			res, err = tx.ExecContext(ctx, `UPDATE budgets SET name = ?, amount = ?, period = ?, provider = ?, account = ?, service = ?,
				category = ?, tag = ?, cluster = ?, namespace = ?, per = ?, changed_by = ?, changed_at = ? WHERE id = ?`, x.Name, x.Amount, x.Period,
				string(x.Scope.Provider), x.Scope.Account, x.Scope.Service, x.Scope.Category, x.Scope.Tag, x.Scope.Cluster, x.Scope.Namespace, x.Per, b.ChangedBy, b.ChangedAt, id)
			if err == nil {
				if n, _ := res.RowsAffected(); n == 0 {
					return ErrNotFound
				}
			}
		}
		if err != nil {
			if strings.Contains(err.Error(), "UNIQUE") {
				return ErrNameTaken
			}
			return err
		}
		audit.Details["id"] = id
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrNameTaken) {
			return 0, err
		}
		return 0, fmt.Errorf("store: save budget: %w", err)
	}
	return id, nil
}

// DeleteBudget removes a stored budget.
func (s *Store) DeleteBudget(ctx context.Context, id int64, audit AuditEvent) error {
	return deleteAudited(ctx, s.decisionsTx, "budgets", "budget", "id", id, audit)
}

// deleteAudited removes the row of table whose column key is value, in
// one transaction (run) with its audit event; ErrNotFound when there is
// none.
func deleteAudited(ctx context.Context, run func(context.Context, func(*sql.Tx) error) error, table, what, key string, value any, audit AuditEvent) error {
	err := run(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE `+key+` = ?`, value)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("store: delete %s: %w", what, err)
	}
	return err
}
