package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// ResourceName is what the sources call a resource: its name and type,
// as of the latest day a batch that named it covered.
type ResourceName struct {
	Provider model.ProviderKey
	Name     string
	Type     string
}

// writeResourceNames keeps the names a batch's keys give (the latest
// day wins, so importing an older file never brings an old name back),
// in the batch's transaction.
func (w *historyWriter) writeResourceNames(ctx context.Context, p model.ProviderKey, keys []model.CostLine, to model.DayNum) error {
	seen := map[string]bool{}
	for i := range keys {
		k := &keys[i]
		name := strings.TrimSpace(k.ResourceName)
		if k.ResourceID == "" || name == "" || name == k.ResourceID || seen[k.ResourceID] {
			continue
		}
		seen[k.ResourceID] = true
		_, err := w.tx.ExecContext(ctx, `INSERT INTO resource_names(provider, resource_id, name, type, last_seen) VALUES (?,?,?,?,?)
			ON CONFLICT(provider, resource_id) DO UPDATE SET name = excluded.name, type = excluded.type, last_seen = excluded.last_seen
			WHERE excluded.last_seen >= resource_names.last_seen`,
			string(p), k.ResourceID, model.ClipDim(name, model.MaxNameLen), k.ResourceType, int64(to))
		if err != nil {
			return fmt.Errorf("resource name: %w", err)
		}
	}
	return nil
}

// ResourceNames returns the stored names of the resources ids (those
// without one are left out), by resource id. An id two providers share
// (none of the clouds' ids can) gets the name seen last.
func (s *Store) ResourceNames(ctx context.Context, ids []string) (map[string]ResourceName, error) {
	out := map[string]ResourceName{}
	if len(ids) == 0 {
		return out, nil
	}
	b, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	const q = `SELECT provider, resource_id, name, type FROM resource_names
		WHERE resource_id IN (SELECT value FROM json_each(?)) ORDER BY last_seen`
	err = s.query(ctx, q, []any{string(b)}, func(rows *sql.Rows) error {
		var id string
		var n ResourceName
		if err := rows.Scan(&n.Provider, &id, &n.Name, &n.Type); err != nil {
			return err
		}
		out[id] = n
		return nil
	})
	return out, err
}
