package recommend

import (
	"math"
	"slices"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// ScalingPolicy is an autoscaling policy: instance bounds, the target CPU
// utilization a target-tracking rule keeps, and scheduled minimums.
type ScalingPolicy struct {
	Min               int            `json:"min"`
	Max               int            `json:"max"`
	TargetUtilization float64        `json:"target_utilization"`
	Schedule          []ScheduleRule `json:"schedule,omitempty"`
}

// ScheduleRule raises the minimum to MinInstances from StartHour to
// EndHour (exclusive, UTC) on Days: "daily", "weekdays" or "weekend".
type ScheduleRule struct {
	Days         string `json:"days"`
	StartHour    int    `json:"start_hour"`
	EndHour      int    `json:"end_hour"`
	MinInstances int    `json:"min_instances"`
}

// Schedule day sets.
const (
	DaysDaily    = "daily"
	DaysWeekdays = "weekdays"
	DaysWeekend  = "weekend"
)

// demandPoint is one hour of a fleet: the instances that reported and their
// summed CPU (in instances' worth of work, so 3 machines at 50 % is 1.5).
type demandPoint struct {
	t         time.Time
	instances int
	demand    float64
}

// demandSeries sums the samples of a fleet by hour. Members are assumed to
// be the same size, as autoscaling groups are.
func demandSeries(metrics []model.UtilizationSample) []demandPoint {
	byHour := map[time.Time]*demandPoint{}
	for _, s := range metrics {
		t := s.Time.UTC().Truncate(hour)
		p := byHour[t]
		if p == nil {
			p = &demandPoint{t: t}
			byHour[t] = p
		}
		p.instances++
		p.demand += clamp01(s.CPU)
	}
	out := make([]demandPoint, 0, len(byHour))
	for _, p := range byHour {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b demandPoint) int { return a.t.Compare(b.t) })
	return out
}

// pattern measures how much of the demand's variance the hour of the day
// and the hour of the week explain (R², 0..1), and its swing.
type pattern struct {
	daily, weekly float64
	swing         float64 // (p95 - p5) / p95 of demand
	days          float64
	coverage      float64
}

func (p pattern) strength() float64 { return math.Max(p.daily, p.weekly) }

// strong reports a daily or weekly pattern worth scaling to.
func (p pattern) strong() bool {
	return p.days >= MinDays && p.coverage >= MinCoverage && p.strength() >= 0.5 && p.swing >= 0.3
}

// useWeekly reports whether weekdays and weekends need their own schedule.
func (p pattern) useWeekly() bool { return p.days >= MinDays && p.weekly-p.daily >= 0.1 }

func analyzePattern(series []demandPoint) pattern {
	var pt pattern
	if len(series) == 0 {
		return pt
	}
	span := series[len(series)-1].t.Sub(series[0].t).Hours() + 1
	pt.days = span / hoursPerDay
	pt.coverage = float64(len(series)) / span
	d := make([]float64, len(series))
	for i, p := range series {
		d[i] = p.demand
	}
	pt.daily = explained(series, d, func(t time.Time) int { return t.Hour() })
	pt.weekly = explained(series, d, func(t time.Time) int { return int(t.Weekday())*hoursPerDay + t.Hour() })
	if p95 := percentile(d, 0.95); p95 > 0 {
		pt.swing = (p95 - percentile(d, 0.05)) / p95
	}
	return pt
}

// explained is the R² of predicting each value by the mean of its slot.
func explained(series []demandPoint, d []float64, slot func(time.Time) int) float64 {
	sums := map[int]float64{}
	counts := map[int]float64{}
	for i, p := range series {
		sums[slot(p.t)] += d[i]
		counts[slot(p.t)]++
	}
	m := mean(d)
	var tot, res float64
	for i, p := range series {
		k := slot(p.t)
		tot += (d[i] - m) * (d[i] - m)
		e := d[i] - sums[k]/counts[k]
		res += e * e
	}
	if tot == 0 {
		return 0
	}
	return clamp01(1 - res/tot)
}

