package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCacheTTLAndCounters(t *testing.T) {
	c, err := Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	if _, ok := c.Get("b", "k"); ok {
		t.Fatal("hit on empty cache")
	}
	if err := c.Put("b", "k", []byte("v"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if v, ok := c.Get("b", "k"); !ok || string(v) != "v" {
		t.Fatalf("get = %q %v", v, ok)
	}
	now = now.Add(2 * time.Minute)
	if _, ok := c.Get("b", "k"); ok {
		t.Fatal("expired entry returned")
	}
	if h, m := c.Stats(); h != 1 || m != 2 {
		t.Fatalf("stats %d/%d", h, m)
	}
	if r := c.HitRate(); r < 0.33 || r > 0.34 {
		t.Fatalf("hit rate %v", r)
	}
	_ = c.Put("b", "k2", []byte("v"), time.Hour)
	if n, err := c.Clear(); err != nil || n != 1 { // the expired k was pruned by that Put
		t.Fatalf("clear removed %d, %v", n, err)
	}
	if _, ok := c.Get("b", "k2"); ok {
		t.Fatal("entry survived clear")
	}
}

func TestDisabledCacheNeverStores(t *testing.T) {
	c, err := Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.Put("b", "k", []byte("v"), time.Hour)
	if _, ok := c.Get("b", "k"); ok {
		t.Fatal("disabled cache returned a value")
	}
}

// TestTwoOpenersShareEntries opens the cache twice on one dir, as two
// processes would: both open at once (no exclusive lock), and what one
// stores, deletes or clears the other sees.
func TestTwoOpenersShareEntries(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := a.Put("results", "k", []byte("from a"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if v, ok := b.Get("results", "k"); !ok || string(v) != "from a" {
		t.Fatalf("b.Get = %q %v", v, ok)
	}
	if err := b.DeleteBucket("results"); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Get("results", "k"); ok {
		t.Fatal("an entry deleted by the other opener was still returned")
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	if err := b.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestReplacesLegacyAndBrokenFiles: the bbolt file of earlier versions is
// removed, and a cache file that is not a database is replaced rather
// than stopping the process.
func TestReplacesLegacyAndBrokenFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, legacyFileName), []byte("old bbolt pages"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), bytes.Repeat([]byte("garbage!"), 1024), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Open(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := os.Stat(filepath.Join(dir, legacyFileName)); !os.IsNotExist(err) {
		t.Fatalf("legacy cache file still there: %v", err)
	}
	if err := c.Put("b", "k", []byte("v"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if v, ok := c.Get("b", "k"); !ok || string(v) != "v" {
		t.Fatalf("get = %q %v", v, ok)
	}
}

// TestExpiredEntriesArePruned: entries past their TTL leave the file.
func TestExpiredEntriesArePruned(t *testing.T) {
	c, err := Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	for i := range 10 {
		_ = c.Put("b", fmt.Sprint(i), []byte("v"), time.Minute)
	}
	now = now.Add(time.Hour)
	_ = c.Put("b", "fresh", []byte("v"), time.Minute)
	if n, err := c.Clear(); err != nil || n != 1 {
		t.Fatalf("%d entries left after pruning (want only the fresh one), %v", n, err)
	}
}
