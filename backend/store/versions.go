package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/costpilot/costpilot/backend/model"
)

// Versions are the data dir's change counters (model.Versions).
type Versions = model.Versions

const versionsSQL = `SELECT history, auth, decisions FROM versions WHERE id = 1`

// versionsReader answers Versions. It holds a connection of its own for
// the store's lifetime, with the query prepared once, so the reads never
// wait behind long analyses holding the pooled connections; and it skips
// the query altogether while the WAL-index header shows no commit since
// the last one (walWatch): the dashboard asks on every request, and
// almost always nothing changed. The held connection also keeps SQLite's
// lock on the -shm file, so no other process re-initialises the file
// while it is mapped.
type versionsReader struct {
	once  sync.Once
	db    *sql.DB
	conn  *sql.Conn
	stmt  *sql.Stmt
	err   error
	watch *walWatch
	last  atomic.Pointer[versionsSnapshot]
}

// versionsSnapshot is a result and the header copied before its query:
// the result is current while the header is unchanged.
type versionsSnapshot struct {
	header walHeader
	v      Versions
}

func (v *versionsReader) open(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return err
	}
	v.db = db
	if v.conn, err = db.Conn(ctx); err != nil {
		return err
	}
	if v.stmt, err = v.conn.PrepareContext(ctx, versionsSQL); err != nil {
		return err
	}
	if _, err = v.query(ctx); err != nil {
		return err
	}
	// After a read in WAL mode the -shm file exists and is initialised.
	v.watch = openWALWatch(path)
	return nil
}

// close lets the connection go, then the header's mapping: the store
// closes its pools before (see walWatch for why the order matters).
func (v *versionsReader) close() error {
	var errs []error
	if v.stmt != nil {
		errs = append(errs, v.stmt.Close())
	}
	if v.conn != nil {
		errs = append(errs, v.conn.Close())
	}
	if v.db != nil {
		errs = append(errs, v.db.Close())
	}
	if v.watch != nil {
		errs = append(errs, v.watch.close())
	}
	return errors.Join(errs...)
}

func (v *versionsReader) query(ctx context.Context) (Versions, error) {
	var out Versions
	if err := v.stmt.QueryRowContext(ctx).Scan(&out.History, &out.Auth, &out.Decisions); err != nil {
		return Versions{}, fmt.Errorf("store: versions: %w", err)
	}
	return out, nil
}

// Versions reads the change counters; every commit to the database by
// any process before the call is reflected. A read in WAL mode never
// waits for a writer, so ctx needs no deadline; one without a Done
// channel also spares the driver a goroutine per query.
func (s *Store) Versions(ctx context.Context) (Versions, error) {
	vr := &s.versions
	vr.once.Do(func() { vr.err = vr.open(context.WithoutCancel(ctx), s.path) })
	if vr.err != nil {
		return Versions{}, fmt.Errorf("store: versions: %w", vr.err)
	}
	if vr.watch == nil {
		return vr.query(ctx)
	}
	h := vr.watch.header()
	if last := vr.last.Load(); last != nil && last.header == h {
		return last.v, nil
	}
	v, err := vr.query(ctx)
	if err == nil {
		vr.last.Store(&versionsSnapshot{header: h, v: v})
	}
	return v, err
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

// decisionsTx is tx for writes of what people decide (recommendation and
// anomaly states, budgets): they change answers about decisions, not the
// history, so results computed from the history alone stay valid.
func (s *Store) decisionsTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE versions SET decisions = decisions + 1 WHERE id = 1`)
		return err
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
