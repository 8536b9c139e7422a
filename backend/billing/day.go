package billing

import (
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// day is a UTC calendar day as YYYY-MM-DD bytes; the zero value is no day.
type day [10]byte

func (d day) String() string { return string(d[:]) }

func (d day) isZero() bool { return d[0] == 0 }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseDay reads the UTC day of a timestamp or date cell. Exports write
// "2024-09-18 22:00:00", "2024-09-18T22:00:00Z", "2023-11-13T10:00Z",
// "2023-11-01 07:00:00 UTC", "2024-09-18", Azure's "9/2/2023", or
// "20230902"; a numeric offset converts to UTC.
func parseDay(b []byte) (day, bool) {
	var d day
	n := len(b)
	if n >= 10 && b[4] == '-' && b[7] == '-' && isDigit(b[0]) && isDigit(b[1]) && isDigit(b[2]) &&
		isDigit(b[3]) && isDigit(b[5]) && isDigit(b[6]) && isDigit(b[8]) && isDigit(b[9]) {
		if n > 10 && hasOffset(b[10:]) {
			return offsetDay(b)
		}
		copy(d[:], b[:10])
		return d, validDate(d)
	}
	if n == 8 && allDigitsB(b) {
		copy(d[:4], b[:4])
		d[4], d[7] = '-', '-'
		copy(d[5:7], b[4:6])
		copy(d[8:10], b[6:8])
		return d, validDate(d)
	}
	// US M/D/YYYY, optionally followed by a time.
	var parts [3]int
	var widths [3]int
	p, i := 0, 0
	for ; i < n && p < 3; i++ {
		c := b[i]
		if isDigit(c) {
			parts[p] = parts[p]*10 + int(c-'0')
			widths[p]++
			if widths[p] > 4 {
				return d, false
			}
			continue
		}
		if c == '/' && p < 2 && widths[p] > 0 {
			p++
			continue
		}
		break
	}
	if p != 2 || widths[0] > 2 || widths[1] > 2 || widths[2] != 4 {
		return d, false
	}
	if i < n && b[i] != ' ' && b[i] != 'T' {
		return d, false
	}
	y, m, dd := parts[2], parts[0], parts[1]
	d = day{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + m/10), byte('0' + m%10), '-', byte('0' + dd/10), byte('0' + dd%10)}
	return d, validDate(d)
}

func allDigitsB(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// num is the day's number (days since 1970-01-01), by the days-from-civil
// algorithm: no time.Time per row.
func (d day) num() model.DayNum {
	y := int(d[0]-'0')*1000 + int(d[1]-'0')*100 + int(d[2]-'0')*10 + int(d[3]-'0')
	m := int(d[5]-'0')*10 + int(d[6]-'0')
	dd := int(d[8]-'0')*10 + int(d[9]-'0')
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + dd - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return model.DayNum(era*146097 + doe - 719468)
}

func validDate(d day) bool {
	for i, c := range d {
		if i == 4 || i == 7 {
			continue
		}
		if !isDigit(c) {
			return false
		}
	}
	y := int(d[0]-'0')*1000 + int(d[1]-'0')*100 + int(d[2]-'0')*10 + int(d[3]-'0')
	m := int(d[5]-'0')*10 + int(d[6]-'0')
	dd := int(d[8]-'0')*10 + int(d[9]-'0')
	if m < 1 || m > 12 || dd < 1 {
		return false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return dd <= days
}

// hasOffset reports whether the time part ends in a numeric UTC offset.
func hasOffset(t []byte) bool {
	n := len(t)
	if n < 6 {
		return false
	}
	// ...+hh:mm or ...+hhmm
	for _, w := range []int{6, 5} {
		if n >= w+3 {
			s := t[n-w]
			if (s == '+' || s == '-') && isDigit(t[n-1]) {
				return true
			}
		}
	}
	return false
}

var offsetLayouts = []string{
	"2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05-0700", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05-0700",
}

func offsetDay(b []byte) (day, bool) {
	var d day
	s := string(b)
	for _, l := range offsetLayouts {
		if t, err := time.Parse(l, s); err == nil {
			copy(d[:], t.UTC().Format(model.DateLayout))
			return d, true
		}
	}
	return d, false
}

// addDays returns d shifted by n days.
func (d day) addDays(n int) day {
	t, err := time.Parse(model.DateLayout, d.String())
	if err != nil {
		return d
	}
	var out day
	copy(out[:], t.AddDate(0, 0, n).Format(model.DateLayout))
	return out
}

// addMonths returns d shifted by n months (d is a first of month here).
func (d day) addMonths(n int) day {
	t, err := time.Parse(model.DateLayout, d.String())
	if err != nil {
		return d
	}
	var out day
	copy(out[:], t.AddDate(0, n, 0).Format(model.DateLayout))
	return out
}

// endCache remembers the last exclusive period end read, since every row of
// an export repeats it and converting it costs a time.Parse.
type endCache struct {
	raw  []byte
	last day
}

// inclusive returns the day before the exclusive end in cell b.
func (c *endCache) inclusive(b []byte) day {
	if b == nil {
		return day{}
	}
	if c.raw != nil && string(b) == string(c.raw) {
		return c.last
	}
	d, ok := parseDay(b)
	if !ok {
		return day{}
	}
	c.raw = append(c.raw[:0], b...)
	c.last = d.addDays(-1)
	return c.last
}
