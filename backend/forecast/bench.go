package forecast

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// RunBench reads a series file (CSV rows series_id,date,value) and writes,
// for every series, horizon rows of
// series_id,date,mean,lo80,hi80,lo95,hi95,fit_seconds,model,components:
// the interchange format of forecast benchmarks. Each series is fitted once; fit_seconds is its wall-clock
// fitting time. model is always BenchModel, so the scorer groups every
// series under one name; components (a column the scorer ignores) says
// which models were averaged for that series.
func RunBench(in io.Reader, out io.Writer, horizon int) error {
	if horizon < 1 {
		return apperr.E(apperr.Validation, "forecast-bench: horizon must be at least 1, got %d", horizon)
	}
	series, order, err := readSeries(in)
	if err != nil {
		return err
	}
	w := csv.NewWriter(out)
	if err := w.Write([]string{"series_id", "date", "mean", "lo80", "hi80", "lo95", "hi95", "fit_seconds", "model", "components"}); err != nil {
		return fmt.Errorf("forecast: write header: %w", err)
	}
	for _, id := range order {
		s := series[id]
		sort.Slice(s, func(a, b int) bool { return s[a].day.Before(s[b].day) })
		values := make([]float64, len(s))
		for i, p := range s {
			if i > 0 && !p.day.Equal(s[i-1].day.AddDate(0, 0, 1)) {
				return apperr.E(apperr.Validation, "forecast-bench: series %s is not consecutive at %s", id, p.day.Format(model.DateLayout))
			}
			values[i] = p.value
		}
		t0 := time.Now()
		res, err := Forecast(values, s[0].day, Options{Horizon: horizon})
		fit := time.Since(t0).Seconds()
		if err != nil {
			return fmt.Errorf("forecast-bench: series %s: %w", id, err)
		}
		last := s[len(s)-1].day
		for i := 0; i < horizon; i++ {
			rec := []string{id, last.AddDate(0, 0, i+1).Format(model.DateLayout),
				num(res.Mean[i]), num(res.Lower80[i]), num(res.Upper80[i]), num(res.Lower95[i]), num(res.Upper95[i]),
				strconv.FormatFloat(fit, 'f', 6, 64), BenchModel, res.Model}
			if err := w.Write(rec); err != nil {
				return fmt.Errorf("forecast: write forecast: %w", err)
			}
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("forecast: write forecast: %w", err)
	}
	return nil
}

// BenchModel is the model name RunBench writes.
const BenchModel = "costpilot"

type dayValue struct {
	day   time.Time
	value float64
}

// readSeries reads series_id,date,value rows in any column order and
// returns the series and their ids in order of first appearance.
func readSeries(in io.Reader) (map[string][]dayValue, []string, error) {
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, nil, apperr.Wrap(apperr.Validation, err, "forecast-bench: cannot read the header row")
	}
	col := map[string]int{}
	for i, name := range head {
		col[strings.TrimSpace(strings.TrimPrefix(name, "\ufeff"))] = i
	}
	for _, need := range []string{"series_id", "date", "value"} {
		if _, ok := col[need]; !ok {
			return nil, nil, apperr.E(apperr.Validation, "forecast-bench: the header has no %s column", need)
		}
	}
	series := map[string][]dayValue{}
	var order []string
	seen := map[string]map[string]bool{}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, apperr.Wrap(apperr.Validation, err, "forecast-bench: line %d is not valid CSV", line)
		}
		if len(rec) < len(head) {
			return nil, nil, apperr.E(apperr.Validation, "forecast-bench: line %d has %d fields, the header %d", line, len(rec), len(head))
		}
		id, ds, vs := rec[col["series_id"]], rec[col["date"]], rec[col["value"]]
		day, err := time.Parse(model.DateLayout, ds)
		if err != nil {
			return nil, nil, apperr.Wrap(apperr.Validation, err, "forecast-bench: line %d: date %q is not YYYY-MM-DD", line, ds)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(vs), 64)
		if err != nil {
			return nil, nil, apperr.Wrap(apperr.Validation, err, "forecast-bench: line %d: value %q is not a number", line, vs)
		}
		if _, ok := series[id]; !ok {
			order = append(order, id)
			seen[id] = map[string]bool{}
		}
		if seen[id][ds] {
			return nil, nil, apperr.E(apperr.Validation, "forecast-bench: line %d: series %s has %s twice", line, id, ds)
		}
		seen[id][ds] = true
		series[id] = append(series[id], dayValue{day: day, value: v})
	}
	if len(order) == 0 {
		return nil, nil, apperr.E(apperr.Validation, "forecast-bench: the file has no rows")
	}
	return series, order, nil
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
