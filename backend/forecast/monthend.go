package forecast

import "time"

// MonthEnd is the forecast total of a calendar month that the history
// reaches into or ends just before.
type MonthEnd struct {
	Month         time.Time // first day of the month
	MonthToDate   float64   // actual spend of the month's days in the history
	RemainingDays int       // days of the month after the history
	Remaining     Result    // the forecast of those days
}

// Total is the month's forecast total: month to date plus the forecast of
// the remaining days.
func (m MonthEnd) Total() float64 { return m.MonthToDate + m.Remaining.TotalMean }

// Lower is the low end of the month total's interval.
func (m MonthEnd) Lower() float64 { return m.MonthToDate + m.Remaining.TotalLower }

// Upper is the high end of the month total's interval.
func (m MonthEnd) Upper() float64 { return m.MonthToDate + m.Remaining.TotalUpper }

// ForecastMonthEnd forecasts the total of the calendar month holding the
// first day after the history (values[i] is day start+i, UTC): the actual
// days of that month already in the history plus a forecast to its last
// day. The interval is that of the remaining days' total, shifted by the
// known month to date, which has no uncertainty.
func ForecastMonthEnd(values []float64, start time.Time, level float64) (MonthEnd, error) {
	start = time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
	next := start.AddDate(0, 0, len(values))
	month := time.Date(next.Year(), next.Month(), 1, 0, 0, 0, 0, time.UTC)
	end := month.AddDate(0, 1, 0) // first day of the following month
	m := MonthEnd{Month: month, RemainingDays: int(end.Sub(next).Hours() / 24)}
	for i := len(values) - 1; i >= 0 && !start.AddDate(0, 0, i).Before(month); i-- {
		m.MonthToDate += values[i]
	}
	res, err := Forecast(values, start, Options{Horizon: m.RemainingDays, Level: level})
	if err != nil {
		return MonthEnd{}, err
	}
	m.Remaining = res
	return m, nil
}
