package monitor

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// AnomalyOptions tune spike detection. The baseline of a day is the median
// of the same weekday over the previous Weeks weeks, and its spread the
// scaled median absolute deviation (MAD) of those days: both ignore a past
// spike, and comparing like weekdays keeps weekend dips from looking odd.
type AnomalyOptions struct {
	Weeks       int     // same-weekday days in the baseline; default 8
	MinWeeks    int     // fewer baseline days than this: no verdict; default 4
	K           float64 // a day is a spike above median + K·spread; default 4
	MinRelative float64 // and above median·(1+MinRelative); default 0.2
	MinAbsolute float64 // and by at least this amount; default 1 (currency unit)
	// SpreadFloor is the least spread, as a fraction of the median, so a
	// perfectly regular series does not flag every small change; default 0.03.
	SpreadFloor float64
	CheckDays   int // how many of the newest days to check; default 7
	// Lookahead also compares a day with the same weekday of the weeks
	// after it, where there are at least two: a spike stands above both
	// sides, while a level shift (a launch, a migration, growth) only
	// stands above the past. For reviewing the history; the newest days
	// have no weeks after them and are judged on the past alone.
	Lookahead   bool
	DriverShare float64 // drivers listed until they explain this share; default 0.8
	MaxDrivers  int     // default 5
}

func (o AnomalyOptions) withDefaults() AnomalyOptions {
	if o.Weeks <= 0 {
		o.Weeks = 8
	}
	if o.MinWeeks <= 0 {
		o.MinWeeks = 4
	}
	if o.K <= 0 {
		o.K = 4
	}
	if o.MinRelative <= 0 {
		o.MinRelative = 0.2
	}
	if o.MinAbsolute <= 0 {
		o.MinAbsolute = 1
	}
	if o.SpreadFloor <= 0 {
		o.SpreadFloor = 0.03
	}
	if o.CheckDays <= 0 {
		o.CheckDays = 7
	}
	if o.DriverShare <= 0 {
		o.DriverShare = 0.8
	}
	if o.MaxDrivers <= 0 {
		o.MaxDrivers = 5
	}
	return o
}

// HistoryDays is how many days of history Detect needs to check every
// one of the CheckDays newest days against a full baseline.
func (o AnomalyOptions) HistoryDays() int {
	o = o.withDefaults()
	return 7*o.Weeks + o.CheckDays
}

// Driver is a service whose cost on an anomalous day rose above its own
// baseline.
type Driver struct {
	Service  string  `json:"service"`
	Actual   float64 `json:"actual"`
	Expected float64 `json:"expected"`
	Excess   float64 `json:"excess"`
	Share    float64 `json:"share"` // of the day's excess over its baseline
}

// Anomaly is a day whose cost is far above its baseline.
type Anomaly struct {
	Provider model.ProviderKey `json:"provider"`
	Day      string            `json:"day"`
	Actual   float64           `json:"actual"`
	Expected float64           `json:"expected"` // baseline median
	Upper    float64           `json:"upper"`    // the most the baseline allows
	Score    float64           `json:"score"`    // (actual - expected) / spread
	Drivers  []Driver          `json:"drivers"`
}

// DailySeries is a provider's daily cost, in total and per service, from
// Start (UTC day), one value per day.
type DailySeries struct {
	Provider model.ProviderKey
	Start    time.Time
	Total    []float64
	Services map[string][]float64
}

// DetectAnomalies checks the newest CheckDays days of s for spikes and
// names the services that drove each one. Cost drops are not reported:
// on the newest days they are mostly data the cloud has not billed yet.
// A NaN day (a cost per unit on a day without units) is neither checked
// nor part of a baseline.
func DetectAnomalies(s DailySeries, opt AnomalyOptions) []Anomaly {
	o := opt.withDefaults()
	var out []Anomaly
	n := len(s.Total)
	for i := max(0, n-o.CheckDays); i < n; i++ {
		med, spread, ok := baseline(s.Total, i, o)
		if !ok {
			continue
		}
		x := s.Total[i]
		if math.IsNaN(x) {
			continue
		}
		upper := math.Max(med+o.K*spread, med*(1+o.MinRelative))
		upper = math.Max(upper, med+o.MinAbsolute)
		if x <= upper {
			continue
		}
		if o.Lookahead {
			if after, ok := sameWeekdayAfter(s.Total, i, o.Weeks); ok &&
				x <= math.Max(after+o.K*spread, after*(1+o.MinRelative)) {
				continue // the weeks after are as high: a level shift
			}
		}
		a := Anomaly{Provider: s.Provider, Day: s.Start.AddDate(0, 0, i).Format(model.DateLayout),
			Actual: x, Expected: med, Upper: upper, Score: (x - med) / spread}
		a.Drivers = drivers(s.Services, i, x-med, o)
		out = append(out, a)
	}
	return out
}

