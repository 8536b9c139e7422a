package cache

import (
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
	if n, err := c.Clear(); err != nil || n != 2 {
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
