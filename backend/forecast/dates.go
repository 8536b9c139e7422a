package forecast

import (
	"math"
	"time"
)

// anomalyReach is how far (days) the local reference of a day's anomaly
// reaches: the same weekday one and two weeks before and after.
const anomalyReach = 2 * period

// dateYears is how many past years a calendar date's anomaly is averaged
// over.
const dateYears = 2

// dateEffects holds the anomalies of single days: how far (on the model
// scale) each day sits from the same weekday of the weeks around it.
// Public holidays (Christmas, New Year, national days) recur on the same
// calendar date every year and move a day far more than its weekday and
// season do; the same date's anomalies in past years foretell them.
type dateEffects struct {
	start time.Time
	anom  []float64 // anomaly by day index; valid from anomalyReach to len-anomalyReach-1
	sigma float64   // robust standard deviation of the anomalies
}

func newDateEffects(z []float64, start time.Time) *dateEffects {
	d := &dateEffects{start: start, anom: make([]float64, len(z))}
	d.measure(z, nil)
	// Holidays cluster (Christmas and New Year are a week apart), so a
	// day's reference weeks may hold one: measured again without the
	// outliers among them, the days around a holiday are not taken for
	// anomalies of their own.
	out := make([]bool, len(z))
	for t, a := range d.anom {
		out[t] = math.Abs(a) >= floatLimit*d.sigma && d.sigma > 0
	}
	d.measure(z, out)
	return d
}

// measure sets each day's anomaly against the median of its reference
// days, leaving out those marked in skip (unless all are), and the
// anomalies' robust standard deviation.
func (d *dateEffects) measure(z []float64, skip []bool) {
	buf := make([]float64, 0, 4)
	anom := make([]float64, len(z))
	for t := anomalyReach; t+anomalyReach < len(z); t++ {
		buf = buf[:0]
		for _, r := range [...]int{t - 2*period, t - period, t + period, t + 2*period} {
			if skip == nil || !skip[r] {
				buf = append(buf, z[r])
			}
		}
		if len(buf) == 0 {
			buf = append(buf, z[t-2*period], z[t-period], z[t+period], z[t+2*period])
		}
		anom[t] = z[t] - median(buf)
	}
	abs := make([]float64, 0, len(z))
	for t := anomalyReach; t+anomalyReach < len(z); t++ {
		abs = append(abs, math.Abs(anom[t]))
	}
	d.anom, d.sigma = anom, 1.4826*median(abs)
}

// shift returns, for the h days after origin o, the mean anomaly of the
// same calendar date in the dateYears years before, using only days whose
// anomaly the history up to o already shows; 0 where there is none, and 0
// where those years' anomalies point different ways: a holiday moves its
// day the same way every year, while noise (most dates) does not, and
// adding it would only move the forecast off the level.
func (d *dateEffects) shift(o, h int) []float64 {
	out := make([]float64, h)
	for i := range out {
		day := d.start.AddDate(0, 0, o+i)
		if v, ok := d.floating(day, o); ok {
			out[i] = d.shrink(v, dateYears)
			continue
		}
		sum, cnt, pos := 0.0, 0, 0
		for k := 1; k <= dateYears; k++ {
			j := int(day.AddDate(-k, 0, 0).Sub(d.start).Hours()/24 + 0.5)
			if j < anomalyReach || j+anomalyReach >= o {
				continue
			}
			sum += d.anom[j]
			cnt++
			if d.anom[j] > 0 {
				pos++
			}
		}
		if cnt > 0 && (pos == 0 || pos == cnt) {
			out[i] = d.shrink(sum/float64(cnt), cnt)
		}
	}
	return out
}

// floatLimit is how many robust standard deviations a weekday-ranked
// day's anomaly must reach, in every past year, to count as a holiday.
const floatLimit = 3.0

// floating returns the mean anomaly of the same weekday of the same rank
// in the month (the fourth Thursday of November) in the dateYears years
// before day, when each of those days stood out by floatLimit robust
// deviations the same way: holidays such as Thanksgiving or Memorial Day
// move with the weekday, not the date. Most weekday-ranked days are
// ordinary, so only clear outliers count. The days next to such a holiday
// (the Friday after Thanksgiving, which is not always the fourth Friday)
// are found from the holiday: the day after the fourth Thursday.
func (d *dateEffects) floating(day time.Time, o int) (float64, bool) {
	if d.sigma == 0 {
		return 0, false
	}
	for _, lag := range floatLags {
		if lag != 0 {
			// Only next to a moving holiday of this year.
			if _, ok := d.ranked(day.AddDate(0, 0, -lag), 0, o); !ok {
				continue
			}
		}
		if v, ok := d.ranked(day, lag, o); ok {
			return v, true
		}
	}
	return 0, false
}

var floatLags = [...]int{0, 1}

// ranked is floating for the day lag days after the weekday-ranked day
// anchor = day - lag.
func (d *dateEffects) ranked(day time.Time, lag, o int) (float64, bool) {
	anchor := day.AddDate(0, 0, -lag)
	rank := (anchor.Day() - 1) / period
	sum, pos := 0.0, 0
	for k := 1; k <= dateYears; k++ {
		first := time.Date(anchor.Year()-k, anchor.Month(), 1, anchor.Hour(), anchor.Minute(), anchor.Second(), anchor.Nanosecond(), anchor.Location())
		off := (int(anchor.Weekday()) - int(first.Weekday()) + period) % period
		pa := first.AddDate(0, 0, off+rank*period)
		if pa.Month() != anchor.Month() {
			return 0, false
		}
		past := pa.AddDate(0, 0, lag)
		j := int(past.Sub(d.start).Hours()/24 + 0.5)
		if j < anomalyReach || j+anomalyReach >= o {
			return 0, false
		}
		a := d.anom[j]
		if math.Abs(a) < floatLimit*d.sigma {
			return 0, false
		}
		// A day whose date stood out the year before as well is a
		// fixed-date holiday (Christmas week), not a weekday-ranked one.
		jj := int(past.AddDate(-1, 0, 0).Sub(d.start).Hours()/24 + 0.5)
		if jj >= anomalyReach && math.Abs(d.anom[jj]) >= floatLimit*d.sigma && (d.anom[jj] > 0) == (a > 0) {
			return 0, false
		}
		sum += a
		if a > 0 {
			pos++
		}
	}
	if pos != 0 && pos != dateYears {
		return 0, false
	}
	return sum / dateYears, true
}

// shrink pulls a mean of cnt anomalies towards zero by the share that
// noise alone would give it (positive-part James-Stein): a holiday far
// beyond the anomalies' spread keeps nearly all of it, a mean within the
// spread of noise little or nothing.
func (d *dateEffects) shrink(m float64, cnt int) float64 {
	if m == 0 {
		return 0
	}
	v := d.sigma * d.sigma / float64(cnt)
	return m * math.Max(0, 1-v/(m*m))
}
