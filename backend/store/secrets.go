package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The secrets table holds only ciphertext: the Service encrypts before it
// calls PutSecret and decrypts after Secret.

const putSecretSQL = `INSERT INTO secrets(name, ciphertext, updated_at) VALUES (?, ?, ?)
	ON CONFLICT(name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`

// PutSecret creates or replaces the ciphertext stored under name.
func (s *Store) PutSecret(ctx context.Context, name string, ciphertext []byte, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, putSecretSQL, name, ciphertext, at.UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("store: put secret: %w", err)
	}
	return nil
}

const secretSQL = `SELECT ciphertext FROM secrets WHERE name = ?`

// Secret returns the ciphertext stored under name; ErrNotFound if none.
func (s *Store) Secret(ctx context.Context, name string) ([]byte, error) {
	var b []byte
	err := s.r.QueryRowContext(ctx, secretSQL, name).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: secret: %w", err)
	}
	return b, nil
}

const secretNamesSQL = `SELECT name FROM secrets ORDER BY name`

// SecretNames lists the names of the stored secrets.
func (s *Store) SecretNames(ctx context.Context) ([]string, error) {
	out := []string{}
	err := s.query(ctx, secretNamesSQL, nil, func(rows *sql.Rows) error {
		var n string
		if err := rows.Scan(&n); err != nil {
			return err
		}
		out = append(out, n)
		return nil
	})
	return out, err
}

const deleteSecretSQL = `DELETE FROM secrets WHERE name = ?`

// DeleteSecret removes a secret; ErrNotFound if there was none.
func (s *Store) DeleteSecret(ctx context.Context, name string) error {
	res, err := s.w.ExecContext(ctx, deleteSecretSQL, name)
	if err != nil {
		return fmt.Errorf("store: delete secret: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
