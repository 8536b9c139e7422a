package kubernetes

import (
	"strings"
	"testing"
)

// rowsOf is a RowReader over in-memory rows.
func rowsOf(header []string, rows ...[]string) RowReader {
	return func(fn func([]string, int64, [][]byte) error) error {
		for i, r := range rows {
			rec := make([][]byte, len(r))
			for j, c := range r {
				if c != "" {
					rec[j] = []byte(c)
				}
			}
			if err := fn(header, int64(i+1), rec); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestParseOpenCostRows(t *testing.T) {
	h := []string{"name", "properties.cluster", "properties.node", "properties.providerID", "properties.namespace", "properties.pod",
		"label.team", "window.start", "window.end", "cpuCost", "totalCost", "cpuCoreRequestAverage", "running_minutes"}
	row := func(start, end, cpu, req, mins string) []string {
		return []string{"c/n/shop/p", "c", "n", "i-0aaa1111bbbb2222c", "shop", "p", "web", start, end, cpu, cpu, req, mins}
	}
	set, err := ParseOpenCostRows(rowsOf(h,
		row("2026-05-01T00:00:00Z", "2026-05-01T06:00:00Z", "1", "2", "360"),
		row("2026-05-01T06:00:00Z", "2026-05-02T00:00:00Z", "3", "1", "1080"),
		row("2026-05-02T00:00:00Z", "2026-05-02T01:00:00Z", "0.5", "4", "")), "oc.parquet", "", "USD")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Allocations) != 2 {
		t.Fatalf("allocations %+v", set.Allocations)
	}
	d1 := set.Allocations[0]
	// Costs add up; the request is averaged over the minutes: (2·360 + 1·1080) / 1440.
	if d1.Parts[0].Weight != 4 || d1.CPURequest != 1.25 || d1.Labels["team"] != "web" || d1.Namespace != "shop" {
		t.Errorf("first day %+v", d1)
	}
	for _, tt := range []struct{ name, want string }{{"two days", "row 1: window"}, {"bad number", "row 1: cpuCost"}} {
		r := row("2026-05-01T12:00:00Z", "2026-05-02T12:00:00Z", "1", "1", "")
		if tt.name == "bad number" {
			r = row("2026-05-01T00:00:00Z", "2026-05-01T01:00:00Z", "x", "1", "")
		}
		_, err := ParseOpenCostRows(rowsOf(h, r), "oc.parquet", "", "USD")
		if err == nil || !strings.Contains(err.Error(), "oc.parquet: "+tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := ParseOpenCostRows(rowsOf([]string{"x"}, []string{"1"}), "oc.parquet", "", "USD"); err == nil {
		t.Error("a file without the exporter's columns is accepted")
	}
}
