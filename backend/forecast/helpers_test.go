package forecast

import (
	"math"
	"math/rand/v2"
	"time"
)

var day0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// synth makes a deterministic daily cost series: level 100 with the given
// daily growth, a weekday pattern (weekends cheaper) and multiplicative
// noise of relative size noise.
func synth(n int, growth, noise float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	week := [7]float64{1.1, 1.1, 1.05, 1.05, 1.0, 0.85, 0.85}
	out := make([]float64, n)
	for t := range out {
		out[t] = (100 + growth*float64(t)) * week[t%7] * math.Exp(noise*r.NormFloat64())
	}
	return out
}
