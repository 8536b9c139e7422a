package store

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/kubernetes"
	"github.com/costpilot/costpilot/backend/model"
)

// BenchmarkK8sYear is the Kubernetes benchmark of docs/benchmarks.md: a
// year's bill of the nodes of 100 clusters (10 nodes each), then a year
// of OpenCost allocations of 200 pods per cluster in 10 namespaces (plus
// each node's idle share: 7.67 M splits), imported cluster by cluster,
// then the year by namespace, a cluster's namespaces, workloads and
// pods, and the top namespaces' monthly series.
// COSTPILOT_K8S_BENCH_CLUSTERS sets another number of clusters. The
// import is timed once and reported as a metric.
func BenchmarkK8sYear(b *testing.B) {
	clusters := 100
	if v, err := strconv.Atoi(os.Getenv("COSTPILOT_K8S_BENCH_CLUSTERS")); err == nil && v > 0 {
		clusters = v
	}
	const nodes, pods, namespaces, days = 10, 200, 10, 365
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	first := model.DayOf(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	nodeID := func(c, n int) string { return fmt.Sprintf("i-%017x", c*nodes+n+1) }
	keys := make([]model.CostLine, clusters*nodes)
	for i := range keys {
		keys[i] = model.CostLine{Provider: model.AWS, BillingAccount: "acct", Service: "EC2", Region: "eu-west-1",
			ResourceID: nodeID(i/nodes, i%nodes), ChargeCategory: "Usage", Currency: "USD"}
	}
	facts := &model.Facts{Keys: keys, N: int64(len(keys) * days), Each: func(yield func(model.Fact) error) error {
		for k := range keys {
			for d := range days {
				n := model.Nanos(int64(20+k%7) * model.NanosPerUnit)
				if err := yield(model.Fact{Key: int32(k), Day: first + model.DayNum(d), Billed: n, Effective: n, List: n}); err != nil {
					return err
				}
			}
		}
		return nil
	}}
	start := time.Now()
	if _, err := s.ApplyHistory(ctx, false, model.Batch{Provider: model.AWS, Source: model.SourceExport, From: first.String(),
		To: (first + days - 1).String(), Facts: facts}); err != nil {
		b.Fatal(err)
	}
	bill := time.Since(start)
	start = time.Now()
	splits := 0
	for c := range clusters {
		name := fmt.Sprintf("cluster-%03d", c)
		set := kubernetes.Set{Origin: kubernetes.OriginOpenCost}
		set.AddDay(name, first)
		set.AddDay(name, first+days-1)
		for d := range days {
			day := first + model.DayNum(d)
			for n := range nodes {
				part := func(w float64) []kubernetes.Part {
					return []kubernetes.Part{{Kind: kubernetes.AssetNode, Name: fmt.Sprintf("node-%d", n),
						ProviderID: "aws:///eu-west-1a/" + nodeID(c, n), Weight: w, Price: model.NanosFromFloat(w)}}
				}
				for p := n * pods / nodes; p < (n+1)*pods/nodes; p++ {
					ns := fmt.Sprintf("ns-%d", p%namespaces)
					set.Allocations = append(set.Allocations, kubernetes.Allocation{Day: day, Cluster: name, Namespace: ns,
						Workload: fmt.Sprintf("%s-app-%d", ns, p%20), Pod: fmt.Sprintf("pod-%d", p), Currency: "USD",
						Parts: part(0.4 + float64(p%5)/10), CPURequest: 0.5, CPUUsage: 0.2})
				}
				set.Allocations = append(set.Allocations, kubernetes.Allocation{Day: day, Cluster: name, Namespace: model.IdleValue,
					Workload: model.IdleValue, Pod: model.IdleValue, Idle: true, Currency: "USD", Parts: part(2)})
			}
		}
		splits += len(set.Allocations)
		if _, err := s.ReplaceK8s(ctx, set); err != nil {
			b.Fatal(err)
		}
	}
	imported := time.Since(start)
	sc := Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport},
		From: first.String(), To: (first + days - 1).String()}
	b.Logf("%d clusters: bill of %d node-days written in %v; %d allocations imported in %v", clusters, len(keys)*days, bill, splits, imported)
	b.ReportMetric(imported.Seconds(), "import-s")
	b.Run("year-by-namespace", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.GroupSums(ctx, sc, model.MetricBilled, model.DimNamespace); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("year-by-namespace-monthly-top10", func(b *testing.B) {
		top := []string{model.IdleValue, "ns-0", "ns-1", "ns-2", "ns-3", "ns-4", "ns-5", "ns-6", "ns-7", model.NoValue}
		for b.Loop() {
			if _, err := s.GroupMonthSums(ctx, sc, model.MetricBilled, model.DimNamespace, top); err != nil {
				b.Fatal(err)
			}
		}
	})
	cl := sc
	cl.Filters = []model.Filter{{Dim: model.DimCluster, Values: []string{"cluster-003"}}}
	b.Run("year-one-cluster-by-namespace", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.GroupSums(ctx, cl, model.MetricBilled, model.DimNamespace); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, d := range []model.Dimension{model.DimWorkload, model.DimPod} {
		b.Run("year-one-cluster-by-"+string(d), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.GroupSums(ctx, cl, model.MetricBilled, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
