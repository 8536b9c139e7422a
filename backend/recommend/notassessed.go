package recommend

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// NotAssessed counts, per provider, the compute resources with cost in
// in.Costs (the window of LookbackDays before opt.Now, in currency) that
// have no utilization sample in in.Inventory, with their cost scaled to a
// month: what the rightsizing and idle checks could not look at. A cost
// line's resource id matches a sample's ignoring case and a leading
// "//service.host/" (GCP's billing export writes full resource names).
// Providers with nothing unassessed are left out.
func NotAssessed(in Input, currency string) []model.NotAssessed {
	sampled := map[model.ProviderKey]map[string]bool{}
	for _, inv := range in.Inventory {
		ids := sampled[inv.Provider]
		if ids == nil {
			ids = map[string]bool{}
			sampled[inv.Provider] = ids
		}
		for _, s := range inv.Utilization {
			ids[normalID(s.ResourceID)] = true
		}
	}
	cost := map[model.ProviderKey]map[string]float64{}
	for _, l := range in.Costs {
		// Machines only: what rightsizing and idle checks read. Databases
		// and containers are commitment-eligible (IsComputeUsage) but not
		// assessed from machine utilization.
		if l.ResourceID == "" || l.ServiceCategory != "Compute" || !IsComputeUsage(l) {
			continue
		}
		id := normalID(l.ResourceID)
		if sampled[l.Provider][id] {
			continue
		}
		if cost[l.Provider] == nil {
			cost[l.Provider] = map[string]float64{}
		}
		cost[l.Provider][id] += l.Billed.Float64()
	}
	var out []model.NotAssessed
	for _, p := range model.AllProviders {
		n, sum := 0, 0.0
		for _, c := range cost[p] {
			if c > 0 {
				n++
				sum += c
			}
		}
		if n == 0 {
			continue
		}
		monthly := sum / LookbackDays * pricing.HoursPerMonth / 24
		out = append(out, model.NotAssessed{Provider: p, Resources: n, MonthlyCost: monthly, Currency: currency,
			Reason: model.NotAssessedNoUtilization,
			Message: fmt.Sprintf("Rightsizing and idle checks not assessed for %s %s compute %s, %s a month: no utilization data. Connect metrics: %s.inventory: api or %s.prometheus.",
				groupInt(n), p.Name(), plural(n, "resource", "resources"), CompactMoney(monthly, currency), p, p)})
	}
	return out
}

func normalID(id string) string {
	id = strings.ToLower(id)
	if rest, ok := strings.CutPrefix(id, "//"); ok {
		if _, path, ok := strings.Cut(rest, "/"); ok {
			return path
		}
	}
	return id
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func groupInt(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CompactMoney writes an amount for a sentence: $3.1M, $42.5K, $980,
// or the code after the number for currencies without a common sign.
func CompactMoney(v float64, currency string) string {
	num := ""
	switch a := math.Abs(v); {
	case a >= 1e9:
		num = strconv.FormatFloat(v/1e9, 'f', 1, 64) + "B"
	case a >= 1e6:
		num = strconv.FormatFloat(v/1e6, 'f', 1, 64) + "M"
	case a >= 1e4:
		num = strconv.FormatFloat(v/1e3, 'f', 1, 64) + "K"
	default:
		num = groupInt(int(math.Round(v)))
	}
	switch currency {
	case "USD":
		return "$" + num
	case "EUR":
		return "€" + num
	case "GBP":
		return "£" + num
	case "":
		return num
	}
	return num + " " + currency
}
