package gcp

import (
	"context"
	"time"

	monitoring "google.golang.org/api/monitoring/v3"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// seriesQuery is one Cloud Monitoring metric read for every instance of
// the project at once (one list call, paged), aligned to hours.
type seriesQuery struct {
	kind    string // cpu, mem, net
	filter  string
	aligner string
}

// CPU comes from the hypervisor for every instance; memory only where the
// Ops Agent publishes it; network is bytes per hour in and out.
var seriesQueries = []seriesQuery{
	{"cpu", `metric.type = "compute.googleapis.com/instance/cpu/utilization" AND resource.type = "gce_instance"`, "ALIGN_MEAN"},
	{"mem", `metric.type = "agent.googleapis.com/memory/percent_used" AND metric.labels.state = "used" AND resource.type = "gce_instance"`, "ALIGN_MEAN"},
	{"net", `metric.type = "compute.googleapis.com/instance/network/received_bytes_count" AND resource.type = "gce_instance"`, "ALIGN_SUM"},
	{"net", `metric.type = "compute.googleapis.com/instance/network/sent_bytes_count" AND resource.type = "gce_instance"`, "ALIGN_SUM"},
}

// utilization reads hourly samples of the running instances (numeric id
// to resource id) over the last UtilizationDays days.
func (p *Provider) utilization(ctx context.Context, running map[string]string) ([]model.UtilizationSample, error) {
	if len(running) == 0 {
		return nil, nil
	}
	opts, err := p.clientOptions("/")
	if err != nil {
		return nil, err
	}
	svc, err := monitoring.NewService(ctx, opts...)
	if err != nil {
		return nil, p.fail(ctx, "Monitoring client", &credentialError{err})
	}
	end := p.opt.now().UTC().Truncate(time.Hour)
	start := end.Add(-UtilizationDays * 24 * time.Hour)
	acc := provider.Hourly{}
	for _, q := range seriesQueries {
		token := ""
		for {
			var page *monitoring.ListTimeSeriesResponse
			err := p.retry(ctx, "Monitoring timeSeries.list", func() error {
				var err error
				page, err = svc.Projects.TimeSeries.List("projects/" + p.cfg.ProjectID).
					Filter(q.filter).
					IntervalStartTime(start.Format(time.RFC3339)).
					IntervalEndTime(end.Format(time.RFC3339)).
					AggregationAlignmentPeriod("3600s").
					AggregationPerSeriesAligner(q.aligner).
					PageToken(token).Context(ctx).Do()
				return err
			})
			if err != nil {
				return nil, err
			}
			for _, ts := range page.TimeSeries {
				if ts.Resource == nil {
					continue
				}
				id, ok := running[ts.Resource.Labels["instance_id"]]
				if !ok {
					continue
				}
				addPoints(acc, id, q.kind, ts.Points)
			}
			if token = page.NextPageToken; token == "" {
				break
			}
		}
	}
	return acc.Samples(), nil
}

// addPoints folds aligned points into hourly samples; an aligned point's
// interval ends at the end of its hour.
func addPoints(acc provider.Hourly, id, kind string, points []*monitoring.Point) {
	for _, pt := range points {
		if pt == nil || pt.Interval == nil || pt.Value == nil {
			continue
		}
		end, err := time.Parse(time.RFC3339, pt.Interval.EndTime)
		if err != nil {
			continue
		}
		hour := end.UTC().Add(-time.Nanosecond).Truncate(time.Hour)
		var v float64
		switch {
		case pt.Value.DoubleValue != nil:
			v = *pt.Value.DoubleValue
		case pt.Value.Int64Value != nil:
			v = float64(*pt.Value.Int64Value)
		default:
			continue
		}
		s := acc.At(id, hour)
		switch kind {
		case "cpu":
			s.CPU = v // already a fraction
		case "mem":
			s.Memory = v / 100
		case "net":
			s.NetworkBytes += v
		}
	}
}
