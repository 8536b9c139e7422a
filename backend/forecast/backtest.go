package forecast

import (
	"math"
	"sort"
	"time"
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
	// with its age: the errors of the last month or two are more like the next
	// ones than those of a year ago, when the account may have been in another
	// phase (being built, or before a large launch).
	halfLife = 30.0
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
	dates   *dateEffects
}

// runBacktest forecasts h days from each origin with each candidate.
func runBacktest(y []float64, start time.Time, tr transform, h int) *backtest {
	z := tr.fwdAll(y)
	bt := &backtest{y: y, zc: clean(z), tr: tr, origins: backtestOrigins(len(y), h), dates: newDateEffects(z, start)}
	comps := make([]*components, len(bt.origins))
	for j, o := range bt.origins {
		comps[j] = decompose(z[:o], min(h, len(y)-o))
	}
	for ci, c := range candidates {
		if c.needYear && !recentHaveYear(comps) {
			continue
		}
		if c.maxH > 0 && h > c.maxH {
			continue
		}
		if c.needTrend && !steadyTrend(bt.zc) {
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

// minYearOrigins is how many of the newest backtest origins must have a
// yearly cycle for the models that use one to run. At older origins they
// run without it (as their twins without the year do), so the backtest
// compares them by the origins where the cycle is known.
const minYearOrigins = 6

func recentHaveYear(cs []*components) bool {
	if len(cs) < minYearOrigins {
		return false
	}
	for _, c := range cs[:minYearOrigins] {
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
	return bt.mae(func(j, _ int) []float64 { return bt.zf[k][j] })
}

// mae is the score of the paths path(j, o) gives from each origin.
func (bt *backtest) mae(path func(j, o int) []float64) float64 {
	var sum []float64
	var cnt []int
	for j, o := range bt.origins {
		for i, f := range path(j, o) {
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
	if len(idx) > 1 && candidates[bt.cands[idx[0]]].needTrend && sc[idx[0]] < driftAlone*sc[idx[1]] {
		// A steady line that clearly beats every level model is not
		// averaged with them: each would bend its trend flat.
		return idx[:1]
	}
	return idx[:min(combineTop, len(idx))]
}

// combinedErrors returns, per origin, the errors of the combination of the
// chosen candidates on the model scale by day: raw is actual minus
// forecast, clean the same with the actual's spikes clipped.
func (bt *backtest) combinedErrors(chosen []int, dateWeight float64) (raw, clean [][]float64) {
	raw = make([][]float64, len(bt.origins))
	clean = make([][]float64, len(bt.origins))
	for j, o := range bt.origins {
		comb := bt.withDates(bt.combined(chosen, j), o, dateWeight)
		e, c := make([]float64, len(comb)), make([]float64, len(comb))
		for i, f := range comb {
			e[i] = bt.tr.fwd(bt.y[o+i]) - f
			c[i] = bt.zc[o+i] - f
		}
		raw[j], clean[j] = e, c
	}
	return raw, clean
}

// withDates adds w times the calendar dates' past anomalies to a path
// from origin o.
func (bt *backtest) withDates(path []float64, o int, w float64) []float64 {
	if w == 0 {
		return path
	}
	for i, v := range bt.dates.shift(o, len(path)) {
		path[i] += w * v
	}
	return path
}

// dateWeights are the shares of the past years' date anomalies the
// backtest chooses among: none, half or all.
var dateWeights = []float64{0, 0.5, 1}

// chooseDateWeight returns the share of the date anomalies that made the
// combination of the chosen candidates most accurate in the backtest.
func (bt *backtest) chooseDateWeight(chosen []int) float64 {
	best, bw := math.Inf(1), 0.0
	for _, w := range dateWeights {
		s := bt.mae(func(j, o int) []float64 { return bt.withDates(bt.combined(chosen, j), o, w) })
		if s < best {
			best, bw = s, w
		}
	}
	return bw
}

// combined is the combination of the chosen candidates' paths from origin
// j, blended at the short leads with the mean of all candidates.
func (bt *backtest) combined(chosen []int, j int) []float64 {
	paths := make([][]float64, len(chosen))
	for i, k := range chosen {
		paths[i] = bt.zf[k][j]
	}
	all := make([][]float64, len(bt.cands))
	for k := range bt.cands {
		all[k] = bt.zf[k][j]
	}
	return blendShort(combine(paths), combine(all))
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

// shortShare is the share of the mean of all candidates in the forecast of
// lead 1; it falls linearly to none at lead shortLeads. Which three models
// backtest best is partly luck, and at short leads more so: the first
// weeks are where candidates that follow the level and those that average
// it differ most, and the backtest's ranking of them often does not hold
// for the next month (page views, random walks). Averaging over all
// candidates there hedges that choice; at longer leads the chosen models'
// trend and yearly cycle are worth more than the hedge.
const (
	shortShare = 0.4
	shortLeads = 60
)

// blendShort blends the chosen models' combination with the mean of all
// candidates by lead, in place, and returns it.
func blendShort(chosen, all []float64) []float64 {
	for i := range chosen {
		w := shortShare * max(0, 1-float64(i)/shortLeads)
		chosen[i] = (1-w)*chosen[i] + w*all[i]
	}
	return chosen
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
