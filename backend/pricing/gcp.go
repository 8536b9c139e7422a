package pricing

import (
	"fmt"

	"github.com/costpilot/costpilot/backend/model"
)

// gcpRates are the resource-based prices of a machine series in a region:
// machine types are billed per vCPU-hour plus per GB-hour of memory.
type gcpRates struct{ vcpu, memGB float64 }

// gcpSeries is one Compute Engine machine series and the machine types the
// catalog lists for it.
type gcpSeries struct {
	family string
	gen    int
	rates  map[string]gcpRates // region -> rates
	// classes maps the type class (standard, highmem, highcpu) to GB per vCPU.
	classes map[string]float64
	vcpus   []int
}

// gcpSeriesTable: on-demand prices. europe-west1 is us-central1 plus the
// published 10 % regional differential for these series.
var gcpSeriesTable = []gcpSeries{
	{"e2", 2, map[string]gcpRates{"us-central1": {0.021811, 0.002923}, "europe-west1": {0.023992, 0.003215}},
		map[string]float64{"standard": 4, "highmem": 8, "highcpu": 1}, []int{2, 4, 8, 16}},
	{"n2", 2, map[string]gcpRates{"us-central1": {0.031611, 0.004237}, "europe-west1": {0.034773, 0.004661}},
		map[string]float64{"standard": 4, "highmem": 8, "highcpu": 1}, []int{2, 4, 8, 16}},
	{"n2d", 2, map[string]gcpRates{"us-central1": {0.027502, 0.003686}, "europe-west1": {0.030252, 0.004055}},
		map[string]float64{"standard": 4, "highmem": 8, "highcpu": 1}, []int{2, 4, 8, 16}},
	{"c3", 3, map[string]gcpRates{"us-central1": {0.03465, 0.003938}, "europe-west1": {0.038115, 0.004332}},
		map[string]float64{"standard": 4, "highmem": 8, "highcpu": 2}, []int{4, 8, 22}},
	{"t2d", 2, map[string]gcpRates{"us-central1": {0.027502, 0.003686}, "europe-west1": {0.030252, 0.004055}},
		map[string]float64{"standard": 4}, []int{1, 2, 4, 8, 16}},
}

// gcpSharedCore are the e2 shared-core types: two visible vCPUs billed as a
// fraction of one (micro 0.25, small 0.5, medium 1).
var gcpSharedCore = []struct {
	name        string
	billedVCPU  float64
	memGB, vcpu float64
}{
	{"e2-micro", 0.25, 1, 2},
	{"e2-small", 0.5, 2, 2},
	{"e2-medium", 1, 4, 2},
}

// addGCP expands the series table into machine types and prices.
func (c *catalog) addGCP() {
	for _, s := range gcpSeriesTable {
		for class, perVCPU := range s.classes {
			for _, n := range s.vcpus {
				vcpu := float64(n)
				mem := vcpu * perVCPU
				sz := Size{
					Provider: model.GCP, Name: fmt.Sprintf("%s-%s-%d", s.family, class, n), Family: s.family,
					Arch: ArchX86, VCPU: vcpu, MemoryGB: mem, Generation: s.gen,
				}
				prices := make(map[string]float64, len(s.rates))
				for region, r := range s.rates {
					prices[region] = roundPrice(vcpu*r.vcpu + mem*r.memGB)
				}
				c.add(sz, prices)
			}
		}
	}
	e2 := gcpSeriesTable[0]
	for _, sc := range gcpSharedCore {
		sz := Size{
			Provider: model.GCP, Name: sc.name, Family: "e2", Arch: ArchX86,
			VCPU: sc.vcpu, MemoryGB: sc.memGB, Generation: e2.gen, Burstable: true,
		}
		prices := make(map[string]float64, len(e2.rates))
		for region, r := range e2.rates {
			prices[region] = roundPrice(sc.billedVCPU*r.vcpu + sc.memGB*r.memGB)
		}
		c.add(sz, prices)
	}
}
