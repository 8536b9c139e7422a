package kubernetes

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// RowReader calls fn with each row of a table file: its header, the row's
// number and its cells (nil when null), as text.
type RowReader func(fn func(header []string, row int64, rec [][]byte) error) error

// The label columns of OpenCost's Parquet exporter: the allocation's
// labels flattened (properties.labels.KEY), some renamed (label.KEY).
var ocLabelPrefixes = []string{"properties.labels.", "label."}

// ParseOpenCostRows reads the files of OpenCost's Parquet exporter: the
// /allocation answer flattened, a row per allocation and window (the
// exporter's step, 1h by default), columns named by their JSON path
// (properties.cluster, window.start, cpuCost…). The windows of a UTC day
// are summed into that day: costs added, requests and usage averaged
// over the minutes they ran. Errors name the file and row.
func ParseOpenCostRows(rows RowReader, name, cluster, currency string) (Set, error) {
	days := map[model.DayNum]map[string]*ocAllocation{}
	minutes := map[*ocAllocation]float64{}
	var col map[string]int
	err := rows(func(header []string, row int64, rec [][]byte) error {
		if col == nil {
			col = map[string]int{}
			for i, h := range header {
				col[h] = i
			}
			for _, c := range []string{"window.start", "window.end", "totalCost"} {
				if _, ok := col[c]; !ok {
					return fmt.Errorf("no column %s: not a file of OpenCost's Parquet exporter", c)
				}
			}
		}
		a, mins, err := ocRow(header, col, rec)
		if err != nil {
			return fmt.Errorf("row %d: %w", row, err)
		}
		s, err := time.Parse(time.RFC3339, a.Window.Start)
		if err != nil {
			return fmt.Errorf("row %d: window.start %q is not an RFC 3339 time", row, clip(a.Window.Start))
		}
		e, err := time.Parse(time.RFC3339, a.Window.End)
		if err != nil || !e.After(s) || model.DayOf(e.UTC().Add(-time.Nanosecond)) != model.DayOf(s.UTC()) {
			return fmt.Errorf("row %d: window %s..%s is not within one UTC day: export with a step of a day or less", row,
				clip(a.Window.Start), clip(a.Window.End))
		}
		if mins <= 0 {
			mins = e.Sub(s).Minutes()
		}
		day := model.DayOf(s.UTC())
		key := a.Name
		if days[day] == nil {
			days[day] = map[string]*ocAllocation{}
		}
		acc := days[day][key]
		if acc == nil {
			acc = &ocAllocation{Name: a.Name, Properties: a.Properties}
			start := day.Time()
			acc.Window.Start, acc.Window.End = start.Format(time.RFC3339), start.Add(24*time.Hour).Format(time.RFC3339)
			days[day][key] = acc
		}
		acc.add(a, mins, minutes[acc])
		minutes[acc] += mins
		return nil
	})
	if err != nil {
		return Set{Origin: OriginOpenCost}, fmt.Errorf("%s: %w", name, err)
	}
	order := make([]model.DayNum, 0, len(days))
	for d := range days {
		order = append(order, d)
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	windows := make([]map[string]*ocAllocation, len(order))
	for i, d := range order {
		windows[i] = days[d]
	}
	return fromWindows(windows, name, cluster, currency)
}

// add sums one window's allocation into a day's: costs add up, the
// averages are weighted by the minutes run (had minutes so far).
func (a *ocAllocation) add(b *ocAllocation, mins, had float64) {
	a.CPUCost += b.CPUCost
	a.CPUCostAdjustment += b.CPUCostAdjustment
	a.GPUCost += b.GPUCost
	a.GPUCostAdjustment += b.GPUCostAdjustment
	a.RAMCost += b.RAMCost
	a.RAMCostAdjustment += b.RAMCostAdjustment
	a.PVCost += b.PVCost
	a.NetworkCost += b.NetworkCost
	a.LoadBalancerCost += b.LoadBalancerCost
	a.SharedCost += b.SharedCost
	a.ExternalCost += b.ExternalCost
	a.TotalCost += b.TotalCost
	avg := func(cur, x float64) float64 { return (cur*had + x*mins) / (had + mins) }
	a.CPUCoreRequestAverage = avg(a.CPUCoreRequestAverage, b.CPUCoreRequestAverage)
	a.CPUCoreUsageAverage = avg(a.CPUCoreUsageAverage, b.CPUCoreUsageAverage)
	a.RAMBytesRequestAverage = avg(a.RAMBytesRequestAverage, b.RAMBytesRequestAverage)
	a.RAMByteUsageAverage = avg(a.RAMByteUsageAverage, b.RAMByteUsageAverage)
}

// ocRow reads one exporter row into an allocation and its minutes.
func ocRow(header []string, col map[string]int, rec [][]byte) (*ocAllocation, float64, error) {
	text := func(c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return strings.TrimSpace(string(rec[i]))
		}
		return ""
	}
	var err error
	num := func(c string) float64 {
		s := text(c)
		if s == "" || err != nil {
			return 0
		}
		f, perr := strconv.ParseFloat(s, 64)
		if perr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			err = fmt.Errorf("%s %q is not a number", c, clip(s))
		}
		return f
	}
	a := &ocAllocation{Name: text("name")}
	p := &a.Properties
	p.Cluster, p.Node, p.Namespace = text("properties.cluster"), text("properties.node"), text("properties.namespace")
	p.Controller, p.ControllerKind, p.Pod = text("properties.controller"), text("properties.controllerKind"), text("properties.pod")
	p.ProviderID = text("properties.providerID")
	for i, h := range header {
		for _, pre := range ocLabelPrefixes {
			if k, ok := strings.CutPrefix(h, pre); ok && k != "" && i < len(rec) && rec[i] != nil {
				if p.Labels == nil {
					p.Labels = map[string]string{}
				}
				p.Labels[k] = string(rec[i])
			}
		}
	}
	a.Window.Start, a.Window.End = text("window.start"), text("window.end")
	a.CPUCost, a.CPUCostAdjustment = num("cpuCost"), num("cpuCostAdjustment")
	a.GPUCost, a.GPUCostAdjustment = num("gpuCost"), num("gpuCostAdjustment")
	a.RAMCost, a.RAMCostAdjustment = num("ramCost"), num("ramCostAdjustment")
	a.PVCost, a.NetworkCost, a.LoadBalancerCost = num("pvCost"), num("networkCost"), num("loadBalancerCost")
	a.SharedCost, a.ExternalCost, a.TotalCost = num("sharedCost"), num("externalCost"), num("totalCost")
	a.CPUCoreRequestAverage, a.CPUCoreUsageAverage = num("cpuCoreRequestAverage"), num("cpuCoreUsageAverage")
	a.RAMBytesRequestAverage, a.RAMByteUsageAverage = num("ramByteRequestAverage"), num("ramByteUsageAverage")
	mins := num("running_minutes")
	if mins == 0 {
		mins = num("minutes")
	}
	if a.Name == "" {
		err = fmt.Errorf("no allocation name")
	}
	return a, mins, err
}
