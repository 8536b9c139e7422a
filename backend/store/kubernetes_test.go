package store

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/kubernetes"
	"github.com/costpilot/costpilot/backend/model"
)

const (
	k8sNode  = "i-0aaa1111bbbb2222c"
	k8sNode2 = "i-0ccc3333dddd4444e" // never billed
)

// k8sBill is two days of a node billed 20 a day (as an ARN, the FOCUS
// spelling) and a bucket billed 5 a day.
func k8sBill() model.Batch {
	var lines []model.CostLine
	for _, day := range []string{"2026-03-01", "2026-03-02"} {
		n := tagLine(day, "arn:aws:ec2:eu-west-1:123:instance/"+k8sNode, nil, 20*model.NanosPerUnit)
		b := tagLine(day, "bucket-1", nil, 5*model.NanosPerUnit)
		b.Service = "S3"
		lines = append(lines, n, b)
	}
	return model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-03-01", To: "2026-03-02", Lines: lines}
}

// k8sSet is OpenCost's view of the two days: on the node, namespace a
// costs 5, b 3 and idle 2 a day (10 in all: half the bill); on the
// unbilled node, c costs 4.
func k8sSet(days ...model.DayNum) kubernetes.Set {
	set := kubernetes.Set{Origin: kubernetes.OriginOpenCost}
	node := func(id string, w float64) []kubernetes.Part {
		return []kubernetes.Part{{Kind: kubernetes.AssetNode, Name: "n-" + id, ProviderID: "aws:///eu-west-1a/" + id,
			Weight: w, Price: model.NanosFromFloat(w)}}
	}
	for _, d := range days {
		set.AddDay("prod", d)
		set.Allocations = append(set.Allocations,
			kubernetes.Allocation{Day: d, Cluster: "prod", Namespace: "a", Workload: "api", Pod: "api-1", Currency: "USD",
				Labels: map[string]string{"team": "web"}, Parts: node(k8sNode, 5), CPURequest: 2, CPUUsage: 1},
			kubernetes.Allocation{Day: d, Cluster: "prod", Namespace: "b", Workload: "db", Pod: "db-0", Currency: "USD", Parts: node(k8sNode, 3)},
			kubernetes.Allocation{Day: d, Cluster: "prod", Namespace: model.IdleValue, Workload: model.IdleValue, Pod: model.IdleValue,
				Idle: true, Currency: "USD", Parts: node(k8sNode, 2)},
			kubernetes.Allocation{Day: d, Cluster: "prod", Namespace: "c", Workload: "job", Pod: "job-1", Currency: "USD", Parts: node(k8sNode2, 4)})
	}
	return set
}

func k8sDays() []model.DayNum {
	a, _ := model.ParseDayNum("2026-03-01")
	return []model.DayNum{a, a + 1}
}

func k8sScope() Scope {
	return Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport}, From: "2026-03-01", To: "2026-03-02"}
}

// groupText renders group sums as "value=amount" sorted, "" as (none).
func groupText(t *testing.T, sums []GroupSum, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]model.Nanos{}
	for _, g := range sums {
		v := g.Value
		if v == "" {
			v = model.NoValue
		}
		m[v] += g.Amount
	}
	var out []string
	for v, a := range m {
		out = append(out, fmt.Sprintf("%s=%g", v, a.Float64()))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestK8sSplitReconciles: the node's bill (twice OpenCost's price) is
