package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

const viewCols = `id, name, spec, created_by, created_at, updated_at`

func scanView(row interface{ Scan(...any) error }) (model.SavedView, error) {
	var v model.SavedView
	var spec string
	if err := row.Scan(&v.ID, &v.Name, &spec, &v.CreatedBy, &v.CreatedAt, &v.UpdatedAt); err != nil {
		return v, err
	}
	if err := json.Unmarshal([]byte(spec), &v.Spec); err != nil {
		return v, fmt.Errorf("store: view %q: %w", v.Name, err)
	}
	return v, nil
}

// Views lists the saved views by name.
func (s *Store) Views(ctx context.Context) ([]model.SavedView, error) {
	out := []model.SavedView{}
	err := s.query(ctx, `SELECT `+viewCols+` FROM saved_views ORDER BY name COLLATE NOCASE`, nil, func(rows *sql.Rows) error {
		v, err := scanView(rows)
		out = append(out, v)
		return err
	})
	return out, err
}

// View returns the view called name (ignoring case), or ErrNotFound.
func (s *Store) View(ctx context.Context, name string) (model.SavedView, error) {
	v, err := scanView(s.r.QueryRowContext(ctx, `SELECT `+viewCols+` FROM saved_views WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return v, ErrNotFound
	}
	if err != nil {
		return v, fmt.Errorf("store: view: %w", err)
	}
	return v, nil
}

// SaveView creates the view called name, or replaces its spec when
// replace is set, with its audit event in the same transaction; without
// replace an existing name is ErrDuplicate.
func (s *Store) SaveView(ctx context.Context, name string, spec model.ViewSpec, by string, replace bool, audit AuditEvent) (model.SavedView, error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return model.SavedView{}, fmt.Errorf("store: encode view: %w", err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	q := `INSERT INTO saved_views(name, spec, created_by, created_at, updated_at) VALUES (?,?,?,?,?)`
	if replace {
		q += ` ON CONFLICT(name) DO UPDATE SET spec = excluded.spec, updated_at = excluded.updated_at`
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q, name, string(b), by, now, now); err != nil {
			return err
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		if !replace && isUniqueViolation(err) {
			return model.SavedView{}, ErrDuplicate
		}
		return model.SavedView{}, fmt.Errorf("store: save view: %w", err)
	}
	return s.viewFromWriter(ctx, name)
}

// viewFromWriter reads a view just written through the writer, so the
// answer never lags behind the write.
func (s *Store) viewFromWriter(ctx context.Context, name string) (model.SavedView, error) {
	v, err := scanView(s.w.QueryRowContext(ctx, `SELECT `+viewCols+` FROM saved_views WHERE name = ?`, name))
	if err != nil {
		return v, fmt.Errorf("store: view: %w", err)
	}
	return v, nil
}

// DeleteView removes the view called name, with its audit event in the
// same transaction, or returns ErrNotFound.
func (s *Store) DeleteView(ctx context.Context, name string, audit AuditEvent) error {
	return deleteAudited(ctx, s.tx, "saved_views", "view", "name", name, audit)
}

// AccountNames returns the stored account names, account id to name.
func (s *Store) AccountNames(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	err := s.query(ctx, `SELECT account, name FROM account_names ORDER BY provider DESC`, nil, func(rows *sql.Rows) error {
		var a, n string
		if err := rows.Scan(&a, &n); err != nil {
			return err
		}
		out[a] = n
		return nil
	})
	return out, err
}

// SetAccountNames stores the names of a provider's accounts (id to name);
// empty names are skipped.
func (s *Store) SetAccountNames(ctx context.Context, p model.ProviderKey, names map[string]string) error {
	if len(names) == 0 {
		return nil
	}
	return s.tx(ctx, func(tx *sql.Tx) error { return setAccountNames(ctx, tx, p, names) })
}

func setAccountNames(ctx context.Context, tx *sql.Tx, p model.ProviderKey, names map[string]string) error {
	now := time.Now().UTC().Format(time.RFC3339)
	for a, n := range names {
		if a == "" || n == "" || n == a {
			continue
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO account_names(provider, account, name, updated_at) VALUES (?,?,?,?)
			ON CONFLICT(provider, account) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at`, string(p), a, n, now)
		if err != nil {
			return fmt.Errorf("store: set account name: %w", err)
		}
	}
	return nil
}
