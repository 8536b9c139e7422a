package recommend

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// bursty makes a fleet of n machines of one type, each at dayCPU from 08:00
// to 20:00 UTC and nightCPU otherwise (on weekends too unless quietWeekend).
func bursty(p model.ProviderKey, group, region, typ string, n int, dayCPU, nightCPU float64, quietWeekend bool) ([]model.Resource, []model.UtilizationSample) {
	var res []model.Resource
	var util []model.UtilizationSample
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%s-%d", group, i)
		r := machine(p, id, region, typ, 0)
		r.Group = group
		res = append(res, r)
		util = append(util, hourly(id, 28, func(ts time.Time) (float64, float64, float64) {
			weekend := ts.Weekday() == time.Saturday || ts.Weekday() == time.Sunday
			if ts.Hour() >= 8 && ts.Hour() < 20 && (!quietWeekend || !weekend) {
				return dayCPU, 0.5, 1e9
			}
			return nightCPU, 0.5, 1e9
		})...)
	}
	return res, util
}

// TestAutoscalingHandComputed: six m5.large ($0.096/h) at 50 % by day and
// 10 % by night carry 3.0 and 0.6 instances of work. At the 80 % target the
// day needs ceil(3.0/0.8) = 4 and the night 1: min 1, max 4, a daily 08-20
// minimum of 4. Average 2.5 instances instead of 6: savings
// (6 - 2.5) * 0.096 * 730 = $245.28, medium priority.
func TestAutoscalingHandComputed(t *testing.T) {
	res, util := bursty(model.AWS, "web-asg", "us-east-1", "m5.large", 6, 0.5, 0.1, false)
	recs := AnalyzeProvider(model.AWS, Input{Inventory: []model.Inventory{{Provider: model.AWS, Resources: res, Utilization: util}}}, defaultOptions)
	var got []model.Recommendation
	for _, r := range recs {
		if r.Type == model.RecCommitment {
			continue // the always-on fleet is also a commitment baseline
		}
		got = append(got, r)
	}
	if len(got) != 1 || got[0].Type != model.RecAutoscaling {
		t.Fatalf("got %+v, want one autoscaling (members are not rightsized separately)", got)
	}
	rec := got[0]
	if rec.ResourceID != "web-asg" || rec.PotentialSavings != 245.28 || rec.Priority != model.PriorityMedium {
		t.Errorf("got %s savings %v priority %s", rec.ResourceID, rec.PotentialSavings, rec.Priority)
	}
	want := ScalingPolicy{Min: 1, Max: 4, TargetUtilization: 0.8,
		Schedule: []ScheduleRule{{Days: DaysDaily, StartHour: 8, EndHour: 20, MinInstances: 4}}}
	if p := rec.Details["policy"].(ScalingPolicy); !reflect.DeepEqual(p, want) {
		t.Errorf("policy %+v, want %+v", p, want)
	}
}

func TestOptimizeScalingPolicy(t *testing.T) {
	_, weekly := bursty(model.AWS, "batch", "us-east-1", "m5.large", 4, 0.6, 0.1, true)
	_, flat := bursty(model.AWS, "flat", "us-east-1", "m5.large", 4, 0.3, 0.3, false)
	tests := []struct {
		name    string
		policy  ScalingPolicy
		metrics []model.UtilizationSample
		want    ScalingPolicy
	}{
		{
			// Weekdays by day: 4 * 0.6 = 2.4 -> ceil(2.4/0.6) = 4; otherwise
			// 0.4 -> 1. Weekends need no schedule.
			name:    "weekly pattern",
			policy:  ScalingPolicy{Min: 4, Max: 4, TargetUtilization: 0.6},
			metrics: weekly,
			want: ScalingPolicy{Min: 1, Max: 4, TargetUtilization: 0.6,
				Schedule: []ScheduleRule{{Days: DaysWeekdays, StartHour: 8, EndHour: 20, MinInstances: 4}}},
		},
		{
			// 4 * 0.3 = 1.2 every hour at the default 60 % target -> 2.
			name:    "flat load, default target",
			policy:  ScalingPolicy{Min: 4, Max: 8},
			metrics: flat,
			want:    ScalingPolicy{Min: 2, Max: 2, TargetUtilization: DefaultTargetUtilization},
		},
		{
			name:    "no metrics keeps the policy",
			policy:  ScalingPolicy{Min: 2, Max: 5, TargetUtilization: 0.7},
			metrics: nil,
			want:    ScalingPolicy{Min: 2, Max: 5, TargetUtilization: 0.7},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OptimizeScalingPolicy(tt.policy, tt.metrics); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestFlatFleetIsRightsizedNotScaled: without a pattern, members are
// analyzed one by one.
func TestFlatFleetIsRightsizedNotScaled(t *testing.T) {
	res, util := bursty(model.AWS, "flat", "us-east-1", "m5.2xlarge", 3, 0.1, 0.1, false)
	recs := AnalyzeProvider(model.AWS, Input{Inventory: []model.Inventory{{Provider: model.AWS, Resources: res, Utilization: util}}}, defaultOptions)
	if n := countType(recs, model.RecAutoscaling); n != 0 {
		t.Errorf("%d autoscaling recommendations for a flat fleet", n)
	}
	if n := countType(recs, model.RecRightsizing); n != 3 {
		t.Errorf("%d rightsizing recommendations, want 3", n)
	}
}
