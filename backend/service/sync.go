package service

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider/demo"
	"github.com/costpilot/costpilot/backend/provider/live"
	"github.com/costpilot/costpilot/backend/store"
)

// SyncResult reports what a sync did for one provider.
type SyncResult struct {
	Provider  model.ProviderKey `json:"provider"`
	Source    model.SourceKind  `json:"source"`
	From      string            `json:"from,omitempty"`
	To        string            `json:"to,omitempty"`
	Lines     int               `json:"lines"`
	Resources int               `json:"resources"`
	Skipped   bool              `json:"skipped,omitempty"`
	// Warning is Warnings joined with "; ", or why a provider was skipped.
	Warning string `json:"warning,omitempty"`
	// Warnings are the parts that failed without failing the sync
	// (inventory, metrics, storing the inventory, commitments), each whole.
	Warnings []string `json:"warnings,omitempty"`
	Error    string   `json:"error,omitempty"`
	// FocusSource names the focus_sources item of this result (Provider
	// empty): Providers are those its imported rows named.
	FocusSource string              `json:"focus_source,omitempty"`
	Providers   []model.ProviderKey `json:"providers,omitempty"`
}

// SyncRequest is what a sync pulls: the sync command's flags. Days and
// Start/End are alternatives.
type SyncRequest struct {
	Provider model.ProviderKey `json:"provider,omitempty"` // "": every enabled provider
	// Days bounds how far back a first sync reaches (nil or 0:
	// DefaultSyncDays); later syncs fetch the days not yet stored.
	Days *int `json:"days,omitempty"`
	// Start and End (inclusive UTC days, YYYY-MM-DD) backfill exactly that
	// span, stored or not; End defaults to yesterday.
	Start string `json:"start,omitempty"`
	End   string `json:"end,omitempty"`
}

// syncSpan is what one provider's sync fetches: from..to when set, else
// the days not yet stored, reaching back days on a first sync.
type syncSpan struct {
	days     int
	from, to string
}

// DefaultSyncDays is how far back a first live sync reaches.
const DefaultSyncDays = 90

// refresh brings the stored history up to date from the sources that need
// no request of their own: changed files under a provider's export_paths
// are imported and demo history that does not end yesterday is
// regenerated. It is cheap when nothing changed. The background loop and
// the explicit refreshes (sync, the dashboard's and the window's start)
// call it; reads never do: they report the data's age instead. One
// provider failing does not stop the others; the errors are joined.
func (s *Service) refresh(ctx context.Context, keys []model.ProviderKey) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	states, err := s.store.SyncStates(ctx)
	if err != nil {
		return err
	}
	want := yesterday(s.now())
	var errs []error
	var stale []model.ProviderKey
	for _, k := range keys {
		switch src := sourceFrom(s.cfg, s.cfgPath, states, k); {
		case src == model.SourceExport && len(s.cfg.Provider(k).ExportPaths) > 0:
			if _, err := s.loadExports(ctx, k); err != nil {
				errs = append(errs, err)
			}
		case src == model.SourceDemo && !demoCurrent(states, k, want):
			stale = append(stale, k)
		}
	}
	if len(stale) > 0 {
		_, err := s.syncParallel(ctx, stale, func(ctx context.Context, k model.ProviderKey) (SyncResult, error) {
			return s.syncProvider(ctx, k, syncSpan{}, true)
		})
		errs = append(errs, err)
	}
	_, err = s.syncFocusSources(ctx, false)
	errs = append(errs, err)
	return errors.Join(errs...)
}

// demoCurrent reports whether k's demo history ends on day want.
func demoCurrent(states []store.HistoryStats, k model.ProviderKey, want string) bool {
	for _, h := range states {
		if h.Provider == k && h.Source == model.SourceDemo && h.LastDay == want && h.Status == "ok" {
			return true
		}
	}
	return false
}

