package forecast

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestAccuracyBeatsSeasonalNaive holds out the last 30 days of a few real
// series (births, page views, bike rentals) and checks the
// forecast's MASE is below seasonal naive's on each.
func TestAccuracyBeatsSeasonalNaive(t *testing.T) {
	// Three real series of the forecast benchmark, kept in testdata with
	// their sources and licences (testdata/SOURCES.md).
	f, err := os.Open(filepath.Join("testdata", "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	series, _, err := readSeries(f)
	if err != nil {
		t.Fatal(err)
	}
	const h = 30
	for _, id := range []string{"births_us_2000_2014", "wiki_peyton_manning", "bike_casual"} {
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
