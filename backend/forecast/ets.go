package forecast

import "math"

// etsWindow bounds the history exponential smoothing is fitted on: older
// days barely affect the state and cost time.
const etsWindow = 364

var (
	etsAlphas = []float64{0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.45, 0.6, 0.8, 0.95}
	etsBetas  = []float64{0.005, 0.02, 0.08}
	etsPhis   = []float64{0.8, 0.9, 0.95, 0.98}
)

// ets is a fitted additive exponential-smoothing model: simple (level only)
// or with a damped trend. Parameters come from a grid search on one-step
// squared errors, which is fast, deterministic and cannot diverge.
type ets struct {
	level, trend, phi float64
}

// fitETS fits simple exponential smoothing to a, or Holt's damped trend
// when damped is set, and returns the final state.
func fitETS(a []float64, damped bool) ets {
	if len(a) > etsWindow {
		a = a[len(a)-etsWindow:]
	}
	l0, b0 := etsInit(a, damped)
	best := math.Inf(1)
	var fit ets
	betas, phis := []float64{0}, []float64{0}
	if damped {
		betas, phis = etsBetas, etsPhis
	}
	for _, al := range etsAlphas {
		for _, be := range betas {
			if be > al {
				continue
			}
			for _, ph := range phis {
				l, b, sse := l0, b0, 0.0
				for _, y := range a {
					f := l + ph*b
					e := y - f
					sse += e * e
					if sse >= best {
						break
					}
					l = f + al*e
					b = ph*b + be*e
				}
				if sse < best {
					best = sse
					fit = ets{level: l, trend: b, phi: ph}
				}
			}
		}
	}
	return fit
}

func etsInit(a []float64, damped bool) (level, trend float64) {
	k := min(period, len(a))
	level = mean(a[:k])
	if damped && len(a) >= 2*period {
		trend = (mean(a[period:2*period]) - level) / period
	}
	return level, trend
}

// forecast returns the h-step path of the fitted model.
func (m ets) forecast(h int) []float64 {
	out := make([]float64, h)
	damp, acc := m.phi, 0.0
	for i := range out {
		acc += damp
		damp *= m.phi
		out[i] = m.level + acc*m.trend
	}
	return out
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