// Refresh is the refresh of every enabled provider's export folders and
// demo history (see refresh) that the front doors run as they start, before
// the first read. Like RunBackground it acts for the Service itself, not for
// whoever started it; users refresh with Sync.
func (s *Service) Refresh(ctx context.Context) error {
	return s.refresh(WithPrincipal(ctx, systemPrincipal), s.cfg.EnabledProviders())
}

// Sync pulls provider data into the history: for demo providers the whole
// simulated history, for live providers the days not yet stored plus the
// last three again (clouds restate recent days). days bounds how far back
// a first sync reaches (0: DefaultSyncDays). A failing provider does not
// stop the others; its error is in its result and in the returned error.
func (s *Service) Sync(ctx context.Context, only model.ProviderKey, days int) ([]SyncResult, error) {
	return s.RunSync(ctx, SyncRequest{Provider: only, Days: &days})
}

// RunSync is Sync for a SyncRequest: with Start (and End), every provider
// is asked for exactly those days, which replace what is stored there.
func (s *Service) RunSync(ctx context.Context, r SyncRequest) ([]SyncResult, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return nil, err
	}
	span, err := s.syncRequestSpan(r)
	if err != nil {
		return nil, err
	}
	keys, err := s.providers(r.Provider)
	if err != nil {
		return nil, err
	}
	synced := func(k model.ProviderKey) bool { return k.Cloud() || s.cfg.Provider(k).Enabled }
	if r.Provider != "" && !synced(r.Provider) {
		return nil, apperr.E(apperr.Validation, "%s is imported from files and has no connector to sync: import its FOCUS files again to update it", s.providerName(r.Provider)).
			WithProvider(string(r.Provider)).WithDetail("field", "provider")
	}
	keys = slices.DeleteFunc(keys, func(k model.ProviderKey) bool { return !synced(k) })
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	res, err := s.syncParallel(ctx, keys, func(ctx context.Context, k model.ProviderKey) (SyncResult, error) {
		return s.syncProvider(ctx, k, span, false)
	})
	if r.Provider == "" && span.from == "" {
		// The FOCUS sources have no days to ask for: each is fetched
		// (when it changed) and imported whole.
		fr, ferr := s.syncFocusSources(ctx, true)
		res, err = append(res, fr...), errors.Join(err, ferr)
	}
	return res, err
}

// syncRequestSpan applies a SyncRequest's rules: days or start (and end),
// not both; an explicit span ends by yesterday, the last complete day.
func (s *Service) syncRequestSpan(r SyncRequest) (syncSpan, error) {
	if r.Start == "" && r.End == "" {
		if r.Days != nil {
			return syncSpan{days: *r.Days}, nil
		}
		return syncSpan{}, nil
	}
	if r.Days != nil {
		return syncSpan{}, apperr.E(apperr.Validation, "give either days or start and end, not both").WithDetail("field", "days")
	}
	if r.Start == "" {
		return syncSpan{}, apperr.E(apperr.Validation, "end needs a start").WithDetail("field", "start")
	}
	last := yesterday(s.now())
	end := r.End
	if end == "" {
		end = last
	}
	if _, err := PeriodForDates(r.Start, end); err != nil {
		return syncSpan{}, err
	}
	if end > last {
		return syncSpan{}, apperr.E(apperr.Validation, "end %s is after yesterday (%s): a day is synced once it is over", end, last).WithDetail("field", "end")
	}
	return syncSpan{from: r.Start, to: end}, nil
}

