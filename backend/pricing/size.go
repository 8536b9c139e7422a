package pricing

import "github.com/costpilot/costpilot/backend/model"

// Architectures of a Size.
const (
	ArchX86 = "x86_64"
	ArchARM = "arm64"
)

// Size is one compute size (instance type, VM size, machine type or flex
// shape configuration).
type Size struct {
	Provider   model.ProviderKey
	Name       string // as the provider writes it, e.g. m5.large or VM.Standard.E4.Flex/2/16
	Family     string // m5, Dsv5, n2, VM.Standard.E4.Flex
	Arch       string // ArchX86 or ArchARM
	VCPU       float64
	MemoryGB   float64
	Generation int
	Burstable  bool // shared-core or CPU-credit sizes (t3, B, e2-medium)
}

// PricedSize is a Size with its on-demand hourly price in one region.
type PricedSize struct {
	Size
	Region string
	Hourly float64
	// Estimated is true when the region is not in the table and the price
	// is the reference region's times a regional multiplier.
	Estimated bool
}
