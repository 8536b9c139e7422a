package pricing

import (
	"math"
	"strings"
	"sync"

	"github.com/costpilot/costpilot/backend/model"
)

// catalog indexes the fixed-size tables (AWS, Azure, GCP); OCI flex shapes
// are priced by formula.
type catalog struct {
	sizes  map[model.ProviderKey]map[string]Size               // lower-case name -> size
	prices map[model.ProviderKey]map[string]map[string]float64 // lower-case name -> region -> hourly
	order  map[model.ProviderKey][]string                      // lower-case names in table order
}

func (c *catalog) add(sz Size, prices map[string]float64) {
	key := strings.ToLower(sz.Name)
	if c.sizes[sz.Provider] == nil {
		c.sizes[sz.Provider] = map[string]Size{}
		c.prices[sz.Provider] = map[string]map[string]float64{}
	}
	if _, dup := c.sizes[sz.Provider][key]; !dup {
		c.order[sz.Provider] = append(c.order[sz.Provider], key)
	}
	c.sizes[sz.Provider][key] = sz
	c.prices[sz.Provider][key] = prices
}

// theCatalog is built once on first use; it is read-only afterwards, so
// concurrent lookups need no lock.
var theCatalog = sync.OnceValue(func() *catalog {
	c := &catalog{
		sizes:  map[model.ProviderKey]map[string]Size{},
		prices: map[model.ProviderKey]map[string]map[string]float64{},
		order:  map[model.ProviderKey][]string{},
	}
	c.addAWS()
	c.addAzure()
	c.addGCP()
	return c
})

// roundPrice keeps six decimals, the precision of the published per-hour
// prices, so derived prices do not carry float noise.
func roundPrice(p float64) float64 {
	return math.Round(p*1e6) / 1e6
}
