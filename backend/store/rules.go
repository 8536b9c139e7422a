package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// RuleSet is a saved rule set (model.RuleSet).
type RuleSet = model.RuleSet

// SaveRuleSet creates or replaces the rule set called name, with its
// audit event in the same transaction.
func (s *Store) SaveRuleSet(ctx context.Context, name string, rules model.AllocationRules, audit AuditEvent) (RuleSet, error) {
	b, err := json.Marshal(rules)
	if err != nil {
		return RuleSet{}, fmt.Errorf("store: encode rules: %w", err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	var rs RuleSet
	err = s.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO allocation_rules(name, rules, created_at, updated_at) VALUES (?,?,?,?)
			ON CONFLICT(name) DO UPDATE SET rules = excluded.rules, updated_at = excluded.updated_at
			RETURNING id, created_at, updated_at`, name, string(b), now, now).Scan(&rs.ID, &rs.CreatedAt, &rs.UpdatedAt)
		if err != nil {
			return err
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		return RuleSet{}, fmt.Errorf("store: save rules: %w", err)
	}
	rs.Name, rs.Rules = name, rules
	return rs, nil
}

// RuleSets lists the saved rule sets by name.
func (s *Store) RuleSets(ctx context.Context) ([]RuleSet, error) {
	out := []RuleSet{}
	err := s.query(ctx, `SELECT id, name, rules, created_at, updated_at FROM allocation_rules ORDER BY name`, nil,
		func(rows *sql.Rows) error {
			var rs RuleSet
			var b string
			if err := rows.Scan(&rs.ID, &rs.Name, &b, &rs.CreatedAt, &rs.UpdatedAt); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(b), &rs.Rules); err != nil {
				return err
			}
			out = append(out, rs)
			return nil
		})
	return out, err
}
