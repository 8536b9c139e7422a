package pricing

import (
	"math"
	"strconv"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// ociShape is one OCI flexible VM shape, priced per OCPU-hour plus per
// GB-hour of memory. OCI list prices are the same in every commercial
// region, so a flex quote is never an estimate.
type ociShape struct {
	name         string
	arch         string
	gen          int
	ocpuHourly   float64
	memGBHourly  float64
	vcpuPerOCPU  float64 // 2 on x86 (an OCPU is a core with two threads), 1 on Ampere A1
	maxOCPUs     int
	maxMemGB     float64
	catalogMemGB []float64 // memory per OCPU that Sizes lists
}

var ociShapes = []ociShape{
	{"VM.Standard.E4.Flex", ArchX86, 4, 0.025, 0.0015, 2, 64, 1024, []float64{1, 2, 4, 8, 16}},
	{"VM.Standard.E5.Flex", ArchX86, 5, 0.03, 0.002, 2, 94, 1049, []float64{1, 2, 4, 8, 16}},
	{"VM.Standard3.Flex", ArchX86, 3, 0.04, 0.0015, 2, 32, 512, []float64{1, 2, 4, 8, 16}},
	{"VM.Standard.A1.Flex", ArchARM, 1, 0.01, 0.0015, 1, 80, 512, []float64{1, 2, 4, 6, 8, 16}},
}

// ociMaxMemPerOCPU is the largest memory per OCPU a flex shape accepts.
const ociMaxMemPerOCPU = 64

// ociCatalogOCPUs is how many OCPUs the listed configurations go up to.
const ociCatalogOCPUs = 8

// ociShapeByName finds a flex shape, ignoring case.
func ociShapeByName(name string) (ociShape, bool) {
	for _, s := range ociShapes {
		if strings.EqualFold(s.name, name) {
			return s, true
		}
	}
	return ociShape{}, false
}

// parseOCIFlex parses "<shape>/<ocpus>/<memoryGB>" into a priced size.
func parseOCIFlex(instanceType string) (Size, float64, bool) {
	parts := strings.Split(strings.TrimSpace(instanceType), "/")
	if len(parts) != 3 {
		return Size{}, 0, false
	}
	shape, ok := ociShapeByName(parts[0])
	if !ok {
		return Size{}, 0, false
	}
	ocpus, err1 := strconv.ParseFloat(parts[1], 64)
	mem, err2 := strconv.ParseFloat(parts[2], 64)
	if err1 != nil || err2 != nil || ocpus < 1 || ocpus != math.Trunc(ocpus) || ocpus > float64(shape.maxOCPUs) ||
		mem < 1 || mem > ocpus*ociMaxMemPerOCPU || mem > shape.maxMemGB {
		return Size{}, 0, false
	}
	sz, price := shape.configure(ocpus, mem)
	return sz, price, true
}

// configure returns the size and hourly price of ocpus OCPUs with mem GB.
func (s ociShape) configure(ocpus, mem float64) (Size, float64) {
	sz := Size{
		Provider:   model.OCI,
		Name:       s.name + "/" + formatNumber(ocpus) + "/" + formatNumber(mem),
		Family:     s.name,
		Arch:       s.arch,
		VCPU:       ocpus * s.vcpuPerOCPU,
		MemoryGB:   mem,
		Generation: s.gen,
	}
	return sz, roundPrice(ocpus*s.ocpuHourly + mem*s.memGBHourly)
}

// formatNumber writes whole numbers without a decimal point.
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// ociSizes lists the catalog's flex configurations: 1..8 OCPUs with the
// common memory-per-OCPU ratios.
func ociSizes() []PricedSize {
	var out []PricedSize
	for _, s := range ociShapes {
		for n := 1; n <= ociCatalogOCPUs; n++ {
			for _, per := range s.catalogMemGB {
				sz, price := s.configure(float64(n), float64(n)*per)
				out = append(out, PricedSize{Size: sz, Hourly: price})
			}
		}
	}
	return out
}
