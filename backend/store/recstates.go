package store

import (
	"context"
	"database/sql"
	"fmt"
)

// RecState is a recommendation's stored state (an open one has none).
type RecState struct {
	ID, State, Reason, Until   string
	Provider, Type, ResourceID string
	Finding                    string // the recommendation as JSON when the state was set
	ChangedBy, ChangedAt       string
}

// RecStates lists every stored recommendation state.
func (s *Store) RecStates(ctx context.Context) ([]RecState, error) {
	const q = `SELECT id, state, reason, until_day, provider, type, resource_id, finding, changed_by, changed_at
		FROM recommendation_states ORDER BY id`
	var out []RecState
	err := s.query(ctx, q, nil, func(rows *sql.Rows) error {
		var r RecState
		if err := rows.Scan(&r.ID, &r.State, &r.Reason, &r.Until, &r.Provider, &r.Type, &r.ResourceID, &r.Finding, &r.ChangedBy, &r.ChangedAt); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// SetRecState stores a state, or removes it when r.State is "open"; the
// audit event goes in the same transaction, and the decisions version
// moves so cached answers that count recommendations are recomputed.
func (s *Store) SetRecState(ctx context.Context, r RecState, audit AuditEvent) error {
	err := s.decisionsTx(ctx, func(tx *sql.Tx) error {
		if r.State == "open" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM recommendation_states WHERE id = ?`, r.ID); err != nil {
				return err
			}
		} else {
			_, err := tx.ExecContext(ctx, `INSERT INTO recommendation_states(id, state, reason, until_day, provider, type, resource_id, finding, changed_by, changed_at)
				VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET state = excluded.state, reason = excluded.reason,
				until_day = excluded.until_day, provider = excluded.provider, type = excluded.type, resource_id = excluded.resource_id,
				finding = excluded.finding, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
				r.ID, r.State, r.Reason, r.Until, r.Provider, r.Type, r.ResourceID, r.Finding, r.ChangedBy, r.ChangedAt)
			if err != nil {
				return err
			}
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		return fmt.Errorf("store: set recommendation state: %w", err)
	}
	return nil
}
