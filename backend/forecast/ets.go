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

// robustScaleWeight is how fast robustLevel's error scale follows the
// errors (an exponential weight per day), and robustScaleClip where an
// error stops adding to it (in scales): a spike neither moves the level
// much nor widens the clip for the days after it.
const (
	robustScaleWeight = 0.1
	robustScaleClip   = 2.0
)

// robustLevel fits robust simple exponential smoothing to a and returns
// its final level: each one-step error moves the level by at most k
// times a running scale of the errors (Huber's psi), as in the robust
// exponential smoothing of Gelper, Fried and Croux (2010). Page views and
// other news-driven series have heavy-tailed days that clean leaves in
// (below its spike limit); clipped at about one scale the level becomes a
// running M-estimate between the mean and the median of the recent days,
// which tracks a level shift within days yet is not dragged by single
// days. The smoothing constant minimises the Huber loss of the one-step
// errors with the same k.
func robustLevel(a []float64, k float64) float64 {
	if len(a) > etsWindow {
		a = a[len(a)-etsWindow:]
	}
	w := min(2*period, len(a))
	l0 := mean(a[:min(period, len(a))])
	s0 := 0.0
	for i := 1; i < w; i++ {
		s0 += math.Abs(a[i] - a[i-1])
	}
	// The mean absolute day-to-day change, as a standard deviation (the
	// factor is that of a normal error); never zero, so a constant series
	// divides by something.
	s0 = s0/float64(max(1, w-1))*1.25 + 1e-9*(1+math.Abs(l0))
	best, level := math.Inf(1), l0
	for _, al := range etsAlphas {
		l, s, loss := l0, s0, 0.0
		for _, y := range a {
			e := y - l
			u := e / s
			if math.Abs(u) <= k {
				loss += e * e
			} else {
				loss += (2*k*math.Abs(u) - k*k) * s * s
			}
			if loss >= best {
				break
			}
			l += al * math.Max(-k, math.Min(k, u)) * s
			s *= math.Sqrt(1 - robustScaleWeight + robustScaleWeight*math.Min(u*u, robustScaleClip*robustScaleClip))
		}
		if loss < best {
			best, level = loss, l
		}
	}
	return level
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
