package forecast

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
)

// tinyCSV writes two series of n days (a shuffled order, columns not in
// the usual order) in the benchmark's series format.
func tinyCSV(n int) string {
	var b strings.Builder
	b.WriteString("value,series_id,date\n")
	a, c := synth(n, 0, 0.1, 31), synth(n, 1, 0.1, 32)
	for i := n - 1; i >= 0; i-- {
		d := day0.AddDate(0, 0, i).Format("2006-01-02")
		fmt.Fprintf(&b, "%g,a,%s\n%g,b,%s\n", a[i], d, c[i], d)
	}
	return b.String()
}

func TestRunBench(t *testing.T) {
	const n, h = 40, 10
	var out bytes.Buffer
	if err := RunBench(strings.NewReader(tinyCSV(n)), &out, h); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(recs[0], ",")
	if head != "series_id,date,mean,lo80,hi80,lo95,hi95,fit_seconds,model,components" {
		t.Fatalf("header = %s", head)
	}
	if len(recs) != 1+2*h {
		t.Fatalf("%d rows, want %d", len(recs)-1, 2*h)
	}
	last := day0.AddDate(0, 0, n-1)
	for i, r := range recs[1:] {
		wantID := []string{"a", "b"}[i/h]
		wantDate := last.AddDate(0, 0, i%h+1).Format("2006-01-02")
		if r[0] != wantID || r[1] != wantDate {
			t.Fatalf("row %d = %s %s, want %s %s", i, r[0], r[1], wantID, wantDate)
		}
		var v [6]float64
		for j := range v {
			if v[j], err = strconv.ParseFloat(r[2+j], 64); err != nil {
				t.Fatalf("row %d column %d: %v", i, 2+j, err)
			}
		}
		mean, lo80, hi80, lo95, hi95, fit := v[0], v[1], v[2], v[3], v[4], v[5]
		if !(lo95 <= lo80 && lo80 <= mean && mean <= hi80 && hi80 <= hi95) {
			t.Errorf("row %d: interval %v not ordered", i, v[:5])
		}
		if fit <= 0 || r[8] != BenchModel {
			t.Errorf("row %d: fit_seconds %v, model %q", i, fit, r[8])
		}
	}
}

func TestRunBenchRejects(t *testing.T) {
	tests := []struct {
		name string
		in   string
		h    int
	}{
		{"no value column", "series_id,date\na,2024-01-01\n", 5},
		{"bad date", "series_id,date,value\na,01/02/2024,3\n", 5},
		{"bad value", "series_id,date,value\na,2024-01-01,x\n", 5},
		{"gap", "series_id,date,value\na,2024-01-01,1\na,2024-01-03,1\n", 5},
		{"duplicate day", "series_id,date,value\na,2024-01-01,1\na,2024-01-01,2\n", 5},
		{"too short", "series_id,date,value\na,2024-01-01,1\na,2024-01-02,1\n", 5},
		{"empty", "series_id,date,value\n", 5},
		{"zero horizon", tinyCSV(40), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := RunBench(strings.NewReader(tt.in), &bytes.Buffer{}, tt.h)
			if apperr.KindOf(err) != apperr.Validation {
				t.Errorf("error = %v, want a Validation error", err)
			}
		})
	}
}
