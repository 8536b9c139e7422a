// Package units reads business metrics (orders, requests, customers…)
// from CSV and divides costs by them: the unit economics of a cost
// analysis. It parses and computes; the store keeps the values.
package units

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Bounds of one file: a year of daily values of a hundred metrics is
// about a megabyte, so these leave room without letting one upload hold
// the writer for long.
const (
	MaxBytes   = 8 << 20
	MaxRows    = 200_000
	MaxMetrics = 1000
	MaxNameLen = 128 // a metric name, a scope column or value
)

// Series is one metric of a file: its scope and daily values.
type Series struct {
	Metric string
	Scope  map[string]string
	Line   int                      // the line of its first row, for errors
	Values map[model.DayNum]float64 // per day
}

// The columns every file has.
const (
	colDate   = "date"
	colMetric = "metric"
	colValue  = "value"
)

// Parse reads a units CSV: a header with date, metric and value, and
// optionally scope columns (a dimension such as provider or service, or
// a tag key such as team; tag:<key> names a tag that shares a
// dimension's name). A row's non-empty scope cells scope its metric, and
// every row of a metric must give the same scope. name labels errors,
// which name the line and column. Nothing is returned unless the whole
// file is valid.
func Parse(r io.Reader, name string) ([]Series, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, apperr.Wrap(apperr.Validation, err, "%s: cannot read: %v", name, err)
	}
	if len(data) > MaxBytes {
		return nil, apperr.E(apperr.Validation, "%s: larger than %d bytes: split it", name, MaxBytes).WithDetail("file", name)
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, apperr.E(apperr.Validation, "%s: empty file: the header date,metric,value is missing", name).WithDetail("file", name)
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	cols, err := bindHeader(name, header)
	if err != nil {
		return nil, err
	}
	var out []*Series
	byName := map[string]*Series{}
	seen := map[string]map[model.DayNum]int{} // metric → day → line
	rows := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if rows++; rows > MaxRows {
			return nil, lineErr(name, line, "", "more than %d rows: split the file", MaxRows)
		}
		if len(rec) != len(header) {
			return nil, lineErr(name, line, "", "%d columns, the header has %d", len(rec), len(header))
		}
		row, err := cols.row(name, line, rec)
		if err != nil {
			return nil, err
		}
		s := byName[row.metric]
		if s == nil {
			if len(out) >= MaxMetrics {
				return nil, lineErr(name, line, colMetric, "more than %d metrics in one file", MaxMetrics)
			}
			s = &Series{Metric: row.metric, Scope: row.scope, Line: line, Values: map[model.DayNum]float64{}}
			byName[row.metric], seen[row.metric] = s, map[model.DayNum]int{}
			out = append(out, s)
		} else if !SameScope(s.Scope, row.scope) {
			return nil, lineErr(name, line, "", "metric %q is scoped %s on line %d but %s here: a metric has one scope",
				row.metric, model.FormatScope(s.Scope), s.Line, model.FormatScope(row.scope))
		}
		if prev, dup := seen[row.metric][row.day]; dup {
			return nil, lineErr(name, line, colDate, "metric %q on %s is already given on line %d", row.metric, row.day, prev)
		}
		seen[row.metric][row.day] = line
		s.Values[row.day] = row.value
	}
	if len(out) == 0 {
		return nil, apperr.E(apperr.Validation, "%s: no rows under the header", name).WithDetail("file", name)
	}
	res := make([]Series, len(out))
	for i, s := range out {
		res[i] = *s
	}
	return res, nil
}

// columns is where a file's columns are.
type columns struct {
	date, metric, value int
	scope               []scopeCol
}

type scopeCol struct {
	index int
	key   string // a dimension name or tag:<key>
	label string // the header cell, for errors
}

func bindHeader(name string, header []string) (columns, error) {
	c := columns{date: -1, metric: -1, value: -1}
	keys := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		switch strings.ToLower(h) {
		case colDate:
			c.date = i
			continue
		case colMetric:
			c.metric = i
			continue
		case colValue:
			c.value = i
			continue
		}
		key, err := ScopeKey(h)
		if err != nil {
			return c, apperr.E(apperr.Validation, "%s:1: column %d: %s", name, i+1, err.Error()).
				WithDetail("file", name).WithDetail("line", 1).WithDetail("column", h)
		}
		if keys[key] {
			return c, apperr.E(apperr.Validation, "%s:1: column %q: given twice", name, h).
				WithDetail("file", name).WithDetail("line", 1).WithDetail("column", h)
		}
		keys[key] = true
		c.scope = append(c.scope, scopeCol{index: i, key: key, label: h})
	}
	for _, m := range []struct {
		i    int
		name string
	}{{c.date, colDate}, {c.metric, colMetric}, {c.value, colValue}} {
		if m.i < 0 {
			return c, apperr.E(apperr.Validation, "%s:1: the header has no %s column (columns: date,metric,value and optional scope columns such as team or provider)",
				name, m.name).WithDetail("file", name).WithDetail("line", 1).WithDetail("column", m.name)
		}
	}
	return c, nil
}

