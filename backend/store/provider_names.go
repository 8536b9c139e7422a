package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// nameProvider records the display name of a batch's provider beyond the
// clouds, inside the batch's transaction, and refuses a provider past
// model.MaxExtraProviders (so a file cannot make thousands of them).
func nameProvider(ctx context.Context, tx *sql.Tx, b model.Batch) error {
	if b.Provider.Cloud() {
		return nil
	}
	const count = `SELECT COUNT(*) FROM provider_names WHERE provider <> ?`
	var n int
	if err := tx.QueryRowContext(ctx, count, string(b.Provider)).Scan(&n); err != nil {
		return fmt.Errorf("count providers: %w", err)
	}
	if n >= model.MaxExtraProviders {
		return apperr.E(apperr.Validation, "provider %q would be one more than the %d providers besides aws, azure, gcp and oci a history may hold", b.Provider, model.MaxExtraProviders).
			WithProvider(string(b.Provider))
	}
	name := b.ProviderName
	if name == "" {
		name = string(b.Provider)
	}
	// A later import's spelling wins, unless it gives none.
	const upsert = `INSERT INTO provider_names(provider, name) VALUES (?, ?)
		ON CONFLICT(provider) DO UPDATE SET name = CASE WHEN ? = '' THEN name ELSE excluded.name END`
	if _, err := tx.ExecContext(ctx, upsert, string(b.Provider), name, b.ProviderName); err != nil {
		return fmt.Errorf("name provider: %w", err)
	}
	return nil
}

// ProviderNames returns the display names of the providers beyond the
// clouds that were ever imported, by key.
func (s *Store) ProviderNames(ctx context.Context) (map[model.ProviderKey]string, error) {
	const q = `SELECT provider, name FROM provider_names`
	rows, err := s.r.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("store: provider names: %w", err)
	}
	defer rows.Close()
	out := map[model.ProviderKey]string{}
	for rows.Next() {
		var k, n string
		if err := rows.Scan(&k, &n); err != nil {
			return nil, fmt.Errorf("store: provider names: %w", err)
		}
		out[model.ProviderKey(k)] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: provider names: %w", err)
	}
	return out, nil
}