// baseline returns the median and spread of the same weekday over the
// previous weeks of day i.
func baseline(v []float64, i int, o AnomalyOptions) (med, spread float64, ok bool) {
	var same []float64
	for w := 1; w <= o.Weeks && i-7*w >= 0; w++ {
		if !math.IsNaN(v[i-7*w]) {
			same = append(same, v[i-7*w])
		}
	}
	if len(same) < o.MinWeeks {
		return 0, 0, false
	}
	med = median(same)
	dev := make([]float64, len(same))
	for j, x := range same {
		dev[j] = math.Abs(x - med)
	}
	// 1.4826·MAD estimates the standard deviation of normal noise.
	spread = math.Max(1.4826*median(dev), o.SpreadFloor*math.Abs(med))
	if spread == 0 {
		spread = o.MinAbsolute
	}
	return med, spread, true
}

// sameWeekdayAfter is the median of the same weekday over up to weeks
// weeks after day i; false with fewer than two.
func sameWeekdayAfter(v []float64, i, weeks int) (float64, bool) {
	var same []float64
	for w := 1; w <= weeks && i+7*w < len(v); w++ {
		if !math.IsNaN(v[i+7*w]) {
			same = append(same, v[i+7*w])
		}
	}
	if len(same) < 2 {
		return 0, false
	}
	return median(same), true
}

// drivers lists the services with the largest excess over their own
// baselines until they explain DriverShare of the day's excess.
func drivers(services map[string][]float64, i int, excess float64, o AnomalyOptions) []Driver {
	var all []Driver
	for name, v := range services {
		if i >= len(v) {
			continue
		}
		med, _, ok := baseline(v, i, o)
		if !ok {
			med = 0 // a service new within the baseline window: all of it is excess
		}
		if d := v[i] - med; d > 0 {
			all = append(all, Driver{Service: name, Actual: v[i], Expected: med, Excess: d})
		}
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].Excess != all[b].Excess {
			return all[a].Excess > all[b].Excess
		}
		return all[a].Service < all[b].Service
	})
	var out []Driver
	covered := 0.0
	for _, d := range all {
		if len(out) == o.MaxDrivers || (excess > 0 && covered >= o.DriverShare*excess) {
			break
		}
		if excess > 0 {
			d.Share = d.Excess / excess
		}
		covered += d.Excess
		out = append(out, d)
	}
	return out
}

// Alert turns the anomaly into an alert whose id is the provider and day.
func (a Anomaly) Alert(currency string) model.Alert {
	var names []string
	drivers := make([]map[string]any, 0, len(a.Drivers))
	for _, d := range a.Drivers {
		names = append(names, fmt.Sprintf("%s +%.2f", d.Service, d.Excess))
		drivers = append(drivers, map[string]any{"service": d.Service, "actual": round2(d.Actual),
			"expected": round2(d.Expected), "excess": round2(d.Excess), "share": math.Round(d.Share*1000) / 1000})
	}
	msg := fmt.Sprintf("Cost anomaly on %s for %s: %s against a usual %s (+%.0f%%)", a.Day, a.Provider,
		amount(a.Actual, currency), amount(a.Expected, currency), 100*(a.Actual-a.Expected)/math.Max(a.Expected, 1e-9))
	if len(names) > 0 {
		msg += "; driven by " + strings.Join(names, ", ")
	}
	sev := SeverityWarning
	if a.Expected > 0 && a.Actual >= 2*a.Expected {
		sev = SeverityCritical
	}
	return model.Alert{
		ID: fmt.Sprintf("anomaly:%s:%s", a.Provider, a.Day), Kind: KindAnomaly, Severity: sev, Provider: a.Provider,
		Message: msg, Time: a.Day + "T00:00:00Z",
		Details: map[string]any{"day": a.Day, "actual": round2(a.Actual), "expected": round2(a.Expected),
			"upper": round2(a.Upper), "score": math.Round(a.Score*100) / 100, "currency": currency, "drivers": drivers},
	}
}

// Usual is the baseline median of day i of v: the same weekday over the
// weeks before it; false with too few of them.
func (o AnomalyOptions) Usual(v []float64, i int) (float64, bool) {
	med, _, ok := baseline(v, i, o.withDefaults())
	return med, ok
}

// Median is the median of v (0 for none).
func Median(v []float64) float64 { return median(v) }

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
