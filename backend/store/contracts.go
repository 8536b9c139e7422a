package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/costpilot/costpilot/backend/contracts"
	"github.com/costpilot/costpilot/backend/model"
)

// ReplaceContractCommitments stores a Contract Commitment dataset: the
// providers it names lose their earlier commitments. One transaction.
func (s *Store) ReplaceContractCommitments(ctx context.Context, cs []contracts.Commitment) error {
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		var providers []model.ProviderKey
		for _, c := range cs {
			if !slices.Contains(providers, c.Provider) {
				providers = append(providers, c.Provider)
				if _, err := tx.ExecContext(ctx, `DELETE FROM contract_commitments WHERE provider = ?`, string(c.Provider)); err != nil {
					return err
				}
			}
		}
		st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO contract_commitments(provider, id, contract_id, category, type, description,
			cost, quantity, unit, currency, start_day, end_day, contract_start, contract_end) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, c := range cs {
			var cost, qty any
			if c.HasCost {
				cost = int64(c.Cost)
			}
			if c.HasQuantity {
				qty = c.Quantity
			}
			if _, err := st.ExecContext(ctx, string(c.Provider), c.ID, c.ContractID, c.Category, c.Type, c.Description, cost, qty,
				c.Unit, c.Currency, c.Start, c.End, c.ContractStart, c.ContractEnd); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: replace contract commitments: %w", err)
	}
	return nil
}

// ContractCommitments lists the stored commitments by provider, end, id.
func (s *Store) ContractCommitments(ctx context.Context) ([]contracts.Commitment, error) {
	var out []contracts.Commitment
	err := s.query(ctx, `SELECT provider, id, contract_id, category, type, description, cost, quantity, unit, currency, start_day, end_day,
		contract_start, contract_end FROM contract_commitments ORDER BY provider, end_day, id`, nil, func(rows *sql.Rows) error {
		var c contracts.Commitment
		var p string
		var cost sql.NullInt64
		var qty sql.NullFloat64
		if err := rows.Scan(&p, &c.ID, &c.ContractID, &c.Category, &c.Type, &c.Description, &cost, &qty, &c.Unit, &c.Currency,
			&c.Start, &c.End, &c.ContractStart, &c.ContractEnd); err != nil {
			return err
		}
		c.Provider = model.ProviderKey(p)
		c.Cost, c.HasCost = model.Nanos(cost.Int64), cost.Valid
		c.Quantity, c.HasQuantity = qty.Float64, qty.Valid
		out = append(out, c)
		return nil
	})
	return out, err
}

// ReplaceContractApplied stores the applied sums of an import: each
// commitment and month they hold is replaced.
func (s *Store) ReplaceContractApplied(ctx context.Context, sums map[contracts.AppliedKey]*contracts.AppliedSum) error {
	if len(sums) == 0 {
		return nil
	}
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO contract_applied(provider, commitment_id, month, cost, quantity, unit, rows)
			VALUES (?,?,?,?,?,?,?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for k, v := range sums {
			if _, err := st.ExecContext(ctx, string(k.Provider), k.CommitmentID, k.Month, int64(v.Cost), v.Quantity, v.Unit, v.Rows); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: replace contract applied: %w", err)
	}
	return nil
}

// ContractApplied lists the stored applied sums.
func (s *Store) ContractApplied(ctx context.Context) ([]contracts.Applied, error) {
	var out []contracts.Applied
	err := s.query(ctx, `SELECT provider, commitment_id, month, cost, quantity, unit, rows FROM contract_applied
		ORDER BY provider, commitment_id, month`, nil, func(rows *sql.Rows) error {
		var a contracts.Applied
		var p string
		var cost int64
		if err := rows.Scan(&p, &a.CommitmentID, &a.Month, &cost, &a.Quantity, &a.Unit, &a.Rows); err != nil {
			return err
		}
		a.Provider, a.Cost = model.ProviderKey(p), model.Nanos(cost)
		out = append(out, a)
		return nil
	})
	return out, err
}
