package store

import (
	"context"
	"database/sql"
	"fmt"
)

// AnomalyDecision is a stored decision about an anomaly; Service is set
// for an ignored pattern.
type AnomalyDecision struct {
	ID, Action, Reason, Provider, Service string
	DecidedBy, DecidedAt                  string
}

// AnomalyDecisions lists the stored decisions.
func (s *Store) AnomalyDecisions(ctx context.Context) ([]AnomalyDecision, error) {
	const q = `SELECT id, action, reason, provider, service, decided_by, decided_at FROM anomaly_decisions ORDER BY id`
	var out []AnomalyDecision
	err := s.query(ctx, q, nil, func(rows *sql.Rows) error {
		var d AnomalyDecision
		if err := rows.Scan(&d.ID, &d.Action, &d.Reason, &d.Provider, &d.Service, &d.DecidedBy, &d.DecidedAt); err != nil {
			return err
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// DecideAnomaly stores a decision (action "open" removes it) with its
// audit line; the decisions version moves, as alerts depend on decisions.
func (s *Store) DecideAnomaly(ctx context.Context, d AnomalyDecision, audit AuditEvent) error {
	err := s.decisionsTx(ctx, func(tx *sql.Tx) error {
		var err error
		if d.Action == "open" {
			_, err = tx.ExecContext(ctx, `DELETE FROM anomaly_decisions WHERE id = ?`, d.ID)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO anomaly_decisions(id, action, reason, provider, service, decided_by, decided_at)
				VALUES (?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET action = excluded.action, reason = excluded.reason,
				provider = excluded.provider, service = excluded.service, decided_by = excluded.decided_by, decided_at = excluded.decided_at`,
				d.ID, d.Action, d.Reason, d.Provider, d.Service, d.DecidedBy, d.DecidedAt)
		}
		if err != nil {
			return err
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		return fmt.Errorf("store: anomaly decision: %w", err)
	}
	return nil
}
