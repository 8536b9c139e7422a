package aws

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// instancesPerCall bounds a GetMetricData request: four queries an
// instance stays under the 500-query limit, and 200 hourly series of 14
// days (67,200 points) under the 100,800 points one call returns.
const instancesPerCall = 50

// utilization reads hourly CPU, memory (published by the CloudWatch agent
// as CWAgent mem_used_percent; absent without it) and network of the
// instances over the last UtilizationDays days.
func (p *Provider) utilization(ctx context.Context, c aws.Config, ids []string) ([]model.UtilizationSample, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	client := cloudwatch.NewFromConfig(c)
	end := p.opt.now().UTC().Truncate(time.Hour)
	start := end.Add(-UtilizationDays * 24 * time.Hour)
	acc := provider.Hourly{}
	for lo := 0; lo < len(ids); lo += instancesPerCall {
		batch := ids[lo:min(lo+instancesPerCall, len(ids))]
		in := &cloudwatch.GetMetricDataInput{
			StartTime:         aws.Time(start),
			EndTime:           aws.Time(end),
			ScanBy:            cwtypes.ScanByTimestampAscending,
			MetricDataQueries: metricQueries(batch),
		}
		for {
			out, err := client.GetMetricData(ctx, in)
			if err != nil {
				return nil, p.fail(ctx, "CloudWatch GetMetricData", err)
			}
			for _, r := range out.MetricDataResults {
				addSeries(acc, batch, r)
			}
			if aws.ToString(out.NextToken) == "" {
				break
			}
			in.NextToken = out.NextToken
		}
	}
	var samples []model.UtilizationSample
	for _, id := range ids {
		byTime := acc[id]
		times := make([]time.Time, 0, len(byTime))
		for t, s := range byTime {
			if s.CPU >= 0 {
				times = append(times, t)
			}
		}
		sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
		for _, t := range times {
			samples = append(samples, *byTime[t])
		}
	}
	return samples, nil
}

// metricQueries builds four queries per instance; the query id encodes the
// metric and the instance's index in the batch (ids must start lower-case).
func metricQueries(batch []string) []cwtypes.MetricDataQuery {
	stat := func(id, ns, name, statName, instance string) cwtypes.MetricDataQuery {
		return cwtypes.MetricDataQuery{
			Id: aws.String(id),
			MetricStat: &cwtypes.MetricStat{
				Metric: &cwtypes.Metric{
					Namespace:  aws.String(ns),
					MetricName: aws.String(name),
					Dimensions: []cwtypes.Dimension{{Name: aws.String("InstanceId"), Value: aws.String(instance)}},
				},
				Period: aws.Int32(3600),
				Stat:   aws.String(statName),
			},
			ReturnData: aws.Bool(true),
		}
	}
	var q []cwtypes.MetricDataQuery
	for i, id := range batch {
		q = append(q,
			stat(fmt.Sprintf("cpu%d", i), "AWS/EC2", "CPUUtilization", "Average", id),
			stat(fmt.Sprintf("nin%d", i), "AWS/EC2", "NetworkIn", "Sum", id),
			stat(fmt.Sprintf("nout%d", i), "AWS/EC2", "NetworkOut", "Sum", id),
			cwtypes.MetricDataQuery{
				// The agent adds dimensions of its own (ImageId, InstanceType,
				// AutoScalingGroupName), so a search finds the series whatever
				// the agent's configuration.
				Id: aws.String(fmt.Sprintf("mem%d", i)),
				Expression: aws.String(fmt.Sprintf(
					`SEARCH('{CWAgent,InstanceId} MetricName="mem_used_percent" InstanceId="%s"', 'Average', 3600)`, id)),
				ReturnData: aws.Bool(true),
			})
	}
	return q
}

// addSeries folds one result series into the per-instance samples.
func addSeries(acc provider.Hourly, batch []string, r cwtypes.MetricDataResult) {
	id := aws.ToString(r.Id)
	metric := strings.TrimRight(id, "0123456789")
	var idx int
	if _, err := fmt.Sscanf(id[len(metric):], "%d", &idx); err != nil || idx < 0 || idx >= len(batch) {
		return
	}
	instance := batch[idx]
	for i, ts := range r.Timestamps {
		if i >= len(r.Values) {
			break
		}
		s := acc.At(instance, ts.UTC())
		v := r.Values[i]
		switch metric {
		case "cpu":
			s.CPU = v / 100
		case "mem":
			if s.Memory < 0 { // the first series of a search wins
				s.Memory = v / 100
			}
		case "nin", "nout":
			s.NetworkBytes += v
		}
	}
}
