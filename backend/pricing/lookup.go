package pricing

import (
	"cmp"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// Lookup returns the size and its hourly on-demand price in region. A region
// not in the table (or an empty one) is priced from the provider's
// reference region times a regional multiplier; Quote reports when that
// happened. OCI flex types are written <shape>/<ocpus>/<memoryGB>.
func Lookup(p model.ProviderKey, region, instanceType string) (Size, float64, bool) {
	q, ok := Quote(p, region, instanceType)
	return q.Size, q.Hourly, ok
}

// Quote is Lookup with the price's region and whether it is an estimate.
func Quote(p model.ProviderKey, region, instanceType string) (PricedSize, bool) {
	r := normalizeRegion(p, region)
	if p == model.OCI {
		sz, price, ok := parseOCIFlex(instanceType)
		if !ok {
			return PricedSize{}, false
		}
		// OCI list prices are global: any region is exact.
		return PricedSize{Size: sz, Region: r, Hourly: price}, true
	}
	c := theCatalog()
	key := typeKey(p, instanceType)
	sz, ok := c.sizes[p][key]
	if !ok && p == model.Azure && !strings.HasPrefix(key, "standard_") {
		key = "standard_" + key
		sz, ok = c.sizes[p][key]
	}
	if !ok {
		return PricedSize{}, false
	}
	q := c.price(p, key, r)
	q.Size = sz
	if strings.TrimSpace(region) == "" {
		q.Estimated = true
	}
	return q, true
}

// price returns the price of a catalog entry in region, falling back to the
// reference region times the regional multiplier.
func (c *catalog) price(p model.ProviderKey, key, region string) PricedSize {
	prices := c.prices[p][key]
	if v, ok := prices[region]; ok {
		return PricedSize{Region: region, Hourly: v}
	}
	ref := prices[ReferenceRegion(p)]
	return PricedSize{Region: region, Hourly: roundPrice(ref * regionMultiplier(p, region)), Estimated: true}
}

// typeKey normalises an instance type: lower case, and for GCP the last
// segment of a machineTypes URL.
func typeKey(p model.ProviderKey, instanceType string) string {
	t := strings.ToLower(strings.TrimSpace(instanceType))
	if p == model.GCP {
		if i := strings.LastIndex(t, "/"); i >= 0 {
			t = t[i+1:]
		}
	}
	return t
}

// Sizes lists the catalog for a provider and region, cheapest first (ties by
// name). OCI lists its flex shapes at 1..8 OCPUs with common memory ratios.
func Sizes(p model.ProviderKey, region string) []PricedSize {
	r := normalizeRegion(p, region)
	var out []PricedSize
	if p == model.OCI {
		out = ociSizes()
		for i := range out {
			out[i].Region = r
		}
	} else {
		c := theCatalog()
		out = make([]PricedSize, 0, len(c.order[p]))
		for _, key := range c.order[p] {
			q := c.price(p, key, r)
			q.Size = c.sizes[p][key]
			out = append(out, q)
		}
	}
	slices.SortStableFunc(out, func(a, b PricedSize) int {
		return cmp.Or(cmp.Compare(a.Hourly, b.Hourly), cmp.Compare(a.Name, b.Name))
	})
	return out
}
