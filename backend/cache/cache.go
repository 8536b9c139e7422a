// Package cache is a small TTL key-value cache for provider responses and
// computed results, with hit and miss counters. It lives in its own SQLite
// file in WAL mode, so every costpilot process on a data dir (dashboard,
// desktop, CLI, cron) shares it at once; none holds it exclusively.
package cache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/costpilot/costpilot/backend/security"
)

// FileName is the cache file inside the data dir.
const FileName = "cache.sqlite"

// legacyFileName is the bbolt file earlier versions kept, which one
// process at a time could open; it only held cached entries.
const legacyFileName = "cache.db"

// pruneEvery bounds how often expired entries are deleted.
const pruneEvery = time.Minute

// Cache is the shared cache. Entries expire after their TTL.
type Cache struct {
	w, r    *sql.DB
	enabled bool
	hits    atomic.Int64
	misses  atomic.Int64
	now     func() time.Time

	pruneMu   sync.Mutex
	lastPrune time.Time
}

const schema = `CREATE TABLE IF NOT EXISTS entries (
	bucket  TEXT NOT NULL,
	key     TEXT NOT NULL,
	expires INTEGER NOT NULL, -- unix nanoseconds
	value   BLOB NOT NULL,
	PRIMARY KEY (bucket, key)
)`

// Open opens (creating) the cache file in dir. A disabled cache opens the
// file all the same, so `cleanup --cache` works, but never stores. A file
// that is not a usable database is only a lost cache: it is replaced.
func Open(dir string, enabled bool) (*Cache, error) {
	path := filepath.Join(dir, FileName)
	c, err := openWaiting(path, enabled)
	if err != nil && broken(err) {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			_ = os.Remove(path + suffix)
		}
		c, err = open(path, enabled)
	}
	if err != nil {
		return nil, fmt.Errorf("cache: open: %w", err)
	}
	_ = os.Remove(filepath.Join(dir, legacyFileName))
	return c, nil
}

// openWait bounds how long Open waits for other processes that hold the
// file's lock (several starting at once on a busy machine) beyond
// SQLite's own busy timeout.
const openWait = time.Minute

// openWaiting opens the cache, trying again while another process holds
// its lock, up to openWait.
func openWaiting(path string, enabled bool) (*Cache, error) {
	deadline := time.Now().Add(openWait)
	for {
		c, err := open(path, enabled)
		if err == nil || !strings.Contains(err.Error(), "SQLITE_BUSY") || time.Now().After(deadline) {
			return c, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// broken reports whether err says the file is not a readable database
// (SQLITE_NOTADB, SQLITE_CORRUPT), as opposed to a lock or permission
// problem that removing the file would not cure.
func broken(err error) bool {
	m := err.Error()
	return strings.Contains(m, "not a database") || strings.Contains(m, "malformed")
}

func open(path string, enabled bool) (*Cache, error) {
	// Cached answers hold billing data: private like the database.
	if err := security.PrivateDB(path); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1) // one writer per process; processes wait on each other via busy_timeout
	r, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(4)
	if _, err := w.Exec(schema); err != nil {
		w.Close()
		r.Close()
		return nil, err
	}
	return &Cache{w: w, r: r, enabled: enabled, now: time.Now}, nil
}

func dsn(path string, writer bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if writer {
		q.Add("_txlock", "immediate")
	}
	return "file:" + path + "?" + q.Encode()
}

// Close closes the file.
func (c *Cache) Close() error { return errors.Join(c.r.Close(), c.w.Close()) }

// Get returns the value of key in bucket if present and not expired.
func (c *Cache) Get(bucket, key string) ([]byte, bool) {
	if !c.enabled {
		c.misses.Add(1)
		return nil, false
	}
	var v []byte
	err := c.r.QueryRow(`SELECT value FROM entries WHERE bucket = ? AND key = ? AND expires >= ?`,
		bucket, key, c.now().UnixNano()).Scan(&v)
	if err != nil {
		c.misses.Add(1)
		return nil, false
	}
	c.hits.Add(1)
	return v, true
}

// Put stores value under key in bucket for ttl.
func (c *Cache) Put(bucket, key string, value []byte, ttl time.Duration) error {
	if !c.enabled || ttl <= 0 {
		return nil
	}
	now := c.now()
	if _, err := c.w.Exec(`INSERT OR REPLACE INTO entries(bucket, key, expires, value) VALUES (?, ?, ?, ?)`,
		bucket, key, now.Add(ttl).UnixNano(), value); err != nil {
		return fmt.Errorf("cache: put: %w", err)
	}
	c.prune(now)
	return nil
}

// prune deletes expired entries, at most once a minute per process, so
// the file holds only what can still be read.
func (c *Cache) prune(now time.Time) {
	c.pruneMu.Lock()
	due := now.Sub(c.lastPrune) >= pruneEvery
	if due {
		c.lastPrune = now
	}
	c.pruneMu.Unlock()
	if due {
		_, _ = c.w.Exec(`DELETE FROM entries WHERE expires < ?`, now.UnixNano())
	}
}

// DeleteBucket drops every entry of a bucket (e.g. when history changes).
func (c *Cache) DeleteBucket(bucket string) error {
	if _, err := c.w.Exec(`DELETE FROM entries WHERE bucket = ?`, bucket); err != nil {
		return fmt.Errorf("cache: delete bucket: %w", err)
	}
	return nil
}

// Clear drops every entry and returns how many were removed.
func (c *Cache) Clear() (int, error) {
	res, err := c.w.Exec(`DELETE FROM entries`)
	if err != nil {
		return 0, fmt.Errorf("cache: clear: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// Record counts a hit or miss of a cache kept elsewhere (the dashboard's
// in-memory response cache), so the hit rate covers every cached answer.
func (c *Cache) Record(hit bool) {
	if hit {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
}

// Stats returns the hit and miss counts since Open.
func (c *Cache) Stats() (hits, misses int64) { return c.hits.Load(), c.misses.Load() }

// HitRate is hits / (hits + misses), 0 when nothing was asked.
func (c *Cache) HitRate() float64 {
	h, m := c.Stats()
	if h+m == 0 {
		return 0
	}
	return float64(h) / float64(h+m)
}

// Check writes and reads back a probe entry, for health checks.
func (c *Cache) Check() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stamp := c.now().UTC().Format(time.RFC3339Nano)
	if _, err := c.w.ExecContext(ctx, `INSERT OR REPLACE INTO entries(bucket, key, expires, value) VALUES ('_health', 'probe', ?, ?)`,
		c.now().Add(time.Hour).UnixNano(), []byte(stamp)); err != nil {
		return fmt.Errorf("cache: health probe: %w", err)
	}
	var got []byte
	if err := c.r.QueryRowContext(ctx, `SELECT value FROM entries WHERE bucket = '_health' AND key = 'probe'`).Scan(&got); err != nil {
		return fmt.Errorf("cache: health probe: %w", err)
	}
	return nil
}
