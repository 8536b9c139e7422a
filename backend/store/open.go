// Package store keeps costpilot's state in SQLite: cost history, inventory,
// users, sessions, tokens, runs and saved results. All SQL lives here.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
)

// ErrNotFound is returned when a looked-up row does not exist.
var ErrNotFound = errors.New("store: not found")

// FileName is the database file inside the data dir.
const FileName = "costpilot.db"

// Store is the SQLite database. Writes go through one connection (SQLite
// allows one writer); reads use a small pool that WAL lets run alongside.
type Store struct {
	w    *sql.DB
	r    *sql.DB
	path string

	versions versionsReader
	lines    versionMemo[map[[2]string]int64]
	days     versionMemo[map[[2]string][2]model.DayNum]
}

// Open opens (creating if needed) the database in dir and migrates it.
func Open(ctx context.Context, dir string) (*Store, error) {
	if err := security.PrivateDir(dir); err != nil {
		return nil, fmt.Errorf("store: create data dir: %w", err)
	}
	if err := registerFeed(); err != nil {
		return nil, fmt.Errorf("store: register the feed table: %w", err)
	}
	path := filepath.Join(dir, FileName)
	if err := security.PrivateDB(path); err != nil {
		return nil, fmt.Errorf("store: make the database private: %w", err)
	}
	w, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("store: open: %w", err)
	}
	w.SetMaxOpenConns(1)
	r, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open reader: %w", err)
	}
	r.SetMaxOpenConns(4)
	s := &Store{w: w, r: r, path: path}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// busyTimeout is how long a statement waits for another connection's
// lock before SQLite answers busy.
var busyTimeout = 10 * time.Second

func dsn(path string, writer bool) string {
	q := url.Values{}
	// busy_timeout first so the pragmas after it wait instead of failing.
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if writer {
		// BEGIN IMMEDIATE: take the write lock up front, so a transaction
		// never fails half way on a lock upgrade.
		q.Add("_txlock", "immediate")
		// A large import's transaction touches tens of MB of pages: with
		// SQLite's 2 MB default they spill to the WAL again and again.
		q.Add("_pragma", "cache_size(-65536)")
	}
	return "file:" + path + "?" + q.Encode()
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the pools, then the versions reader, whose mapping of the
// WAL index must outlive every SQLite connection of the store.
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close(), s.versions.close())
}

// SchemaVersion returns PRAGMA user_version.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.r.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// IntegrityCheck runs PRAGMA integrity_check and returns its verdict.
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	var res string
	err := s.r.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res)
	return res, err
}

// tx runs fn in one write transaction: all of it lands or none.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Ping proves the database is writable: it takes the write lock and
// releases it without changing anything.
func (s *Store) Ping(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sync_state SET status = status WHERE 0`)
		return err
	})
}
