package pricing

import (
	"fmt"

	"github.com/costpilot/costpilot/backend/model"
)

// azureSeries describes one VM series. Azure prices are linear in vCPU count
// within a series, so the table keeps the price per vCPU of each region.
type azureSeries struct {
	family     string
	arch       string
	gen        int
	burstable  bool
	perVCPU    map[string]float64 // region -> hourly price per vCPU
	sizes      []azureSize
	memPerVCPU float64
}

type azureSize struct {
	name  string
	vcpu  float64
	memGB float64 // 0: vcpu * memPerVCPU
	price map[string]float64
}

// azureSeriesTable: pay-as-you-go Linux prices. Only Dsv5 has a published
// westeurope row here (D2s v5: $0.115); the others use the westeurope
// multiplier and are marked Estimated.
var azureSeriesTable = []azureSeries{
	{family: "Bs", arch: ArchX86, gen: 1, burstable: true, sizes: []azureSize{
		{"Standard_B1s", 1, 1, map[string]float64{"eastus": 0.0104}},
		{"Standard_B1ms", 1, 2, map[string]float64{"eastus": 0.0207}},
		{"Standard_B2s", 2, 4, map[string]float64{"eastus": 0.0416}},
		{"Standard_B2ms", 2, 8, map[string]float64{"eastus": 0.0832}},
		{"Standard_B4ms", 4, 16, map[string]float64{"eastus": 0.166}},
		{"Standard_B8ms", 8, 32, map[string]float64{"eastus": 0.333}},
	}},
	{family: "Dsv3", arch: ArchX86, gen: 3, memPerVCPU: 4, perVCPU: map[string]float64{"eastus": 0.048},
		sizes: azureScaled("Standard_D%ds_v3")},
	{family: "Dsv5", arch: ArchX86, gen: 5, memPerVCPU: 4, perVCPU: map[string]float64{"eastus": 0.048, "westeurope": 0.0575},
		sizes: azureScaled("Standard_D%ds_v5")},
	{family: "Dasv5", arch: ArchX86, gen: 5, memPerVCPU: 4, perVCPU: map[string]float64{"eastus": 0.043},
		sizes: azureScaled("Standard_D%das_v5")},
	{family: "Dpsv5", arch: ArchARM, gen: 5, memPerVCPU: 4, perVCPU: map[string]float64{"eastus": 0.0385},
		sizes: azureScaled("Standard_D%dps_v5")},
	{family: "Esv3", arch: ArchX86, gen: 3, memPerVCPU: 8, perVCPU: map[string]float64{"eastus": 0.063},
		sizes: azureScaled("Standard_E%ds_v3")},
	{family: "Esv5", arch: ArchX86, gen: 5, memPerVCPU: 8, perVCPU: map[string]float64{"eastus": 0.063},
		sizes: azureScaled("Standard_E%ds_v5")},
	{family: "Easv5", arch: ArchX86, gen: 5, memPerVCPU: 8, perVCPU: map[string]float64{"eastus": 0.0565},
		sizes: azureScaled("Standard_E%das_v5")},
	{family: "Fsv2", arch: ArchX86, gen: 2, memPerVCPU: 2, sizes: []azureSize{
		{"Standard_F2s_v2", 2, 0, map[string]float64{"eastus": 0.0846}},
		{"Standard_F4s_v2", 4, 0, map[string]float64{"eastus": 0.169}},
		{"Standard_F8s_v2", 8, 0, map[string]float64{"eastus": 0.338}},
		{"Standard_F16s_v2", 16, 0, map[string]float64{"eastus": 0.677}},
	}},
}

// azureScaled lists the 2, 4, 8 and 16 vCPU sizes of a linearly priced
// series; the name pattern takes the vCPU count.
func azureScaled(pattern string) []azureSize {
	out := make([]azureSize, 0, 4)
	for _, n := range []int{2, 4, 8, 16} {
		out = append(out, azureSize{name: fmt.Sprintf(pattern, n), vcpu: float64(n)})
	}
	return out
}

// addAzure expands the series table into sizes and prices.
func (c *catalog) addAzure() {
	for _, s := range azureSeriesTable {
		for _, z := range s.sizes {
			mem := z.memGB
			if mem == 0 {
				mem = z.vcpu * s.memPerVCPU
			}
			sz := Size{
				Provider: model.Azure, Name: z.name, Family: s.family, Arch: s.arch,
				VCPU: z.vcpu, MemoryGB: mem, Generation: s.gen, Burstable: s.burstable,
			}
			prices := map[string]float64{}
			for region, p := range s.perVCPU {
				prices[region] = roundPrice(p * z.vcpu)
			}
			for region, p := range z.price {
				prices[region] = p
			}
			c.add(sz, prices)
		}
	}
}
