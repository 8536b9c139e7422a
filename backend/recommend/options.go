package recommend

import (
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Options are the analysis parameters: SPEC.md's
// optimization.cpu_utilization_threshold and memory_utilization_threshold
// (fractions, e.g. 0.8: the highest p95 utilization a recommended size may
// run at) and the time the analysis is made.
type Options struct {
	CPUThreshold    float64
	MemoryThreshold float64
	Now             time.Time
}

// normalized replaces unusable thresholds with 0.8, the spec's example.
func (o Options) normalized() Options {
	if o.CPUThreshold <= 0 || o.CPUThreshold > 1 {
		o.CPUThreshold = 0.8
	}
	if o.MemoryThreshold <= 0 || o.MemoryThreshold > 1 {
		o.MemoryThreshold = 0.8
	}
	return o
}

// Input is what the analyzers read.
type Input struct {
	// Inventory is each provider's resources with hourly utilization
	// samples (CPU and Memory fractions; Memory < 0 means unknown).
	Inventory []model.Inventory
	// Costs is recent daily cost history, for commitments and allocation.
	Costs []model.CostLine
}
