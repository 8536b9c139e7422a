package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/costpilot/costpilot/backend/model"
)

// UnitSeries is a business metric's scope and daily values to store.
type UnitSeries struct {
	Metric string
	Scope  map[string]string
	Values map[model.DayNum]float64
}

// ScopeConflictError is a metric stored with another scope than the one
// an import gives it.
type ScopeConflictError struct {
	Metric string
	Stored map[string]string
}

func (e *ScopeConflictError) Error() string {
	return fmt.Sprintf("store: metric %s is stored with another scope", e.Metric)
}

// SaveUnits stores the values of metrics, replacing those of the same
// metric and day, with its audit line, in one transaction: a file is
// stored whole or not at all. A metric already stored with another scope
// is refused (ScopeConflictError). The history version moves: cost
// answers per unit depend on the values.
func (s *Store) SaveUnits(ctx context.Context, series []UnitSeries, by, at string, audit AuditEvent) error {
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		for _, u := range series {
			if u.Scope == nil {
				u.Scope = map[string]string{} // stored as {}, never null
			}
			scope, err := json.Marshal(u.Scope)
			if err != nil {
				return err
			}
			var stored string
			err = tx.QueryRowContext(ctx, `SELECT scope FROM unit_metrics WHERE name = ?`, u.Metric).Scan(&stored)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				_, err = tx.ExecContext(ctx, `INSERT INTO unit_metrics(name, scope, changed_by, changed_at) VALUES (?,?,?,?)`,
					u.Metric, string(scope), by, at)
			case err == nil:
				// Marshal sorts a map's keys: equal scopes are equal text.
				if stored != string(scope) {
					var old map[string]string
					if err := json.Unmarshal([]byte(stored), &old); err != nil {
						return err
					}
					return &ScopeConflictError{Metric: u.Metric, Stored: old}
				}
				_, err = tx.ExecContext(ctx, `UPDATE unit_metrics SET changed_by = ?, changed_at = ? WHERE name = ?`, by, at, u.Metric)
			}
			if err != nil {
				return err
			}
			if err := putUnitValues(ctx, tx, u); err != nil {
				return err
			}
		}
		return addAudit(ctx, tx, audit)
	})
	var conflict *ScopeConflictError
	if err != nil && !errors.As(err, &conflict) {
		return fmt.Errorf("store: save units: %w", err)
	}
	return err
}

func putUnitValues(ctx context.Context, tx *sql.Tx, u UnitSeries) error {
	st, err := tx.PrepareContext(ctx, `INSERT INTO unit_values(metric, day, value) VALUES (?,?,?)
		ON CONFLICT(metric, day) DO UPDATE SET value = excluded.value`)
	if err != nil {
		return err
	}
	defer st.Close()
	for d, v := range u.Values {
		if _, err := st.ExecContext(ctx, u.Metric, int64(d), v); err != nil {
			return err
		}
	}
	return st.Close()
}

// UnitMetrics lists the stored metrics by name with the span and sum of
// their values.
func (s *Store) UnitMetrics(ctx context.Context) ([]model.UnitMetric, error) {
	const q = `SELECT m.name, m.scope, COALESCE(MIN(v.day), 0), COALESCE(MAX(v.day), 0), COUNT(v.day), COALESCE(SUM(v.value), 0)
		FROM unit_metrics m LEFT JOIN unit_values v ON v.metric = m.name GROUP BY m.name ORDER BY m.name`
	out := []model.UnitMetric{}
	err := s.query(ctx, q, nil, func(rows *sql.Rows) error {
		var m model.UnitMetric
		var scope string
		var first, last model.DayNum
		if err := rows.Scan(&m.Name, &scope, &first, &last, &m.Days, &m.Total); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(scope), &m.Scope); err != nil {
			return err
		}
		if m.Days > 0 {
			m.FirstDay, m.LastDay = first.String(), last.String()
		}
		out = append(out, m)
		return nil
	})
	return out, err
}

// UnitValues returns a metric's scope and its values over the inclusive
// days from..to; ErrNotFound when no such metric is stored.
func (s *Store) UnitValues(ctx context.Context, metric string, from, to model.DayNum) (map[string]string, map[model.DayNum]float64, error) {
	var scope string
	err := s.r.QueryRowContext(ctx, `SELECT scope FROM unit_metrics WHERE name = ?`, metric).Scan(&scope)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: unit metric: %w", err)
	}
	var sc map[string]string
	if err := json.Unmarshal([]byte(scope), &sc); err != nil {
		return nil, nil, fmt.Errorf("store: unit metric scope: %w", err)
	}
	vals := map[model.DayNum]float64{}
	err = s.query(ctx, `SELECT day, value FROM unit_values WHERE metric = ? AND day BETWEEN ? AND ?`,
		[]any{metric, int64(from), int64(to)}, func(rows *sql.Rows) error {
			var d model.DayNum
			var v float64
			if err := rows.Scan(&d, &v); err != nil {
				return err
			}
			vals[d] = v
			return nil
		})
	return sc, vals, err
}

// DeleteUnitMetric removes a metric and its values; ErrNotFound when no
// such metric is stored.
func (s *Store) DeleteUnitMetric(ctx context.Context, metric string, audit AuditEvent) error {
	// unit_values go with it (ON DELETE CASCADE).
	return deleteAudited(ctx, s.historyTx, "unit_metrics", "unit metric", "name", metric, audit)
}
