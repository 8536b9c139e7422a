package live

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/cache"
	"github.com/costpilot/costpilot/backend/model"
)

// counting is a live provider that counts the calls that reach it.
type counting struct {
	costs, inventories, checks int
	fail                       error
}

func (c *counting) Key() model.ProviderKey   { return model.AWS }
func (c *counting) Source() model.SourceKind { return model.SourceAPI }
func (c *counting) Check(context.Context) error {
	c.checks++
	return c.fail
}
func (c *counting) FetchCosts(_ context.Context, from, to string) (model.Batch, error) {
	c.costs++
	if c.fail != nil {
		return model.Batch{}, c.fail
	}
	return model.Batch{Provider: model.AWS, From: from, To: to, Lines: []model.CostLine{
		{Provider: model.AWS, Day: from, Service: "EC2", Currency: "USD", Billed: 1_234_567_891, Effective: 1, List: 2},
	}}, nil
}
func (c *counting) Inventory(context.Context) (model.Inventory, error) {
	c.inventories++
	inv := model.Inventory{Provider: model.AWS, Resources: []model.Resource{{ResourceID: "i-1"}}}
	return inv, c.fail
}

func openCache(t *testing.T, enabled bool) *cache.Cache {
	t.Helper()
	c, err := cache.Open(t.TempDir(), enabled)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestCached(t *testing.T) {
	ctx := context.Background()
	inner := &counting{}
	p := Cached(inner, openCache(t, true), time.Hour)
	first, err := p.FetchCosts(ctx, "2026-11-01", "2026-11-02")
	if err != nil {
		t.Fatal(err)
	}
	again, err := p.FetchCosts(ctx, "2026-11-01", "2026-11-02")
	if err != nil {
		t.Fatal(err)
	}
	if inner.costs != 1 {
		t.Errorf("costs calls = %d, want 1 (the second from the cache)", inner.costs)
	}
	if len(again.Lines) != 1 || !reflect.DeepEqual(again.Lines, first.Lines) || again.From != "2026-11-01" {
		t.Errorf("cached batch = %+v, want %+v", again, first)
	}
	if _, err := p.FetchCosts(ctx, "2026-11-02", "2026-11-02"); err != nil || inner.costs != 2 {
		t.Errorf("another span: calls = %d, err = %v; want a fetch", inner.costs, err)
	}
	for i := 0; i < 2; i++ {
		if _, err := p.Inventory(ctx); err != nil {
			t.Fatal(err)
		}
		if err := p.Check(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if inner.inventories != 1 || inner.checks != 2 {
		t.Errorf("inventory calls = %d (want 1), checks = %d (want 2: never cached)", inner.inventories, inner.checks)
	}
}

func TestCachedSkipsFailures(t *testing.T) {
	ctx := context.Background()
	inner := &counting{fail: errors.New("throttled")}
	p := Cached(inner, openCache(t, true), time.Hour)
	for i := 0; i < 2; i++ {
		_, _ = p.FetchCosts(ctx, "2026-11-01", "2026-11-01")
		_, _ = p.Inventory(ctx)
	}
	if inner.costs != 2 || inner.inventories != 2 {
		t.Errorf("calls = %d costs, %d inventories; failures must not be cached", inner.costs, inner.inventories)
	}
}

func TestCachedPassThrough(t *testing.T) {
	inner := &counting{}
	tests := []struct {
		name string
		c    *cache.Cache
		ttl  time.Duration
	}{
		{"disabled cache", openCache(t, false), time.Hour},
		{"no cache", nil, time.Hour},
		{"zero ttl", openCache(t, true), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := inner.costs
			p := Cached(inner, tt.c, tt.ttl)
			_, _ = p.FetchCosts(context.Background(), "2026-11-01", "2026-11-01")
			_, _ = p.FetchCosts(context.Background(), "2026-11-01", "2026-11-01")
			if inner.costs-before != 2 {
				t.Errorf("calls = %d, want 2", inner.costs-before)
			}
		})
	}
}