// required is how many instances keep demand at or under the target.
func required(demand, target float64) int {
	return max(1, int(math.Ceil(demand/target-1e-9)))
}

// dayClass maps a time to its schedule profile.
func dayClass(t time.Time, weekly bool) string {
	if !weekly {
		return DaysDaily
	}
	if wd := t.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return DaysWeekend
	}
	return DaysWeekdays
}

// OptimizeScalingPolicy tunes a policy to the fleet's hourly utilization
// (one sample per instance and hour): it keeps the policy's target (or
// DefaultTargetUtilization), sets Max to the most instances any hour needed
// and Min to the fewest, and adds scheduled minimums at the p95 of what each
// hour of the day (split into weekdays and weekends when the weekly pattern
// is stronger) needed. With no metrics the policy comes back unchanged
// apart from its target.
func OptimizeScalingPolicy(policy ScalingPolicy, metrics []model.UtilizationSample) ScalingPolicy {
	target := policy.TargetUtilization
	if target <= 0 || target > 1 {
		target = DefaultTargetUtilization
	}
	out := policy
	out.TargetUtilization = target
	series := demandSeries(metrics)
	if len(series) == 0 {
		return out
	}
	weekly := analyzePattern(series).useWeekly()
	type slotKey struct {
		class string
		hour  int
	}
	needs := map[slotKey][]float64{}
	maxNeed := 1
	for _, p := range series {
		n := required(p.demand, target)
		maxNeed = max(maxNeed, n)
		k := slotKey{dayClass(p.t, weekly), p.t.Hour()}
		needs[k] = append(needs[k], float64(n))
	}
	profile := map[slotKey]int{}
	minNeed := maxNeed
	for k, v := range needs {
		n := int(math.Ceil(percentile(v, 0.95) - 1e-9))
		profile[k] = n
		minNeed = min(minNeed, n)
	}
	out.Min = max(1, minNeed)
	out.Max = max(out.Min, maxNeed)
	out.Schedule = nil
	classes := []string{DaysDaily}
	if weekly {
		classes = []string{DaysWeekdays, DaysWeekend}
	}
	for _, c := range classes {
		start, level := -1, 0
		flush := func(end int) {
			if start >= 0 {
				out.Schedule = append(out.Schedule, ScheduleRule{Days: c, StartHour: start, EndHour: end, MinInstances: level})
			}
			start, level = -1, 0
		}
		for h := 0; h < hoursPerDay; h++ {
			n := profile[slotKey{c, h}]
			if n <= out.Min {
				flush(h)
				continue
			}
			if n != level {
				flush(h)
				start, level = h, n
			}
		}
		flush(hoursPerDay)
	}
	return out
}

// scheduledMin is the minimum the policy's schedule sets at t.
func (p ScalingPolicy) scheduledMin(t time.Time) int {
	n := p.Min
	weekly := false
	for _, r := range p.Schedule {
		if r.Days != DaysDaily {
			weekly = true
		}
	}
	class := dayClass(t, weekly)
	for _, r := range p.Schedule {
		if r.Days == class && t.Hour() >= r.StartHour && t.Hour() < r.EndHour {
			n = max(n, r.MinInstances)
		}
	}
	return n
}

// simulate returns the average instances running now and under the policy
// over the series: target tracking on top of the scheduled minimum, within
// Min and Max.
func (p ScalingPolicy) simulate(series []demandPoint) (now, with float64) {
	if len(series) == 0 {
		return 0, 0
	}
	for _, pt := range series {
		now += float64(pt.instances)
		n := max(required(pt.demand, p.TargetUtilization), p.scheduledMin(pt.t))
		with += float64(min(max(n, p.Min), p.Max))
	}
	k := float64(len(series))
	return now / k, with / k
}
