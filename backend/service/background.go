package service

import (
	"context"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Background schedule while the dashboard or the desktop runs.
const (
	metricsFlushEvery = time.Minute
	alertsEvery       = 15 * time.Minute
	liveSyncEvery     = 6 * time.Hour
	// refreshEvery is how often export folders are checked for new files
	// and demo history for a new day: a stat per file, cheap enough to
	// poll, and polling sees network mounts that file events miss.
	refreshEvery = 30 * time.Second
)

// RunBackground does the periodic work of a long-running front door until
// ctx ends: it imports new or changed files of export_paths and regenerates
// demo history when the day changes (at start and every 30 seconds), syncs live (api) providers, and the inventory of export
// providers with inventory: api or prometheus, and pulls units.sources from
// Prometheus, at start and every six hours,
// sends new alerts to the webhook every 15 minutes when notifications are
// on, delivers the scheduled reports that are due (and retries failed
// ones) every minute, and flushes the request counters every minute.
// Failures are logged; they never stop the loop.
func (s *Service) RunBackground(ctx context.Context) {
	// The schedule acts for the Service itself, not for whoever started it.
	ctx = WithPrincipal(ctx, systemPrincipal)
	var live []model.ProviderKey
	for _, k := range s.cfg.EnabledProviders() {
		if ps := s.cfg.Provider(k); ps.Source.Live() || ps.InventorySynced() {
			live = append(live, k)
		}
	}
	syncLive := func() {
		for _, k := range live {
			if _, err := s.Sync(ctx, k, 0); err != nil && ctx.Err() == nil {
				s.log.Warn("scheduled sync failed", "provider", k, "err", err)
			}
		}
	}
	sendAlerts := func() {
		if !s.cfg.Dashboard.Features.Notifications || s.cfg.Alerts.WebhookURL == "" {
			return
		}
		if res, err := s.SendAlerts(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("alert delivery failed", "err", err, "failed", len(res.Failed))
		}
	}
	deliver := func() {
		if res, err := s.DeliverSchedules(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("scheduled reports: cannot deliver", "err", err, "delivered", len(res.Delivered))
		}
	}
	refresh := func() {
		if err := s.refresh(ctx, s.cfg.EnabledProviders()); err != nil && ctx.Err() == nil {
			s.log.Warn("background refresh failed", "err", err)
		}
	}
	syncUnits := func() {
		if len(s.cfg.Units.Sources) == 0 {
			return
		}
		if _, err := s.SyncUnits(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("scheduled units pull failed", "err", err)
		}
	}
	refresh()
	syncLive()
	syncUnits()
	sendAlerts()
	deliver()
	refreshT := time.NewTicker(refreshEvery)
	defer refreshT.Stop()
	flush := time.NewTicker(metricsFlushEvery)
	reports := time.NewTicker(schedulesEvery)
	defer reports.Stop()
	alerts := time.NewTicker(alertsEvery)
	syncT := time.NewTicker(liveSyncEvery)
	defer flush.Stop()
	defer alerts.Stop()
	defer syncT.Stop()
	for {
		select {
		case <-ctx.Done():
			if err := s.FlushMetrics(context.WithoutCancel(ctx)); err != nil {
				s.log.Warn("metrics flush failed", "err", err)
			}
			return
		case <-flush.C:
			if err := s.FlushMetrics(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("metrics flush failed", "err", err)
			}
		case <-refreshT.C:
			refresh()
		case <-alerts.C:
			sendAlerts()
		case <-reports.C:
			deliver()
		case <-syncT.C:
			syncLive()
			syncUnits()
			sendAlerts()
		}
	}
}
