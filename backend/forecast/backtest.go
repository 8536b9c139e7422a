package forecast

import (
	"math"
	"sort"
)

const (
	// minTrain is the shortest history a backtest origin may leave the
	// models; with 28 days required overall this still gives one origin.
	minTrain = 21
	// maxOrigins bounds the backtest's cost: each origin refits every
	// candidate.
	maxOrigins = 20
	// combineTop is how many of the best backtested candidates are
	// averaged. Averaging a few good models is steadier than picking the
	// single best, whose lead over short backtests is partly luck.
	combineTop = 3
	// halfLife (days) is how fast an origin's say in the intervals fades
	// with its age: the errors of the last two months are more like the next
	// ones than those of a year ago, when the account may have been in another
	// phase (being built, or before a large launch).
	halfLife = 50.0
)

// backtestOrigins returns the history lengths at which a rolling-origin
// backtest of horizon h forecasts, newest first. Origins are whole weeks
// apart so every weekday is tested alike: three weeks or more, so the
// backtest spans a good part of a year and sees more than one regime, and
// closer only when the history is short.
func backtestOrigins(n, h int) []int {
	step := period * max(3, (h+29)/30)
	// A short history gets closer origins rather than too few of them.
	for step > period && n-3*step < minTrain {
		step -= period
	}
	var out []int
	for k := 1; k <= maxOrigins; k++ {
		o := n - k*step
		if o < minTrain {
			break
		}
		out = append(out, o)
	}
	return out
}

// backtest holds every candidate's forecasts from every origin, on the
// model scale. An origin close to the end forecasts only the days the
// history still has.
type backtest struct {
	y       []float64
	zc      []float64 // the history on the model scale with its spikes clipped
	tr      transform
	origins []int
	cands   []int         // indexes into candidates that could run
	zf      [][][]float64 // [cand][origin][day]
}

// runBacktest forecasts h days from each origin with each candidate.
func runBacktest(y []float64, tr transform, h int) *backtest {
	z := tr.fwdAll(y)
	bt := &backtest{y: y, zc: clean(z), tr: tr, origins: backtestOrigins(len(y), h)}
	comps := make([]*components, len(bt.origins))
	for j, o := range bt.origins {
		comps[j] = decompose(z[:o], min(h, len(y)-o))
	}
	for ci, c := range candidates {
		if c.needYear && !allHaveYear(comps) {
			continue
		}
		fs := make([][]float64, len(bt.origins))
		for j, o := range bt.origins {
			fs[j] = c.fc(comps[j], min(h, len(y)-o))
		}
		bt.cands = append(bt.cands, ci)
		bt.zf = append(bt.zf, fs)
	}
	return bt
}

func allHaveYear(cs []*components) bool {
	if len(cs) == 0 {
		return false
	}
	for _, c := range cs {
		if c.year == nil {
			return false
		}
	}
	return true
}

// score is a candidate's backtest mean absolute error on the original
// scale: the mean over origins at each lead time, then the mean over lead
// times, so that every lead time of the horizon counts the same.
func (bt *backtest) score(k int) float64 {
	var sum []float64
	var cnt []int
	for j, o := range bt.origins {
		for i, f := range bt.zf[k][j] {
			if i >= len(sum) {
				sum = append(sum, 0)
				cnt = append(cnt, 0)
			}
			sum[i] += math.Abs(bt.y[o+i] - bt.tr.inv(f))
			cnt[i]++
		}
	}
	if len(sum) == 0 {
		return math.Inf(1)
	}
	s := 0.0
	for i := range sum {
		s += sum[i] / float64(cnt[i])
	}
	return s / float64(len(sum))
}

// choose returns the indexes (into bt.cands) of the best candidates.
func (bt *backtest) choose() []int {
	idx := make([]int, len(bt.cands))
	sc := make([]float64, len(bt.cands))
	for k := range idx {
		idx[k] = k
		sc[k] = bt.score(k)
	}
	sort.SliceStable(idx, func(a, b int) bool { return sc[idx[a]] < sc[idx[b]] })
	return idx[:min(combineTop, len(idx))]
}

// combinedErrors returns, per origin, the errors of the combination of the
// chosen candidates on the model scale by day: raw is actual minus
// forecast, clean the same with the actual's spikes clipped.
func (bt *backtest) combinedErrors(chosen []int) (raw, clean [][]float64) {
	raw = make([][]float64, len(bt.origins))
	clean = make([][]float64, len(bt.origins))
	for j, o := range bt.origins {
		paths := make([][]float64, len(chosen))
		for i, k := range chosen {
			paths[i] = bt.zf[k][j]
		}
		comb := combine(paths)
		e, c := make([]float64, len(comb)), make([]float64, len(comb))
		for i, f := range comb {
			e[i] = bt.tr.fwd(bt.y[o+i]) - f
			c[i] = bt.zc[o+i] - f
		}
		raw[j], clean[j] = e, c
	}
	return raw, clean
}

// weights returns each origin's weight in the intervals: one half every
// halfLife days of age.
func (bt *backtest) weights() []float64 {
	w := make([]float64, len(bt.origins))
	for j, o := range bt.origins {
		w[j] = math.Exp2(-float64(len(bt.y)-o) / halfLife)
	}
	return w
}

// combine averages forecast paths of equal length.
func combine(paths [][]float64) []float64 {
	out := make([]float64, len(paths[0]))
	for _, p := range paths {
		for i, v := range p {
			out[i] += v / float64(len(paths))
		}
	}
	return out
}