type row struct {
	day    model.DayNum
	metric string
	value  float64
	scope  map[string]string
}

func (c columns) row(name string, line int, rec []string) (row, error) {
	var r row
	ds := strings.TrimSpace(rec[c.date])
	d, ok := model.ParseDayNum(ds)
	if !ok {
		return r, lineErr(name, line, colDate, "date must be YYYY-MM-DD, got %q", clip(ds))
	}
	r.day = d
	r.metric = strings.TrimSpace(rec[c.metric])
	if err := checkName(r.metric); err != nil {
		return r, lineErr(name, line, colMetric, "metric %s", err.Error())
	}
	vs := strings.TrimSpace(rec[c.value])
	v, err := strconv.ParseFloat(vs, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return r, lineErr(name, line, colValue, "value must be a number, got %q", clip(vs))
	}
	if v < 0 {
		return r, lineErr(name, line, colValue, "value must not be negative, got %s", vs)
	}
	r.value = v
	r.scope = map[string]string{}
	for _, sc := range c.scope {
		val := strings.TrimSpace(rec[sc.index])
		if val == "" {
			continue
		}
		if len(val) > MaxNameLen || !utf8.ValidString(val) {
			return r, lineErr(name, line, sc.label, "value is longer than %d bytes or not UTF-8", MaxNameLen)
		}
		if sc.key == string(model.DimProvider) {
			if !model.ProviderKey(val).Valid() {
				return r, lineErr(name, line, sc.label, "provider %q is not one of %s", clip(val), joinProviders())
			}
		}
		r.scope[sc.key] = val
	}
	return r, nil
}

// ScopeKey is the scope key of a column name: a dimension (provider,
// service…) as it is, tag:<key> as it is, any other name a tag key
// (team → tag:team).
func ScopeKey(col string) (string, error) {
	if k, ok := model.Dimension(col).TagKey(); ok {
		if err := checkName(k); err != nil {
			return "", errors.New("tag key " + err.Error())
		}
		return col, nil
	}
	if slices.Contains(model.Dimensions, model.Dimension(col)) || col == string(model.DimAccount) {
		return col, nil
	}
	if err := checkName(col); err != nil {
		return "", errors.New("scope column " + err.Error())
	}
	return string(model.TagDimension(col)), nil
}

// checkName refuses an empty, long or odd name: names become filter
// keys and JSON paths of tag lookups, so no backslash or control
// character is let in.
func checkName(s string) error {
	switch {
	case s == "":
		return errors.New("is empty")
	case len(s) > MaxNameLen:
		return errors.New("is longer than " + strconv.Itoa(MaxNameLen) + " bytes")
	case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r == '\\' || r == '"' || unicode.IsControl(r) }):
		return errors.New("holds a backslash, a quote, a control character or invalid UTF-8")
	}
	return nil
}

// Filters are the cost filters of a scope: every cost the metric divides
// has these values.
func Filters(scope map[string]string) []model.Filter {
	keys := slices.Sorted(maps.Keys(scope))
	out := make([]model.Filter, 0, len(keys))
	for _, k := range keys {
		out = append(out, model.Filter{Dim: model.Dimension(k), Values: []string{scope[k]}})
	}
	return out
}

// SameScope says whether two scopes are the same.
func SameScope(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func lineErr(name string, line int, col, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	prefix := name + ":" + strconv.Itoa(line) + ": "
	if col != "" {
		prefix += col + ": "
	}
	e := apperr.E(apperr.Validation, "%s%s", prefix, msg).WithDetail("file", name).WithDetail("line", line)
	if col != "" {
		e = e.WithDetail("column", col)
	}
	return e
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return lineErr(name, pe.Line, "", "%s", pe.Err.Error())
	}
	return apperr.Wrap(apperr.Validation, err, "%s: %v", name, err).WithDetail("file", name)
}

func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	n := 40
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func joinProviders() string {
	names := make([]string, len(model.AllProviders))
	for i, p := range model.AllProviders {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}
