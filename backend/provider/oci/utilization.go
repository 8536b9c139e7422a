package oci

import (
	"context"
	"time"

	"github.com/oracle/oci-go-sdk/v65/common"
	"github.com/oracle/oci-go-sdk/v65/monitoring"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// metricQueries are MQL queries on the oci_computeagent namespace, which
// the Compute Instance Monitoring plugin (on by default in platform images)
// publishes for every instance, memory included. Each runs once over the
// whole tenancy (compartmentIdInSubtree) and returns one series per
// instance, told apart by the resourceId dimension.
var metricQueries = []struct{ kind, query string }{
	{"cpu", "CpuUtilization[1h].mean()"},
	{"mem", "MemoryUtilization[1h].mean()"},
	{"net", "NetworksBytesIn[1h].sum()"},
	{"net", "NetworksBytesOut[1h].sum()"},
}

func (p *Provider) utilization(ctx context.Context, cp common.ConfigurationProvider, tenancy string, running map[string]bool) ([]model.UtilizationSample, error) {
	if len(running) == 0 {
		return nil, nil
	}
	client, err := monitoring.NewMonitoringClientWithConfigurationProvider(cp)
	if err != nil {
		return nil, p.fail(ctx, "Monitoring client", &credentialError{err})
	}
	p.setup(&client.BaseClient, client.SetRegion)
	end := p.opt.now().UTC().Truncate(time.Hour)
	start := end.Add(-UtilizationDays * 24 * time.Hour)
	acc := provider.Hourly{}
	for _, q := range metricQueries {
		if err := p.cancelled(ctx, "Monitoring SummarizeMetricsData"); err != nil {
			return nil, err
		}
		res, err := client.SummarizeMetricsData(ctx, monitoring.SummarizeMetricsDataRequest{
			CompartmentId:          common.String(tenancy),
			CompartmentIdInSubtree: common.Bool(true),
			SummarizeMetricsDataDetails: monitoring.SummarizeMetricsDataDetails{
				Namespace:  common.String("oci_computeagent"),
				Query:      common.String(q.query),
				StartTime:  &common.SDKTime{Time: start},
				EndTime:    &common.SDKTime{Time: end},
				Resolution: common.String("1h"),
			},
		})
		if err != nil {
			return nil, p.fail(ctx, "Monitoring SummarizeMetricsData", err)
		}
		for _, md := range res.Items {
			id := md.Dimensions["resourceId"]
			if !running[id] {
				continue
			}
			for _, dp := range md.AggregatedDatapoints {
				if dp.Timestamp == nil || dp.Value == nil {
					continue
				}
				t := dp.Timestamp.Time.UTC().Truncate(time.Hour)
				s := acc.At(id, t)
				switch q.kind {
				case "cpu":
					s.CPU = *dp.Value / 100
				case "mem":
					s.Memory = *dp.Value / 100
				case "net":
					s.NetworkBytes += *dp.Value
				}
			}
		}
	}
	return acc.Samples(), nil
}
