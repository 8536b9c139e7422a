package recommend

import (
	"math"
	"slices"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// usage summarises one resource's utilization over the analysis window.
type usage struct {
	samples    int
	days       float64 // span of the samples in days
	coverage   float64 // fraction of hours in the span with a sample
	p95CPU     float64
	maxCPU     float64
	cpuCV      float64 // coefficient of variation of hourly CPU
	memKnown   bool
	p95Mem     float64
	maxMem     float64
	p95Network float64
}

// enough reports whether the window is long and complete enough to act on.
func (u usage) enough() bool {
	return u.days >= MinDays && u.coverage >= MinCoverage
}

// window keeps the samples within LookbackDays before now (all of them when
// now is zero), sorted by time, one per hour (the last given wins).
func window(samples []model.UtilizationSample, now time.Time) []model.UtilizationSample {
	var from time.Time
	if !now.IsZero() {
		from = now.Add(-LookbackDays * hoursPerDay * hour)
	}
	out := make([]model.UtilizationSample, 0, len(samples))
	for _, s := range samples {
		if !now.IsZero() && (s.Time.Before(from) || s.Time.After(now)) {
			continue
		}
		s.Time = s.Time.UTC().Truncate(hour)
		out = append(out, s)
	}
	slices.SortStableFunc(out, func(a, b model.UtilizationSample) int { return a.Time.Compare(b.Time) })
	// Keep the last sample of each hour.
	kept := out[:0]
	for i, s := range out {
		if i+1 < len(out) && out[i+1].Time.Equal(s.Time) {
			continue
		}
		kept = append(kept, s)
	}
	return kept
}

// summarize computes the usage of one resource from its windowed samples.
func summarize(samples []model.UtilizationSample) usage {
	var u usage
	u.samples = len(samples)
	if u.samples == 0 {
		return u
	}
	first, last := samples[0].Time, samples[len(samples)-1].Time
	spanHours := last.Sub(first).Hours() + 1
	u.days = spanHours / hoursPerDay
	u.coverage = float64(u.samples) / spanHours
	cpu := make([]float64, 0, len(samples))
	net := make([]float64, 0, len(samples))
	var mem []float64
	for _, s := range samples {
		cpu = append(cpu, clamp01(s.CPU))
		net = append(net, math.Max(0, s.NetworkBytes))
		if s.Memory >= 0 {
			mem = append(mem, clamp01(s.Memory))
		}
	}
	u.p95CPU = percentile(cpu, 0.95)
	u.maxCPU = slices.Max(cpu)
	u.cpuCV = cv(cpu)
	u.p95Network = percentile(net, 0.95)
	// Memory counts as known only when most hours report it; a few stray
	// readings would understate the peak.
	if float64(len(mem)) >= MinCoverage*float64(len(samples)) {
		u.memKnown = true
		u.p95Mem = percentile(mem, 0.95)
		u.maxMem = slices.Max(mem)
	}
	return u
}

// percentile is the linear-interpolation percentile (type 7, as numpy and
// spreadsheets compute it) of xs; q in [0,1]. 0 for no data.
func percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	frac := pos - float64(lo)
	return s[lo] + (s[hi]-s[lo])*frac
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// cv is the coefficient of variation (population standard deviation over
// mean); 0 when the mean is 0.
func cv(xs []float64) float64 {
	m := mean(xs)
	if m == 0 {
		return 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss/float64(len(xs))) / m
}

func clamp01(x float64) float64 {
	return math.Min(1, math.Max(0, x))
}
