package forecast

import (
	"math"
	"testing"
	"time"
)

// TestDateEffects: a dip on 25 December in the two years before is
// foreseen on the next 25 December, at its size, and nowhere else; an
// origin that has not yet seen the days around a past dip foresees
// nothing from it.
func TestDateEffects(t *testing.T) {
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	const n = 3 * 365
	z := make([]float64, n)
	for i := range z {
		z[i] = 5 + 0.2*float64(i%period) // a weekly pattern, no anomaly
	}
	dip := map[int]float64{2020: 0.9, 2021: 0.5}
	for y, v := range dip {
		z[int(time.Date(y, 12, 25, 0, 0, 0, 0, time.UTC).Sub(start).Hours()/24)] -= v
	}
	d := newDateEffects(z, start)
	xmas := int(time.Date(2022, 12, 25, 0, 0, 0, 0, time.UTC).Sub(start).Hours() / 24)
	o := xmas - 10
	s := d.shift(o, 20)
	for i, v := range s {
		want := 0.0
		if o+i == xmas {
			want = -0.7 // the mean of the two years' dips
		}
		if math.Abs(v-want) > 1e-9 {
			t.Errorf("day %d after the origin: shift %.3f, want %.3f", i, v, want)
		}
	}
	// Three days after the 2021 dip, the weeks after it are not known yet,
	// so its anomaly is not either: 25 Dec 2022 gets 2020's dip alone.
	last := int(time.Date(2021, 12, 25, 0, 0, 0, 0, time.UTC).Sub(start).Hours() / 24)
	if v := d.shift(last+3, 400)[xmas-last-3]; math.Abs(v-(-0.9)) > 1e-9 {
		t.Errorf("from 3 days after the 2021 dip: shift %.3f on 25 Dec 2022, want -0.900 (2020's dip alone)", v)
	}
}

// TestDateEffectsNeedAgreement: a date that fell one year and rose the
// next is noise, not a holiday, and foretells nothing.
func TestDateEffectsNeedAgreement(t *testing.T) {
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	z := make([]float64, 3*365)
	for i := range z {
		z[i] = 5 + 0.2*float64(i%period)
	}
	day := func(y int) int { return int(time.Date(y, 7, 14, 0, 0, 0, 0, time.UTC).Sub(start).Hours() / 24) }
	z[day(2020)] -= 0.4
	z[day(2021)] += 0.3
	d := newDateEffects(z, start)
	if v := d.shift(day(2022)-5, 10)[5]; v != 0 {
		t.Errorf("14 July 2022: shift %.3f, want 0 (the past years disagree)", v)
	}
	z[day(2021)] -= 0.6 // now a dip in both years
	d = newDateEffects(z, start)
	if v := d.shift(day(2022)-5, 10)[5]; math.Abs(v-(-0.35)) > 1e-9 {
		t.Errorf("14 July 2022: shift %.3f, want -0.350", v)
	}
}
