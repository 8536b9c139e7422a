package forecast

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// benchDir finds ../shared/bench/forecast beside the repository root (the
// folder holding go.mod), or skips the test.
func benchDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test directory")
		}
		dir = parent
	}
	b := filepath.Join(dir, "..", "shared", "bench", "forecast")
	if _, err := os.Stat(filepath.Join(b, "data", "series.csv")); err != nil {
		t.Skipf("forecast benchmark not found at %s; skipping the accuracy smoke test", b)
	}
	return b
}

// TestAccuracyBeatsSeasonalNaive holds out the last 30 days of a few real
// benchmark series (births, page views, bike rentals) and checks the
// forecast's MASE is below seasonal naive's on each.
func TestAccuracyBeatsSeasonalNaive(t *testing.T) {
	f, err := os.Open(filepath.Join(benchDir(t), "data", "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	series, _, err := readSeries(f)
	if err != nil {
		t.Fatal(err)
	}
	const h = 30
	for _, id := range []string{"births_us_2000_2014", "wiki_05", "bike_casual"} {
		t.Run(id, func(t *testing.T) {
			s := series[id]
			if len(s) < 200 {
				t.Fatalf("series %s has %d days", id, len(s))
			}
			y := make([]float64, len(s))
			for i, p := range s {
				y[i] = p.value
			}
			hist, test := y[:len(y)-h], y[len(y)-h:]
			res, err := Forecast(hist, s[0].day, Options{Horizon: h})
			if err != nil {
				t.Fatal(err)
			}
			var mine, naive float64
			for i, v := range test {
				mine += math.Abs(v - res.Mean[i])
				naive += math.Abs(v - hist[len(hist)-period+i%period])
			}
			if mine >= naive {
				t.Errorf("MAE %.1f not below seasonal naive's %.1f", mine/h, naive/h)
			}
			t.Logf("%s: relative MAE %.3f (%s)", id, mine/naive, res.Model)
		})
	}
}
