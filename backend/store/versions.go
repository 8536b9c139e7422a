package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// Versions are the data dir's change counters (migration 0010): History
// grows with every write of cost history or inventory, Auth whenever a
// login or token may have stopped being valid. Processes compare them to
// know when what they keep in memory is stale.
type Versions struct {
	History int64
	Auth    int64
}

const versionsSQL = `SELECT history, auth FROM versions WHERE id = 1`

// versionsStmt is prepared once per store: the dashboard reads the
// versions on every request, so the parse is not repeated each time.
type versionsStmt struct {
	once sync.Once
	stmt *sql.Stmt
	err  error
}

// Versions reads the change counters.
func (s *Store) Versions(ctx context.Context) (Versions, error) {
	vs := &s.versions
	vs.once.Do(func() { vs.stmt, vs.err = s.r.PrepareContext(ctx, versionsSQL) })
	if vs.err != nil {
		return Versions{}, fmt.Errorf("store: versions: %w", vs.err)
	}
	var out Versions
	if err := vs.stmt.QueryRowContext(ctx).Scan(&out.History, &out.Auth); err != nil {
		return Versions{}, fmt.Errorf("store: versions: %w", err)
	}
	return out, nil
}

// historyTx is tx for writes that change the cost history or inventory:
// the history version moves in the same transaction, so no process can
// see the new data under the old version.
func (s *Store) historyTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return bumpHistory(ctx, tx)
	})
}

func bumpHistory(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `UPDATE versions SET history = history + 1 WHERE id = 1`)
	return err
}

// BumpHistoryVersion marks every result derived from the history as
// stale without changing the history (`cleanup --cache`).
func (s *Store) BumpHistoryVersion(ctx context.Context) error {
	if err := s.tx(ctx, func(tx *sql.Tx) error { return bumpHistory(ctx, tx) }); err != nil {
		return fmt.Errorf("store: bump history version: %w", err)
	}
	return nil
}
