package monitor

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// weekly builds n days of a service with a weekday/weekend pattern,
// growth and noise, from a fixed seed.
func weekly(n int, base, weekend, growth, noise float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	start := day("2026-01-05") // a Monday
	out := make([]float64, n)
	for i := range out {
		v := base * (1 + growth*float64(i))
		if wd := start.AddDate(0, 0, i).Weekday(); wd == time.Saturday || wd == time.Sunday {
			v *= weekend
		}
		out[i] = v * (1 + noise*(2*r.Float64()-1))
	}
	return out
}

func series(services map[string][]float64) DailySeries {
	s := DailySeries{Provider: "aws", Start: day("2026-01-05"), Services: services}
	for _, v := range services {
		if s.Total == nil {
			s.Total = make([]float64, len(v))
		}
		for i, x := range v {
			s.Total[i] += x
		}
	}
	return s
}

func TestDetectAnomalies(t *testing.T) {
	const n = 70 // 8 weeks of baseline plus two weeks to check
	tests := []struct {
		name    string
		edit    func(m map[string][]float64)
		days    []int    // anomalous day indexes expected
		drivers []string // first drivers of the first anomaly
	}{
		{"regular week with weekend dip: no anomaly", func(map[string][]float64) {}, nil, nil},
		{"spike on one service is found and named", func(m map[string][]float64) {
			m["AmazonS3"][n-2] += 900
		}, []int{n - 2}, []string{"AmazonS3"}},
		{"two services drive it, the larger first", func(m map[string][]float64) {
			m["AmazonRDS"][n-1] += 400
			m["AmazonEC2"][n-1] += 700
		}, []int{n - 1}, []string{"AmazonEC2", "AmazonRDS"}},
		{"an old spike in the baseline does not mask or cause anything", func(m map[string][]float64) {
			m["AmazonEC2"][n-15] += 5000 // two weeks back: out of the checked days, inside the baseline
		}, nil, nil},
		{"a drop is not an anomaly", func(m map[string][]float64) {
			m["AmazonEC2"][n-1] = 0
		}, nil, nil},
		{"a small rise within the noise is not an anomaly", func(m map[string][]float64) {
			m["AmazonEC2"][n-3] *= 1.08
		}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := map[string][]float64{
				"AmazonEC2": weekly(n, 1000, 0.6, 0.002, 0.04, 1),
				"AmazonS3":  weekly(n, 200, 1, 0.001, 0.03, 2),
				"AmazonRDS": weekly(n, 300, 0.9, 0, 0.03, 3),
			}
			tt.edit(m)
			got := DetectAnomalies(series(m), AnomalyOptions{})
			if len(got) != len(tt.days) {
				t.Fatalf("%d anomalies %+v, want days %v", len(got), got, tt.days)
			}
			for i, a := range got {
				want := day("2026-01-05").AddDate(0, 0, tt.days[i]).Format("2006-01-02")
				if a.Day != want || a.Actual <= a.Upper || a.Expected <= 0 || a.Score <= 4 {
					t.Fatalf("anomaly %+v, want day %s", a, want)
				}
			}
			if len(got) > 0 {
				d := got[0].Drivers
				if len(d) < len(tt.drivers) {
					t.Fatalf("drivers %+v, want %v", d, tt.drivers)
				}
				share := 0.0
				for i, name := range tt.drivers {
					if d[i].Service != name {
						t.Fatalf("driver %d is %s, want %s (%+v)", i, d[i].Service, name, d)
					}
					share += d[i].Share
				}
				if share < 0.8 || share > 1.2 {
					t.Fatalf("drivers explain %.2f of the excess", share)
				}
				al := got[0].Alert("USD")
				if al.ID != "anomaly:aws:"+got[0].Day || al.Kind != KindAnomaly {
					t.Fatalf("alert %+v", al)
				}
			}
		})
	}
}

func TestDetectAnomaliesNeedsHistory(t *testing.T) {
	// Three weeks: fewer same-weekday days than MinWeeks, so no verdict
	// even for an obvious jump.
	v := weekly(21, 100, 1, 0, 0, 1)
	v[20] = 1000
	if got := DetectAnomalies(series(map[string][]float64{"x": v}), AnomalyOptions{}); len(got) != 0 {
		t.Fatalf("verdict without history: %+v", got)
	}
	// A constant series: the spread floor keeps tiny changes quiet but a
	// real jump is found, never with a NaN or infinite score.
	c := make([]float64, 60)
	for i := range c {
		c[i] = 50
	}
	c[58] = 50.5
	c[59] = 80
	got := DetectAnomalies(series(map[string][]float64{"x": c}), AnomalyOptions{})
	if len(got) != 1 || got[0].Day != day("2026-01-05").AddDate(0, 0, 59).Format("2006-01-02") ||
		math.IsNaN(got[0].Score) || math.IsInf(got[0].Score, 0) {
		t.Fatalf("constant series: %+v", got)
	}
}

// TestLookaheadTellsSpikesFromLevelShifts: a step up stands above the weeks
// before it but not the weeks after; a one-day spike stands above both.
func TestLookaheadTellsSpikesFromLevelShifts(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	step := make([]float64, 120)
	spike := make([]float64, 120)
	for i := range step {
		step[i], spike[i] = 100, 100
		if i >= 70 {
			step[i] = 150
		}
	}
	spike[70] = 400
	all := AnomalyOptions{CheckDays: 120}
	ahead := AnomalyOptions{CheckDays: 120, Lookahead: true}
	if n := len(DetectAnomalies(DailySeries{Start: start, Total: step}, all)); n == 0 {
		t.Fatal("without lookahead the step should be flagged (the baseline lags)")
	}
	if got := DetectAnomalies(DailySeries{Start: start, Total: step}, ahead); len(got) != 0 {
		t.Fatalf("with lookahead a level shift is no spike: %+v", got)
	}
	got := DetectAnomalies(DailySeries{Start: start, Total: spike}, ahead)
	if len(got) != 1 || got[0].Day != start.AddDate(0, 0, 70).Format("2006-01-02") {
		t.Fatalf("the spike: %+v", got)
	}
}
