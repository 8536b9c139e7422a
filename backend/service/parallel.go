package service

import (
	"context"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/parallel"
)

// MaxWorkers is performance.parallel.max_workers (at least 1).
func (s *Service) MaxWorkers() int { return max(s.cfg.Performance.Parallel.MaxWorkers, 1) }

// eachProvider runs fn for every key on the worker pool, at most
// performance.parallel.max_workers at a time, and returns the results in
// key order with one error per failed provider (nil where it succeeded).
// Provider calls wait on the network, so running the four clouds side by
// side cuts a sync to the slowest one; SQLite still serialises the writes.
func eachProvider[T any](ctx context.Context, s *Service, keys []model.ProviderKey, fn func(context.Context, model.ProviderKey) (T, error)) ([]T, []error) {
	tasks := make([]parallel.Task[T], len(keys))
	for i, k := range keys {
		tasks[i] = func(ctx context.Context) (T, error) { return fn(ctx, k) }
	}
	res := parallel.Execute(ctx, tasks, 0, s.MaxWorkers())
	vals := make([]T, len(keys))
	errs := make([]error, len(keys))
	for i, r := range res {
		vals[i], errs[i] = r.Value, r.Err
		if r.Err != nil {
			errs[i] = wrapProvider(keys[i], r.Err, "task")
		}
	}
	return vals, errs
}

// syncParallel runs one (a provider's sync) for every key side by side
// (see eachProvider) and returns Sync's results and error: a failing
// provider does not stop the others; its error is in its result, and the
// returned error names every failure. The caller holds the sync lock for
// the whole set, so one must not take it per provider.
func (s *Service) syncParallel(ctx context.Context, keys []model.ProviderKey, one func(context.Context, model.ProviderKey) (SyncResult, error)) ([]SyncResult, error) {
	res, errs := eachProvider(ctx, s, keys, one)
	var failed []error
	for i, err := range errs {
		if err != nil {
			if res[i].Provider == "" {
				res[i] = SyncResult{Provider: keys[i], Source: s.source(ctx, keys[i])}
			}
			res[i].Error = apperr.Text(err)
			failed = append(failed, err)
		}
	}
	switch len(failed) {
	case 0:
		return res, nil
	case 1:
		return res, failed[0]
	}
	e := apperr.E(apperr.Provider, "%d providers failed to sync", len(failed))
	for _, r := range res {
		if r.Error != "" {
			e.WithDetail(string(r.Provider), r.Error)
		}
	}
	return res, e
}