// split in OpenCost's proportions, idle included, whichever comes first,
// the bill or the allocations; the unbilled node's allocation keeps its
// price; the rest of the bill is (none); re-importing a day replaces it.
func TestK8sSplitReconciles(t *testing.T) {
	ctx := context.Background()
	for _, billFirst := range []bool{true, false} {
		t.Run(fmt.Sprint("billFirst=", billFirst), func(t *testing.T) {
			s := openTest(t)
			steps := []func() error{
				func() error { return s.ReplaceHistory(ctx, k8sBill()) },
				func() error { _, err := s.ReplaceK8s(ctx, k8sSet(k8sDays()...)); return err },
			}
			if !billFirst {
				steps[0], steps[1] = steps[1], steps[0]
			}
			for _, st := range steps {
				if err := st(); err != nil {
					t.Fatal(err)
				}
			}
			sc := k8sScope()
			want := "(idle)=8 (none)=10 a=20 b=12 c=8"
			sums, err := s.GroupSums(ctx, sc, model.MetricBilled, model.DimNamespace)
			if got := groupText(t, sums, err); got != want {
				t.Errorf("by namespace (rollup) = %s, want %s", got, want)
			}
			// The same from the splits themselves (a service filter
			// leaves the rollup; estimates need a scope of sources only).
			ec2 := sc
			ec2.Service = "EC2"
			sums, err = s.GroupSums(ctx, ec2, model.MetricBilled, model.DimNamespace)
			if got := groupText(t, sums, err); got != "(idle)=8 a=20 b=12" {
				t.Errorf("EC2 by namespace = %s", got)
			}
			sums, err = s.GroupSums(ctx, sc, model.MetricBilled, model.DimWorkload)
			if got := groupText(t, sums, err); got != "(idle)=8 (none)=10 api=20 db=12 job=8" {
				t.Errorf("by workload = %s", got)
			}
			sums, err = s.GroupSums(ctx, sc, model.MetricBilled, model.LabelDimension("team"))
			if got := groupText(t, sums, err); got != "(idle)=8 (none)=30 web=20" {
				t.Errorf("by label team = %s", got)
			}
			// A namespace filter keeps its share of the node's lines.
			fa := sc
			fa.Filters = []model.Filter{{Dim: model.DimNamespace, Values: []string{"a"}}}
			sums, err = s.GroupSums(ctx, fa, model.MetricBilled, model.DimService)
			if got := groupText(t, sums, err); got != "EC2=20" {
				t.Errorf("namespace a by service = %s", got)
			}
			// Drilling into a cluster reads the rollup; the join agrees.
			fc := sc
			fc.Filters = []model.Filter{{Dim: model.DimCluster, Values: []string{"prod"}}}
			sums, err = s.GroupSums(ctx, fc, model.MetricBilled, model.DimNamespace)
			if got := groupText(t, sums, err); got != "(idle)=8 a=20 b=12 c=8" {
				t.Errorf("cluster prod by namespace = %s", got)
			}
			sums, err = s.GroupSums(ctx, fc, model.MetricBilled, model.DimPod)
			if got := groupText(t, sums, err); got != "(idle)=8 api-1=20 db-0=12 job-1=8" {
				t.Errorf("cluster prod by pod = %s", got)
			}
			fn := sc
			fn.Filters = []model.Filter{{Dim: model.DimNamespace, Values: []string{model.NoValue}}}
			sums, err = s.GroupSums(ctx, fn, model.MetricBilled, model.DimService)
			if got := groupText(t, sums, err); got != "S3=10" {
				t.Errorf("outside kubernetes by service = %s", got)
			}
			days, err := s.GroupDaySums(ctx, sc, model.MetricBilled, model.DimNamespace, []string{"a", model.NoValue})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range days {
				got = append(got, fmt.Sprintf("%s %s=%g", d.Day, analysisKey(d.Value), d.Amount.Float64()))
			}
			sort.Strings(got)
			if strings.Join(got, ", ") != "2026-03-01 (none)=5, 2026-03-01 a=10, 2026-03-02 (none)=5, 2026-03-02 a=10" {
				t.Errorf("daily = %v", got)
			}
			// Day 1 again, namespace a alone: it gets the node's whole day.
			one := kubernetes.Set{Origin: kubernetes.OriginOpenCost}
			one.AddDay("prod", k8sDays()[0])
			one.Allocations = k8sSet(k8sDays()[0]).Allocations[:1]
			if _, err := s.ReplaceK8s(ctx, one); err != nil {
				t.Fatal(err)
			}
			sums, err = s.GroupSums(ctx, sc, model.MetricBilled, model.DimNamespace)
			if got := groupText(t, sums, err); got != "(idle)=4 (none)=10 a=30 b=6 c=4" {
				t.Errorf("after re-import = %s", got)
			}
		})
	}
}

// TestK8sFollowsRestatedBill: a bill imported again with new amounts
// moves every split with it (the shares stay, the amounts are the bill's),
// and when the history is deleted every allocation is an estimate.
func TestK8sFollowsRestatedBill(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	if err := s.ReplaceHistory(ctx, k8sBill()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReplaceK8s(ctx, k8sSet(k8sDays()...)); err != nil {
		t.Fatal(err)
	}
	bill := k8sBill()
	for i := range bill.Lines {
		if bill.Lines[i].Service == "EC2" {
			bill.Lines[i].Billed *= 2
		}
	}
	if err := s.ReplaceHistory(ctx, bill); err != nil {
		t.Fatal(err)
	}
	sums, err := s.GroupSums(ctx, k8sScope(), model.MetricBilled, model.DimNamespace)
	if got := groupText(t, sums, err); got != "(idle)=16 (none)=10 a=40 b=24 c=8" {
		t.Errorf("after the bill doubled = %s", got)
	}
	sums, err = s.GroupSums(ctx, k8sScope(), model.MetricBilled, model.DimPod)
	if got := groupText(t, sums, err); got != "(idle)=16 (none)=10 api-1=40 db-0=24 job-1=8" {
		t.Errorf("by pod after the bill doubled = %s", got)
	}
	// A second cluster, imported twice: the totals over all clusters
	// take its rows in and out.
	for _, w := range []float64{3, 1} {
		st := kubernetes.Set{Origin: kubernetes.OriginOpenCost}
		for _, d := range k8sDays() {
			st.AddDay("stage", d)
			st.Allocations = append(st.Allocations, kubernetes.Allocation{Day: d, Cluster: "stage", Namespace: "a", Workload: "api",
				Pod: "api-s", Currency: "USD", Parts: []kubernetes.Part{{Kind: kubernetes.AssetNode, Name: "s1",
					ProviderID: "aws:///z/i-0eee5555ffff6666a", Weight: w, Price: model.NanosFromFloat(w)}}})
		}
		if _, err := s.ReplaceK8s(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	sums, err = s.GroupSums(ctx, k8sScope(), model.MetricBilled, model.DimNamespace)
	if got := groupText(t, sums, err); got != "(idle)=16 (none)=10 a=42 b=24 c=8" {
		t.Errorf("with a second cluster = %s", got)
	}
	sums, err = s.GroupSums(ctx, k8sScope(), model.MetricBilled, model.DimCluster)
	if got := groupText(t, sums, err); got != "(none)=10 prod=88 stage=2" {
		t.Errorf("by cluster = %s", got)
	}
	if err := s.DeleteHistory(ctx, model.AWS, model.SourceExport); err != nil {
		t.Fatal(err)
	}
	sums, err = s.GroupSums(ctx, k8sScope(), model.MetricBilled, model.DimNamespace)
	if got := groupText(t, sums, err); got != "(idle)=4 a=12 b=6 c=8" {
		t.Errorf("after the history is deleted = %s", got)
	}
}
