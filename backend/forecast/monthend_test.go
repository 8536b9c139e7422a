package forecast

import (
	"math"
	"testing"
	"time"
)

func TestForecastMonthEnd(t *testing.T) {
	constant := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = 100
		}
		return v
	}
	tests := []struct {
		name          string
		values        []float64
		start         time.Time
		wantMonth     string
		wantRemaining int
		wantToDate    float64 // exact for the constant series
		wantTotal     float64 // exact for the constant series; 0: not checked
	}{
		// 61 days from 2 January: the last history day is 2 March, so March
		// has 2 actual days and 29 to forecast.
		{"mid-month", constant(61), day(2024, 1, 2), "2024-03", 29, 200, 3100},
		// The history ends on 31 January: all of February (29 days in 2024) is forecast.
		{"history ends on a month's last day", constant(31), day(2024, 1, 1), "2024-02", 29, 0, 2900},
		// The history ends on the 30th of a 31-day month: one day left.
		{"one day left", constant(61), day(2023, 12, 1), "2024-01", 1, 3000, 3100},
		{"noisy series", synth(200, 0.1, 0.1, 31), day(2024, 1, 1), "2024-07", 13, -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ForecastMonthEnd(tt.values, tt.start, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Month.Format("2006-01"); got != tt.wantMonth || m.RemainingDays != tt.wantRemaining {
				t.Fatalf("month %s with %d days left, want %s with %d", got, m.RemainingDays, tt.wantMonth, tt.wantRemaining)
			}
			// Month to date is the exact sum of the month's history days.
			toDate := 0.0
			for i, v := range tt.values {
				if d := tt.start.AddDate(0, 0, i); d.Year() == m.Month.Year() && d.Month() == m.Month.Month() {
					toDate += v
				}
			}
			if tt.wantToDate >= 0 && toDate != tt.wantToDate {
				t.Fatalf("test setup: month to date %v, want %v", toDate, tt.wantToDate)
			}
			if math.Abs(m.MonthToDate-toDate) > 1e-9 {
				t.Errorf("month to date %v, want %v", m.MonthToDate, toDate)
			}
			rest := 0.0
			for _, v := range m.Remaining.Mean {
				rest += v
			}
			if len(m.Remaining.Mean) != tt.wantRemaining || math.Abs(m.Total()-(toDate+rest)) > 1e-6 {
				t.Errorf("total %v, want month to date %v + forecast %v over %d days", m.Total(), toDate, rest, len(m.Remaining.Mean))
			}
			if tt.wantTotal > 0 && math.Abs(m.Total()-tt.wantTotal) > 1e-6 {
				t.Errorf("total %v, want %v", m.Total(), tt.wantTotal)
			}
			// The known days carry no uncertainty: the band never goes
			// below them, and it holds the total.
			if !(m.Lower() >= m.MonthToDate-1e-9 && m.Lower() <= m.Total() && m.Total() <= m.Upper()) {
				t.Errorf("interval %v – %v around %v, month to date %v", m.Lower(), m.Upper(), m.Total(), m.MonthToDate)
			}
		})
	}
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
