package recommend

import (
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Options are the analysis parameters: the configuration's
// optimization.cpu_utilization_threshold and memory_utilization_threshold
// (fractions, e.g. 0.8: the highest p95 utilization a recommended size may
// run at) and the time the analysis is made.
type Options struct {
	CPUThreshold    float64
	MemoryThreshold float64
	Now             time.Time
}

// normalized replaces unusable thresholds with 0.8, the default.
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
	// Costs is the recent cost history, for allocation: daily lines, or
	// lines summed over the window (Day their last day, FirstDay their
	// first).
	Costs []model.CostLine
	// ComputeDaily is each provider's compute usage paid at on-demand
	// rates, per day (what ComputeDaily returns for daily lines). When nil
	// it is computed from Costs, which must then be daily lines.
	ComputeDaily map[model.ProviderKey]map[string]float64
	// Coverage is each provider's commitment facts per day, when its
	// source reports them: the purchase is then sized from the eligible
	// usage no commitment covers (see coverageBaseline).
	Coverage map[model.ProviderKey]Coverage
	// Basis is, per provider, the days its cost history is read over: the
	// commitment baseline ends on To (not Options.Now) and the
	// recommendation carries it, Reason included (the data ends before
	// yesterday, so the last LookbackDays days with data are read).
	Basis map[model.ProviderKey]model.Basis
}

// Coverage is a provider's daily commitment measures, in the report
// currency: the list cost of eligible usage no commitment covered, and
// the commitment purchased but left unused. Eligible and Covered are the
// list cost of all eligible usage over the baseline's days and of the
// part commitments covered, as the Commitments view computes them
// (commitments.Eligible): the recommendation reports them.
type Coverage struct {
	OnDemand          map[string]float64 // day -> amount
	Unused            map[string]float64
	Eligible, Covered float64
}
