package recommend

import (
	"fmt"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// idleInstance reports a running machine whose peak CPU stayed under
// IdleCPU with negligible network: stop or delete it, saving its full cost.
func idleInstance(r model.Resource, u usage, cp currentPrice) (model.Recommendation, bool) {
	if u.maxCPU >= IdleCPU || u.p95Network > IdleNetworkBytesPerHour {
		return model.Recommendation{}, false
	}
	monthly := cp.hourly * pricing.HoursPerMonth
	savings := money(monthly)
	// The peak bound already accounts for volatility, so stability is 1.
	ev := evidence{completeness: u.coverage, days: u.days, stability: 1, estimated: cp.estimated(), kind: 1}
	return model.Recommendation{
		Type:         model.RecIdle,
		ResourceID:   r.ResourceID,
		ResourceType: resourceTypeOr(r, "instance"),
		Description: fmt.Sprintf("Stop or delete idle %s (%s): peak CPU %.1f%% and p95 network %.2f MiB an hour over %.0f days; "+
			"it costs %s a month.", nameOf(r), cp.quote.Name, u.maxCPU*100, u.p95Network/(1<<20), u.days, dollars(savings)),
		CurrentConfig:        &model.InstanceConfig{InstanceType: cp.quote.Name, Cost: money(monthly)},
		PotentialSavings:     savings,
		Priority:             priority(savings, riskMedium),
		Provider:             r.Provider,
		Confidence:           ev.confidence(),
		ImplementationEffort: model.EffortLow,
		Details: map[string]any{
			"region":        r.Region,
			"max_cpu":       round4(u.maxCPU),
			"p95_network":   u.p95Network,
			"days_analyzed": round4(u.days),
			"action":        "stop or delete",
			"price_source":  priceSource(ev.estimated),
		},
	}, true
}

// Resource kinds other than machines, as the inventory writes them.
var (
	volumeTypes   = []string{"volume", "disk", "block_volume", "persistent_disk", "managed_disk"}
	addressTypes  = []string{"public_ip", "elastic_ip", "ip_address", "address", "public_ip_address"}
	snapshotTypes = []string{"snapshot", "disk_snapshot", "volume_backup"}
)

func isKind(r model.Resource, kinds []string) bool {
	t := strings.ToLower(r.ResourceType)
	for _, k := range kinds {
		if t == k {
			return true
		}
	}
	return false
}

// olderThan reports whether r was created more than days before now; an
// unknown creation time counts as old, an unknown now as young.
func olderThan(r model.Resource, now time.Time, days int) bool {
	if now.IsZero() {
		return false
	}
	if r.CreatedAt.IsZero() {
		return true
	}
	return r.CreatedAt.Before(now.AddDate(0, 0, -days))
}

// idleStorage reports unattached volumes, unused public addresses and old
// snapshots, each saving its full cost.
func idleStorage(r model.Resource, opt Options) (model.Recommendation, bool) {
	var (
		monthly   float64
		reported  = r.HourlyCost > 0
		what      string
		action    string
		kindConf  float64
		rsk       risk
		typeLabel string
	)
	if reported {
		monthly = r.HourlyCost * pricing.HoursPerMonth
	}
	switch {
	case isKind(r, volumeTypes):
		if r.Attached || strings.EqualFold(r.State, "in-use") || !olderThan(r, opt.Now, UnattachedGraceDays) {
			return model.Recommendation{}, false
		}
		if !reported {
			monthly = r.SizeGB * pricing.VolumePricePerGBMonth(r.Provider, r.Region, r.InstanceType)
		}
		what = fmt.Sprintf("unattached %g GB volume %s", r.SizeGB, nameOf(r))
		action, kindConf, rsk, typeLabel = "snapshot if needed, then delete", 0.9, riskLow, "volume"
	case isKind(r, addressTypes):
		if r.Attached || !olderThan(r, opt.Now, UnattachedGraceDays) {
			return model.Recommendation{}, false
		}
		if !reported {
			monthly = pricing.PublicIPHourly(r.Provider, r.Region) * pricing.HoursPerMonth
		}
		what = "unused public IP " + nameOf(r)
		action, kindConf, rsk, typeLabel = "release", 0.95, riskLow, "public_ip"
	case isKind(r, snapshotTypes):
		if !olderThan(r, opt.Now, OldSnapshotDays) || r.CreatedAt.IsZero() {
			return model.Recommendation{}, false
		}
		if !reported {
			monthly = r.SizeGB * pricing.SnapshotPricePerGBMonth(r.Provider, r.Region)
		}
		age := int(opt.Now.Sub(r.CreatedAt).Hours() / hoursPerDay)
		what = fmt.Sprintf("%d-day-old %g GB snapshot %s", age, r.SizeGB, nameOf(r))
		// A snapshot may be the only backup: lower confidence, higher risk.
		action, kindConf, rsk, typeLabel = "delete if no retention policy needs it", 0.7, riskMedium, "snapshot"
	default:
		return model.Recommendation{}, false
	}
	savings := money(monthly)
	if savings <= 0 {
		return model.Recommendation{}, false
	}
	ev := evidence{completeness: 1, days: LookbackDays, stability: 1, kind: kindConf}
	return model.Recommendation{
		Type:                 model.RecIdle,
		ResourceID:           r.ResourceID,
		ResourceType:         resourceTypeOr(r, typeLabel),
		Description:          fmt.Sprintf("%s %s: it costs %s a month.", upperFirst(action), what, dollars(savings)),
		CurrentConfig:        &model.InstanceConfig{InstanceType: r.InstanceType, Cost: savings},
		PotentialSavings:     savings,
		Priority:             priority(savings, rsk),
		Provider:             r.Provider,
		Confidence:           ev.confidence(),
		ImplementationEffort: model.EffortLow,
		Details: map[string]any{
			"region":       r.Region,
			"size_gb":      r.SizeGB,
			"action":       action,
			"price_source": storagePriceSource(reported),
		},
	}, true
}

func storagePriceSource(reported bool) string {
	if reported {
		return "provider"
	}
	return "catalog " + pricing.PriceDate
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
