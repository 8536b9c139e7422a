package azure

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/monitor/armmonitor"

	"github.com/costpilot/costpilot/backend/model"
)

// Azure Monitor platform metrics of virtual machines. Available Memory
// Bytes is published by the host for every VM, so memory use is derived
// from it and the size's memory.
const (
	metricCPU      = "Percentage CPU"
	metricMemory   = "Available Memory Bytes"
	metricNetIn    = "Network In Total"
	metricNetOut   = "Network Out Total"
	metricNames    = metricCPU + "," + metricMemory + "," + metricNetIn + "," + metricNetOut
	bytesPerGB     = 1 << 30
	hourlyInterval = "PT1H"
)

// utilization reads hourly metrics of the running machines, one Azure
// Monitor call per machine (the metrics API takes one resource at a time).
func (p *Provider) utilization(ctx context.Context, sub string, vms []model.Resource) ([]model.UtilizationSample, error) {
	var running []model.Resource
	for _, r := range vms {
		if r.State == "running" {
			running = append(running, r)
		}
	}
	if len(running) == 0 {
		return nil, nil
	}
	cred, err := p.credential()
	if err != nil {
		return nil, err
	}
	mc, err := armmonitor.NewMetricsClient(sub, cred, p.clientOptions())
	if err != nil {
		return nil, p.fail(ctx, "Monitor client", err)
	}
	end := p.opt.now().UTC().Truncate(time.Hour)
	start := end.Add(-UtilizationDays * 24 * time.Hour)
	span := start.Format(time.RFC3339) + "/" + end.Format(time.RFC3339)
	var out []model.UtilizationSample
	for _, vm := range running {
		res, err := mc.List(ctx, vm.ResourceID, &armmonitor.MetricsClientListOptions{
			Metricnames: to.Ptr(metricNames),
			Timespan:    to.Ptr(span),
			Interval:    to.Ptr(hourlyInterval),
			Aggregation: to.Ptr("Average,Total"),
		})
		if err != nil {
			return nil, p.fail(ctx, "Monitor Metrics List", err)
		}
		out = append(out, samples(vm, res.Value)...)
	}
	return out, nil
}

// samples turns the metric series of one machine into hourly samples.
func samples(vm model.Resource, metrics []*armmonitor.Metric) []model.UtilizationSample {
	byTime := map[time.Time]*model.UtilizationSample{}
	at := func(t time.Time) *model.UtilizationSample {
		t = t.UTC()
		s := byTime[t]
		if s == nil {
			s = &model.UtilizationSample{ResourceID: vm.ResourceID, Time: t, CPU: -1, Memory: -1}
			byTime[t] = s
		}
		return s
	}
	for _, m := range metrics {
		if m == nil || m.Name == nil || m.Name.Value == nil {
			continue
		}
		name := *m.Name.Value
		for _, ts := range m.Timeseries {
			for _, v := range ts.Data {
				if v == nil || v.TimeStamp == nil {
					continue
				}
				switch {
				case strings.EqualFold(name, metricCPU) && v.Average != nil:
					at(*v.TimeStamp).CPU = *v.Average / 100
				case strings.EqualFold(name, metricMemory) && v.Average != nil && vm.MemoryGB > 0:
					used := 1 - *v.Average/(vm.MemoryGB*bytesPerGB)
					at(*v.TimeStamp).Memory = min(max(used, 0), 1)
				case (strings.EqualFold(name, metricNetIn) || strings.EqualFold(name, metricNetOut)) && v.Total != nil:
					at(*v.TimeStamp).NetworkBytes += *v.Total
				}
			}
		}
	}
	var out []model.UtilizationSample
	for _, s := range byTime {
		if s.CPU >= 0 {
			out = append(out, *s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}
