package prometheus

import (
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// Assign keeps the samples of the resources listed, renamed to each
// resource's id as listed (ids match ignoring case: Azure lower-cases
// them, labels may not), and gives a resource without a type the one
// the type label named. It returns the samples kept and how many
// resource ids of the result matched no resource.
func Assign(res Result, resources []model.Resource) ([]model.UtilizationSample, int) {
	byID := make(map[string]int, len(resources))
	for i, r := range resources {
		byID[strings.ToLower(r.ResourceID)] = i
	}
	var out []model.UtilizationSample
	unknown := map[string]bool{}
	for _, smp := range res.Samples {
		i, ok := byID[strings.ToLower(smp.ResourceID)]
		if !ok {
			unknown[strings.ToLower(smp.ResourceID)] = true
			continue
		}
		smp.ResourceID = resources[i].ResourceID
		out = append(out, smp)
	}
	for id, t := range res.Types {
		if i, ok := byID[strings.ToLower(id)]; ok && resources[i].InstanceType == "" {
			resources[i].InstanceType = t
		}
	}
	return out, len(unknown)
}

// Overlay puts samples over base: where both have a resource's hour, the
// sample of over wins (Prometheus reads memory, which most clouds'
// metrics lack); the hours only base has are kept.
func Overlay(base, over []model.UtilizationSample) []model.UtilizationSample {
	type key struct {
		id string
		t  int64
	}
	have := make(map[key]bool, len(over))
	for _, s := range over {
		have[key{s.ResourceID, s.Time.Truncate(step).Unix()}] = true
	}
	out := make([]model.UtilizationSample, 0, len(base)+len(over))
	for _, s := range base {
		if !have[key{s.ResourceID, s.Time.Truncate(step).Unix()}] {
			out = append(out, s)
		}
	}
	return append(out, over...)
}
