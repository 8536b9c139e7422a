package service

import (
	"context"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/metrics/prometheus"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider/live"
	"github.com/costpilot/costpilot/backend/recommend"
)

// syncInventory is the sync of a provider whose costs come from exports
// but whose inventory and utilization are read elsewhere: with the live
// connector (inventory: api, read-only) and/or from Prometheus. The
// costs are left alone; the inventory is stored under the export source,
// where the recommenders read it.
func (s *Service) syncInventory(ctx context.Context, k model.ProviderKey, res SyncResult, quiet bool) (SyncResult, error) {
	start := time.Now()
	ps := s.cfg.Provider(k)
	var inv model.Inventory
	if ps.Inventory == config.InventoryAPI {
		p, err := s.reg.Build(s.cfg.WithSource(k, model.SourceAPI), k, s.creds)
		if err != nil {
			return res, apperr.Wrap(apperr.Provider, err, "%s: inventory: %v", k, err).WithProvider(string(k))
		}
		p = live.Cached(p, s.cache, s.cacheTTL())
		if inv, err = p.Inventory(ctx); err != nil {
			if len(inv.Resources) == 0 {
				// The inventory is all this sync reads: without it, it failed.
				return res, wrapProvider(k, err, "inventory")
			}
			for _, e := range splitJoined(err) {
				res.Warnings = append(res.Warnings, apperr.Text(wrapProvider(k, e, "inventory")))
			}
		}
	} else {
		var err error
		if inv, err = s.exportResources(ctx, k); err != nil {
			return res, err
		}
	}
	inv.Provider = k
	inv = s.withPrometheus(ctx, k, inv, &res)
	if ps.Inventory != config.InventoryAPI {
		if n := untyped(inv); n > 0 {
			res.Warnings = append(res.Warnings, apperr.E(apperr.Provider,
				"%s: prometheus: %d machines have utilization but no machine type, so they cannot be rightsized: set %s.prometheus.type_label", k, n, k).
				WithProvider(string(k)).Error())
		}
	}
	if err := s.store.ReplaceInventory(ctx, model.SourceExport, inv); err != nil {
		return res, apperr.Wrap(apperr.Base, err, "%s: cannot store the inventory", k).WithProvider(string(k))
	}
	res.Resources = len(inv.Resources)
	res.Warning = strings.Join(res.Warnings, "; ")
	_ = s.cache.DeleteBucket(ResultsBucket)
	level := s.log.Info
	if quiet {
		level = s.log.Debug
	}
	level("synced the inventory", "provider", k, "source", res.Source, "inventory", ps.Inventory, "prometheus", ps.Prometheus.Enabled(),
		"resources", res.Resources, "samples", len(inv.Utilization), "took", time.Since(start).Round(time.Millisecond))
	return res, nil
}

// exportResources lists the compute resources an export provider paid for
// in the recommendation window, for Prometheus to give utilization to
// when no live inventory is read. An export names no machine type: the
// Prometheus type label gives it.
func (s *Service) exportResources(ctx context.Context, k model.ProviderKey) (model.Inventory, error) {
	sc := s.scope(ctx, []model.ProviderKey{k})
	sc.Sources[k] = model.SourceExport
	sc.To = yesterday(s.now())
	sc.From = demoDay(s.now(), -recommendationWindow)
	sc.Keys = recommend.IsComputeUsage
	lines, err := s.store.Lines(ctx, sc)
	if err != nil {
		return model.Inventory{}, err
	}
	inv := model.Inventory{Provider: k}
	seen := map[string]bool{}
	for _, l := range lines {
		if l.ResourceID == "" || seen[l.ResourceID] {
			continue
		}
		seen[l.ResourceID] = true
		account := l.SubAccount
		if account == "" {
			account = l.BillingAccount
		}
		// It was billed for compute in the window: it ran.
		inv.Resources = append(inv.Resources, model.Resource{Provider: k, ResourceID: l.ResourceID, Name: l.ResourceID,
			ResourceType: "instance", Service: l.Service, Account: account, Region: l.Region, State: "running", Attached: true, Tags: l.Tags})
	}
	return inv, nil
}

// withPrometheus adds the utilization Prometheus gives the inventory's
// resources, over what the connector read. A failure is a warning: the
// inventory is kept.
func (s *Service) withPrometheus(ctx context.Context, k model.ProviderKey, inv model.Inventory, res *SyncResult) model.Inventory {
	pc := s.cfg.Provider(k).Prometheus
	if !pc.Enabled() {
		return inv
	}
	src, err := prometheus.New(pc, prometheus.WithNow(s.now))
	if err == nil {
		var r prometheus.Result
		if r, err = src.Utilization(ctx); err == nil {
			samples, unknown := prometheus.Assign(r, inv.Resources)
			inv.Utilization = prometheus.Overlay(inv.Utilization, samples)
			s.log.Info("prometheus utilization", "provider", k, "samples", len(samples), "unmapped_series", r.Unmapped, "unknown_ids", unknown)
			if len(samples) == 0 && len(r.Samples) > 0 {
				res.Warnings = append(res.Warnings, apperr.E(apperr.Provider,
					"%s: prometheus: %d resource ids from its labels match no resource of the inventory: check prometheus.id_label and id_regex", k, unknown).
					WithProvider(string(k)).Error())
			}
			return inv
		}
	}
	res.Warnings = append(res.Warnings, apperr.Text(wrapProvider(k, err, "prometheus")))
	return inv
}

// untyped counts the resources with samples but no machine type: the
// export names none, and without it no size can be priced.
func untyped(inv model.Inventory) int {
	sampled := map[string]bool{}
	for _, u := range inv.Utilization {
		sampled[u.ResourceID] = true
	}
	n := 0
	for _, r := range inv.Resources {
		if r.InstanceType == "" && sampled[r.ResourceID] {
			n++
		}
	}
	return n
}
