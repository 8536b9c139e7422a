package model

import "time"

// DayNum is a UTC calendar day as the number of days since 1970-01-01: the
// history stores days as integers so rows stay narrow and ranges are cheap.
type DayNum int32

// Month is a calendar month as year*12 + month-1.
type Month int32

var epoch = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// DayOf returns the day number of t's UTC day.
func DayOf(t time.Time) DayNum {
	t = t.UTC()
	return DayNum(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Sub(epoch) / (24 * time.Hour))
}

// ParseDayNum reads YYYY-MM-DD.
func ParseDayNum(s string) (DayNum, bool) {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		return 0, false
	}
	return DayOf(t), true
}

// Time is the start of the day (UTC).
func (d DayNum) Time() time.Time { return epoch.AddDate(0, 0, int(d)) }

// String is YYYY-MM-DD.
func (d DayNum) String() string { return d.Time().Format(DateLayout) }

// Month is the calendar month the day is in.
func (d DayNum) Month() Month {
	t := d.Time()
	return Month(t.Year()*12 + int(t.Month()) - 1)
}

// First is the month's first day.
func (m Month) First() DayNum {
	return DayOf(time.Date(int(m)/12, time.Month(int(m)%12+1), 1, 0, 0, 0, 0, time.UTC))
}

// Last is the month's last day.
func (m Month) Last() DayNum { return (m + 1).First() - 1 }

// DaysPerMonth is the average month (365.25 / 12): daily amounts become
// monthly ones with it.
const DaysPerMonth = 365.25 / 12
