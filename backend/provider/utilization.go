package provider

import (
	"sort"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Hourly gathers a cloud's metric points into one utilization sample per
// resource and hour. A sample starts with CPU and memory unknown (-1), so
// a metric no point reached stays unknown rather than reading as idle.
type Hourly map[string]map[time.Time]*model.UtilizationSample

// At is the sample of resource id at hour t (truncated by the caller),
// made on first use.
func (h Hourly) At(id string, t time.Time) *model.UtilizationSample {
	if h[id] == nil {
		h[id] = map[time.Time]*model.UtilizationSample{}
	}
	s := h[id][t]
	if s == nil {
		s = &model.UtilizationSample{ResourceID: id, Time: t, CPU: -1, Memory: -1}
		h[id][t] = s
	}
	return s
}

// Samples are the samples with a CPU reading, by resource and then time:
// an hour without one tells the rightsizing rules nothing.
func (h Hourly) Samples() []model.UtilizationSample {
	var out []model.UtilizationSample
	for _, byTime := range h {
		for _, s := range byTime {
			if s.CPU >= 0 {
				out = append(out, *s)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ResourceID != out[j].ResourceID {
			return out[i].ResourceID < out[j].ResourceID
		}
		return out[i].Time.Before(out[j].Time)
	})
	return out
}
