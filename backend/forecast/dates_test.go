package forecast

import (
	"math"
	"math/rand/v2"
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

// noisyWeeks is three years of a weekly pattern with small deterministic
// noise from start, so anomalies have a spread to be measured against.
func noisyWeeks(start time.Time, days int) []float64 {
	r := rand.New(rand.NewPCG(7, 1))
	z := make([]float64, days)
	for i := range z {
		z[i] = 5 + 0.2*float64(i%period) + 0.02*r.NormFloat64()
	}
	return z
}

// TestFloatingHolidays: dips on the fourth Thursday of November in the
// two years before (Thanksgiving: 28 Nov 2019, 26 Nov 2020) and smaller
// ones the day after are foreseen on the fourth Thursday of November 2021
// (the 25th), which no date of the past years' dips matches, and the day
// after it, although that Friday was the fifth of its month in 2019;
// noise alone foresees no weekday-ranked day.
func TestFloatingHolidays(t *testing.T) {
	start := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	idx := func(y int, m time.Month, d int) int {
		return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Sub(start).Hours() / 24)
	}
	z := noisyWeeks(start, 3*365)
	d := newDateEffects(z, start)
	o := idx(2021, 1, 10)
	for i, v := range d.shift(o, 340) {
		if _, ok := d.floating(start.AddDate(0, 0, o+i), o); ok {
			t.Errorf("no holidays: day %s is taken for one (shift %.3f)", start.AddDate(0, 0, o+i).Format("2006-01-02"), v)
		}
	}
	for _, day := range [][3]int{{2019, 11, 28}, {2020, 11, 26}} {
		z[idx(day[0], 11, day[2])] -= 0.6
		z[idx(day[0], 11, day[2]+1)] -= 0.2
	}
	d = newDateEffects(z, start)
	o = idx(2021, 11, 1)
	s := d.shift(o, 30)
	tests := []struct {
		name string
		day  int
		want float64
	}{
		{"Thanksgiving", 25, -0.6},
		{"the day after", 26, -0.2},
		{"the third Thursday", 18, 0},
		{"the third Friday", 19, 0},
	}
	for _, tt := range tests {
		if v := s[idx(2021, 11, tt.day)-o]; math.Abs(v-tt.want) > 0.05 {
			t.Errorf("%s (%d Nov 2021): shift %.3f, want about %.1f", tt.name, tt.day, v, tt.want)
		}
	}
}

// TestFloatingHolidaysLeaveDates: a season of dips on fixed dates (20-31
// December, deeper towards the end, every year) is foreseen date by date:
// the weekday-ranked days of the years before stood out on the same
// dates the year before them, so they do not count as moving holidays.
func TestFloatingHolidaysLeaveDates(t *testing.T) {
	start := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	z := noisyWeeks(start, 4*365)
	for y := 2019; y <= 2021; y++ {
		for dd := 20; dd <= 31; dd++ {
			z[int(time.Date(y, 12, dd, 0, 0, 0, 0, time.UTC).Sub(start).Hours()/24)] -= 0.05 * float64(dd-19)
		}
	}
	d := newDateEffects(z, start)
	o := int(time.Date(2022, 12, 10, 0, 0, 0, 0, time.UTC).Sub(start).Hours() / 24)
	for i, v := range d.shift(o, 22) {
		day := start.AddDate(0, 0, o+i)
		if _, ok := d.floating(day, o); ok {
			t.Errorf("%s: taken for a moving holiday", day.Format("2006-01-02"))
		}
		if dd := day.Day(); dd >= 20 && math.Abs(v-(-0.05*float64(dd-19))) > 0.06 {
			t.Errorf("%s: shift %.3f, want about %.3f", day.Format("2006-01-02"), v, -0.05*float64(dd-19))
		}
	}
}

// TestAnomaliesBesideHolidays: with dips on 25 December and 1 January,
// 18 December has two of its four reference days on holidays; measured
// without them it is an ordinary day, not a rise of its own.
func TestAnomaliesBesideHolidays(t *testing.T) {
	start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	z := noisyWeeks(start, 2*365)
	idx := func(y int, m time.Month, d int) int {
		return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Sub(start).Hours() / 24)
	}
	z[idx(2020, 12, 25)] -= 0.5
	z[idx(2021, 1, 1)] -= 0.5
	d := newDateEffects(z, start)
	if a := d.anom[idx(2020, 12, 18)]; math.Abs(a) > 0.06 {
		t.Errorf("18 Dec: anomaly %.3f, want about 0", a)
	}
	if a := d.anom[idx(2020, 12, 25)]; math.Abs(a-(-0.5)) > 0.06 {
		t.Errorf("25 Dec: anomaly %.3f, want about -0.5", a)
	}
}

// TestShrinkDateMeans: a mean of two anomalies far beyond their spread
// keeps nearly all of its size, one within the spread of noise none.
func TestShrinkDateMeans(t *testing.T) {
	d := &dateEffects{sigma: 0.1}
	tests := []struct {
		name    string
		m, want float64
	}{
		{"holiday", -0.5, -0.5 * (1 - 0.005/0.25)},
		{"one spread", 0.1, 0.1 * 0.5},
		{"noise", 0.05, 0},
		{"none", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := d.shrink(tt.m, 2); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("shrink(%g) = %g, want %g", tt.m, got, tt.want)
			}
		})
	}
}

// TestFloatingHolidaysAnyClock: a history whose days start at 23:00 in a
// zone far from UTC finds the same moving holiday as one at midnight UTC.
func TestFloatingHolidaysAnyClock(t *testing.T) {
	zone := time.FixedZone("UTC-11", -11*3600)
	for _, start := range []time.Time{
		time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2019, 1, 1, 23, 0, 0, 0, zone),
	} {
		z := noisyWeeks(start, 3*365)
		for _, d := range []int{31 + 28 + 31 + 30 + 31 + 30 + 31 + 31 + 30 + 31 + 27, 365 + 31 + 29 + 31 + 30 + 31 + 30 + 31 + 31 + 30 + 31 + 25} {
			z[d] -= 0.6 // 28 Nov 2019 and 26 Nov 2020, the fourth Thursdays
		}
		d := newDateEffects(z, start)
		thanks := 2*365 + 1 + 31 + 28 + 31 + 30 + 31 + 30 + 31 + 31 + 30 + 31 + 24 // 25 Nov 2021
		if v := d.shift(thanks-10, 20)[10]; math.Abs(v-(-0.6)) > 0.05 {
			t.Errorf("start %s: 25 Nov 2021 shift %.3f, want about -0.6", start, v)
		}
	}
}
