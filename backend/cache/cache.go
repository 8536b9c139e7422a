// Package cache is a small TTL key-value cache in a bbolt file, for
// provider responses and computed results, with hit and miss counters.
package cache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// FileName is the cache file inside the data dir.
const FileName = "cache.db"

// Cache is a bbolt-backed cache. Entries expire after their TTL.
type Cache struct {
	db      *bolt.DB
	enabled bool
	hits    atomic.Int64
	misses  atomic.Int64
	now     func() time.Time
}

// Open opens (creating) the cache file in dir. A disabled cache opens the
// file all the same, so `cleanup --cache` works, but never stores.
func Open(dir string, enabled bool) (*Cache, error) {
	db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("cache: open: %w", err)
	}
	return &Cache{db: db, enabled: enabled, now: time.Now}, nil
}

// Close closes the file.
func (c *Cache) Close() error { return c.db.Close() }

// Get returns the value of key in bucket if present and not expired.
func (c *Cache) Get(bucket, key string) ([]byte, bool) {
	if !c.enabled {
		c.misses.Add(1)
		return nil, false
	}
	var out []byte
	_ = c.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return nil
		}
		v := b.Get([]byte(key))
		if len(v) < 8 {
			return nil
		}
		if exp := int64(binary.BigEndian.Uint64(v[:8])); exp < c.now().UnixNano() {
			return nil
		}
		out = append([]byte(nil), v[8:]...)
		return nil
	})
	if out == nil {
		c.misses.Add(1)
		return nil, false
	}
	c.hits.Add(1)
	return out, true
}

// Put stores value under key in bucket for ttl.
func (c *Cache) Put(bucket, key string, value []byte, ttl time.Duration) error {
	if !c.enabled || ttl <= 0 {
		return nil
	}
	v := make([]byte, 8+len(value))
	binary.BigEndian.PutUint64(v[:8], uint64(c.now().Add(ttl).UnixNano()))
	copy(v[8:], value)
	err := c.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(bucket))
		if err != nil {
			return err
		}
		return b.Put([]byte(key), v)
	})
	if err != nil {
		return fmt.Errorf("cache: put: %w", err)
	}
	return nil
}

// DeleteBucket drops every entry of a bucket (e.g. when history changes).
func (c *Cache) DeleteBucket(bucket string) error {
	err := c.db.Update(func(tx *bolt.Tx) error {
		err := tx.DeleteBucket([]byte(bucket))
		if errors.Is(err, bolterrors.ErrBucketNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("cache: delete bucket: %w", err)
	}
	return nil
}

// Clear drops every bucket and returns how many entries were removed.
func (c *Cache) Clear() (int, error) {
	n := 0
	err := c.db.Update(func(tx *bolt.Tx) error {
		var names [][]byte
		if err := tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			n += b.Stats().KeyN
			names = append(names, append([]byte(nil), name...))
			return nil
		}); err != nil {
			return err
		}
		for _, name := range names {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("cache: clear: %w", err)
	}
	return n, nil
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
	err := c.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("_health"))
		if err != nil {
			return err
		}
		return b.Put([]byte("probe"), []byte(c.now().UTC().Format(time.RFC3339)))
	})
	if err != nil {
		return fmt.Errorf("cache: health probe: %w", err)
	}
	return nil
}
