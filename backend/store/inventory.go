package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// ReplaceInventory replaces a provider's inventory and the utilization
// samples of the same span, in one transaction.
func (s *Store) ReplaceInventory(ctx context.Context, src model.SourceKind, inv model.Inventory) error {
	now := time.Now().UTC().Format(time.RFC3339)
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM resources WHERE provider = ? AND source = ?`, inv.Provider, src); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM utilization WHERE provider = ? AND source = ?`, inv.Provider, src); err != nil {
			return err
		}
		// A resource listed twice (cloud APIs do that across pages) is
		// stored once, as last listed, rather than failing the whole
		// inventory.
		insR, err := tx.PrepareContext(ctx, `INSERT INTO resources(provider, source, resource_id, data, updated_at) VALUES (?,?,?,?,?)
			ON CONFLICT(provider, source, resource_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`)
		if err != nil {
			return err
		}
		defer insR.Close()
		for _, r := range inv.Resources {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			if _, err := insR.ExecContext(ctx, inv.Provider, src, r.ResourceID, string(b), now); err != nil {
				return err
			}
		}
		insU, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO utilization(provider, source, resource_id, ts, cpu, memory, network) VALUES (?,?,?,?,?,?,?)`)
		if err != nil {
			return err
		}
		defer insU.Close()
		for _, u := range inv.Utilization {
			if _, err := insU.ExecContext(ctx, inv.Provider, src, u.ResourceID, u.Time.Unix(), u.CPU, u.Memory, u.NetworkBytes); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: replace inventory: %w", err)
	}
	return nil
}

// Inventory returns a provider's stored inventory with the utilization
// samples taken at or after since.
func (s *Store) Inventory(ctx context.Context, p model.ProviderKey, src model.SourceKind, since time.Time) (model.Inventory, error) {
	inv := model.Inventory{Provider: p}
	err := s.query(ctx, `SELECT data FROM resources WHERE provider = ? AND source = ? ORDER BY resource_id`,
		[]any{p, src}, func(rows *sql.Rows) error {
			var data string
			if err := rows.Scan(&data); err != nil {
				return err
			}
			var r model.Resource
			if err := json.Unmarshal([]byte(data), &r); err != nil {
				return err
			}
			inv.Resources = append(inv.Resources, r)
			return nil
		})
	if err != nil {
		return inv, err
	}
	err = s.query(ctx, `SELECT resource_id, ts, cpu, memory, network FROM utilization
		WHERE provider = ? AND source = ? AND ts >= ? ORDER BY resource_id, ts`,
		[]any{p, src, since.Unix()}, func(rows *sql.Rows) error {
			var u model.UtilizationSample
			var ts int64
			if err := rows.Scan(&u.ResourceID, &ts, &u.CPU, &u.Memory, &u.NetworkBytes); err != nil {
				return err
			}
			u.Time = time.Unix(ts, 0).UTC()
			inv.Utilization = append(inv.Utilization, u)
			return nil
		})
	return inv, err
}
