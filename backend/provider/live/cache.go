package live

import (
	"context"
	"encoding/json"
	"time"

	"github.com/costpilot/costpilot/backend/cache"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// ResponsesBucket is the cache bucket that holds live providers' answers.
const ResponsesBucket = "provider_responses"

// Cached wraps a live provider so its cost and inventory answers are kept
// in the shared cache for ttl (performance.cache.ttl): Cost Explorer charges
// per request and Azure allows a few queries a minute, so a second sync or
// status page within the ttl costs nothing. Answers are cached as the
// converted batch or inventory, keyed by provider and day span; failures
// and partial inventories are never cached, and Check always goes to the
// cloud. Demo and export providers are returned unwrapped, as is everything
// when c is nil or ttl is not positive.
func Cached(p provider.Provider, c *cache.Cache, ttl time.Duration) provider.Provider {
	if c == nil || ttl <= 0 || !p.Source().Live() {
		return p
	}
	return &cached{Provider: p, c: c, ttl: ttl}
}

type cached struct {
	provider.Provider
	c   *cache.Cache
	ttl time.Duration
}

// FetchCosts implements provider.Provider.
func (w *cached) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	key := string(w.Key()) + "/costs/" + from + "/" + to
	var b model.Batch
	if w.load(key, &b) {
		return b, nil
	}
	b, err := w.Provider.FetchCosts(ctx, from, to)
	if err != nil {
		return b, err
	}
	w.store(key, b)
	return b, nil
}

// Inventory implements provider.Provider.
func (w *cached) Inventory(ctx context.Context) (model.Inventory, error) {
	key := string(w.Key()) + "/inventory"
	var inv model.Inventory
	if w.load(key, &inv) {
		return inv, nil
	}
	inv, err := w.Provider.Inventory(ctx)
	if err != nil {
		return inv, err
	}
	w.store(key, inv)
	return inv, nil
}

func (w *cached) load(key string, v any) bool {
	raw, ok := w.c.Get(ResponsesBucket, key)
	// An entry that no longer decodes (an older shape) is fetched again.
	return ok && json.Unmarshal(raw, v) == nil
}

// store is best effort: a cache that cannot be written costs a request
// next time, nothing more.
func (w *cached) store(key string, v any) {
	if raw, err := json.Marshal(v); err == nil {
		_ = w.c.Put(ResponsesBucket, key, raw, w.ttl)
	}
}