func (s *Service) syncProvider(ctx context.Context, k model.ProviderKey, span syncSpan, quiet bool) (SyncResult, error) {
	src := s.source(ctx, k)
	res := SyncResult{Provider: k, Source: src}
	if src == model.SourceExport {
		ps := s.cfg.Provider(k)
		if len(ps.ExportPaths) > 0 {
			n, err := s.loadExports(ctx, k)
			if err != nil {
				return res, err
			}
			res.Lines = n
		}
		if ps.InventorySynced() {
			return s.syncInventory(ctx, k, res, quiet)
		}
		if len(ps.ExportPaths) == 0 {
			res.Skipped = true
			res.Warning = "export providers are loaded with `costpilot import` or from export_paths"
		}
		return res, nil
	}
	p, err := s.reg.Build(s.cfg, k, s.creds)
	if err != nil {
		return res, apperr.Wrap(apperr.Provider, err, "%s: %v", k, err).WithProvider(string(k))
	}
	if src.Live() {
		// Live answers are cached for performance.cache.ttl: Cost Explorer
		// charges per request and Azure allows a few queries a minute.
		p = live.Cached(p, s.cache, s.cacheTTL())
	}
	to := yesterday(s.now())
	toDay, _ := time.Parse(model.DateLayout, to)
	var from string
	switch {
	case span.from != "":
		// A backfill: exactly the asked days.
		from, to = span.from, span.to
	case src == model.SourceDemo:
		// The simulated account is generated relative to today, so it is
		// replaced whole when the day changes.
		from = toDay.AddDate(0, 0, -(demo.HistoryDays - 1)).Format(model.DateLayout)
	default:
		days := span.days
		if days <= 0 {
			days = DefaultSyncDays
		}
		from = toDay.AddDate(0, 0, -(days - 1)).Format(model.DateLayout)
		if stats, err := s.store.Stats(ctx); err == nil {
			for _, h := range stats {
				if h.Provider == k && h.Source == src && h.LastDay != "" && h.Status == "ok" {
					last, _ := time.Parse(model.DateLayout, h.LastDay)
					if inc := last.AddDate(0, 0, -3).Format(model.DateLayout); inc > from {
						from = inc
					}
				}
			}
		}
	}
	res.From, res.To = from, to
	start := time.Now()
	batch, err := p.FetchCosts(ctx, from, to)
	if err != nil {
		_ = s.store.SetSyncError(context.WithoutCancel(ctx), k, src, err.Error())
		return res, wrapProvider(k, err, "fetch costs")
	}
	batch.Provider, batch.Source, batch.From, batch.To = k, src, from, to
	if err := s.store.ReplaceHistory(ctx, batch); err != nil {
		return res, apperr.Wrap(apperr.Base, err, "%s: cannot store the synced history", k).WithProvider(string(k))
	}
	if len(batch.AccountNames) > 0 {
		if err := s.store.SetAccountNames(ctx, k, batch.AccountNames); err != nil {
			s.log.Warn("account names not stored", "provider", k, "err", err)
		}
	}
	res.Lines = len(batch.Lines)
	inv, err := p.Inventory(ctx)
	if err != nil {
		// Costs are what matter: an inventory or metrics failure is a
		// warning, and resources listed before metrics failed are kept. A
		// provider may join several (errors.Join): each is its own.
		for _, e := range splitJoined(err) {
			res.Warnings = append(res.Warnings, wrapProvider(k, e, "inventory").Error())
		}
	}
	if err == nil || len(inv.Resources) > 0 {
		inv = s.withPrometheus(ctx, k, inv, &res)
		if err := s.store.ReplaceInventory(ctx, src, inv); err != nil {
			res.Warnings = append(res.Warnings, "cannot store the inventory: "+err.Error())
		} else {
			res.Resources = len(inv.Resources)
		}
	}
	if w := s.noteCommitments(k, batch); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	res.Warning = strings.Join(res.Warnings, "; ")
	_ = s.cache.DeleteBucket(ResultsBucket)
	if !quiet {
		s.log.Info("synced", "provider", k, "source", src, "from", from, "to", to, "lines", res.Lines,
			"resources", res.Resources, "took", time.Since(start).Round(time.Millisecond))
	} else {
		s.log.Debug("refreshed demo history", "provider", k, "lines", res.Lines, "took", time.Since(start).Round(time.Millisecond))
	}
	return res, nil
}

// splitJoined is the errors errors.Join joined, or err alone.
func splitJoined(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// ResultsBucket is the cache bucket of computed results; it is dropped
// whenever the history changes.
const ResultsBucket = "results"
