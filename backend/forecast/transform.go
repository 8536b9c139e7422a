package forecast

import "math"

// transform maps daily values to the space the models work in. Cost series
// grow and fall by percentages, and their spread grows with their level, so
// non-negative series are modelled on a log scale; a series with credits
// (negative days) stays on its own scale.
type transform struct {
	log bool
	c   float64 // offset that keeps zero days finite on the log scale
}

// newTransform picks the transform for values: log(y+c) when no value is
// negative, with c a small fraction of the mean so that an occasional zero
// day is an outlier of bounded size rather than minus infinity.
func newTransform(values []float64) transform {
	sum := 0.0
	for _, v := range values {
		if v < 0 {
			return transform{}
		}
		sum += v
	}
	mean := sum / float64(len(values))
	if mean <= 0 {
		return transform{}
	}
	return transform{log: true, c: 0.01 * mean}
}

func (t transform) fwd(y float64) float64 {
	if t.log {
		return math.Log(math.Max(y, 0) + t.c)
	}
	return y
}

func (t transform) inv(z float64) float64 {
	if t.log {
		return math.Max(math.Exp(z)-t.c, 0)
	}
	return z
}

func (t transform) fwdAll(y []float64) []float64 {
	z := make([]float64, len(y))
	for i, v := range y {
		z[i] = t.fwd(v)
	}
	return z
}
