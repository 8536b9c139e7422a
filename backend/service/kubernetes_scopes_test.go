package service

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/report"
)

// k8sDays writes, from the two-day fixtures' first day, n days of the bill
// (the node at 20 a day, the bucket at 5) and of OpenCost allocations
// from May 1, 2026; change may alter a day's allocations (by their name).
// It returns the bill's and the allocations' paths.
func k8sDays(t *testing.T, n int, change func(day int, name string, a map[string]any)) (string, string) {
	t.Helper()
	dir := t.TempDir()
	start := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	// The bill.
	header, rows, col := csvColumns(t, k8sFixture("cur2-eks.csv"))
	out := [][]string{header}
	for d := range n {
		day := start.AddDate(0, 0, d)
		month := time.Date(day.Year(), day.Month(), 1, 0, 0, 0, 0, time.UTC)
		for _, r := range rows {
			if !strings.HasPrefix(r[col["identity_time_interval"]], "2026-05-01") {
				continue
			}
			r = append([]string(nil), r...)
			at := func(t time.Time) string { return t.Format(time.RFC3339) }
			r[col["identity_line_item_id"]] = r[col["identity_line_item_id"]] + "-" + strconv.Itoa(d)
			r[col["identity_time_interval"]] = at(day) + "/" + at(day.AddDate(0, 0, 1))
			r[col["line_item_usage_start_date"]], r[col["line_item_usage_end_date"]] = at(day), at(day.AddDate(0, 0, 1))
			r[col["bill_billing_period_start_date"]], r[col["bill_billing_period_end_date"]] = at(month), at(month.AddDate(0, 1, 0))
			out = append(out, r)
		}
	}
	bill := filepath.Join(dir, "cur.csv")
	bf, err := os.Create(bill)
	if err != nil {
		t.Fatal(err)
	}
	if err := csv.NewWriter(bf).WriteAll(out); err != nil {
		t.Fatal(err)
	}
	bf.Close()
	// The allocations.
	b, err := os.ReadFile(k8sFixture("opencost-2days.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ans struct {
		Code int                         `json:"code"`
		Data []map[string]map[string]any `json:"data"`
	}
	if err := json.Unmarshal(b, &ans); err != nil {
		t.Fatal(err)
	}
	first := ans.Data[0]
	ans.Data = nil
	for d := range n {
		day := start.AddDate(0, 0, d)
		w := map[string]map[string]any{}
		for name, a := range first {
			var c map[string]any
			raw, _ := json.Marshal(a)
			_ = json.Unmarshal(raw, &c)
			c["window"] = map[string]any{"start": day.Format(time.RFC3339), "end": day.AddDate(0, 0, 1).Format(time.RFC3339)}
			if change != nil {
				change(d, name, c)
			}
			w[name] = c
		}
		ans.Data = append(ans.Data, w)
	}
	alloc := filepath.Join(dir, "opencost.json")
	raw, _ := json.Marshal(ans)
	if err := os.WriteFile(alloc, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return bill, alloc
}

// csvColumns reads a CSV file whole: its header, rows and each column's
// position.
func csvColumns(t *testing.T, path string) ([]string, [][]string, map[string]int) {
	t.Helper()
	header, rows := readCSV(t, path)
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	return header, rows, col
}

// k8sService imports n days of k8sDays into a fresh service whose clock
// is at noon of the day after them.
func k8sService(t *testing.T, n int, change func(int, string, map[string]any)) *Service {
	t.Helper()
	s := openFresh(t, k8sConfig(t, ""))
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).AddDate(0, 0, n)
	s.now = func() time.Time { return now }
	bill, alloc := k8sDays(t, n, change)
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{bill}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportKubernetes(ctx, []string{alloc}, FormatOpenCost); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestKubernetesBudget: a budget scoped to a namespace measures the
// namespace's share of the node (twice OpenCost's price: 12 a day for
// shop), and its forecast is that of the scope.
func TestKubernetesBudget(t *testing.T) {
	s := k8sService(t, 28, nil) // May 1-28; today May 29
	ctx := adminCtx()
	tests := []struct {
		name  string
		scope config.BudgetScope
		daily float64
	}{
		{"namespace", config.BudgetScope{Namespace: "shop"}, 12},
		{"cluster and namespace", config.BudgetScope{Cluster: "prod", Namespace: "kube-system"}, 2},
		{"cluster", config.BudgetScope{Cluster: "prod"}, 20},
		{"idle", config.BudgetScope{Namespace: model.IdleValue}, 6},
		{"another cluster", config.BudgetScope{Cluster: "dev"}, 0},
		{"everything", config.BudgetScope{}, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := s.SaveBudget(ctx, 0, config.Budget{Name: tt.name, Amount: 1000, Period: "monthly", Scope: tt.scope}, "alice")
			if err != nil {
				t.Fatal(err)
			}
			st := v.Status
			if !v.Measured || st.Period != "2026-05" || !k8sNear(st.Actual, 28*tt.daily) {
				t.Fatalf("status %+v: want %g spent in May", st, 28*tt.daily)
			}
			// A flat history: the forecast of May 29-31 is three more days.
			if want := 31 * tt.daily; math.Abs(st.Projected-want) > 0.02*want+1e-9 {
				t.Errorf("projected %g, want about %g", st.Projected, want)
			}
		})
	}
	// The scope survives the store.
	all, err := s.Budgets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		if b.Status.Budget.Name == "cluster and namespace" && (b.Status.Budget.Scope.Cluster != "prod" || b.Status.Budget.Scope.Namespace != "kube-system") {
			t.Errorf("stored scope %+v", b.Status.Budget.Scope)
		}
	}
}

// TestKubernetesAllocationRules: a tag_based rule keyed on a namespace,
// a pod label or a workload gives each department its pods' shares of
// the node; idle is shared like support fees, the rest stays as it was.
func TestKubernetesAllocationRules(t *testing.T) {
	s := k8sService(t, 2, nil) // May 1-2
	ctx := adminCtx()
	period := func(r model.AllocationRules) model.AllocationRules {
		r.Method, r.Start, r.End = "tag_based", "2026-05-01", "2026-05-02"
		return r
	}
	tests := []struct {
		name  string
		rules model.AllocationRules
		want  map[string]float64
		unall float64
	}{
		// Per day: shop 12, kube-system 2, idle 6 (shared in proportion:
		// 6 × 12/14 and 6 × 2/14), the bucket 5 unallocated.
		{"namespace", model.AllocationRules{Tags: []string{"k8s:namespace"}},
			map[string]float64{"shop": 2 * (12 + 6*12.0/14), "kube-system": 2 * (2 + 6*2.0/14)}, 10},
		// team=web is the api pod (9 a day), team=data the worker (3);
		// coredns has no team label, so falls to its namespace.
		{"label then namespace", model.AllocationRules{Tags: []string{"k8s:label:team", "k8s:namespace"}},
			map[string]float64{"web": 2 * (9 + 6*9.0/14), "data": 2 * (3 + 6*3.0/14), "kube-system": 2 * (2 + 6*2.0/14)}, 10},
		{"workloads listed", model.AllocationRules{Tags: []string{"k8s:workload"}, Departments: []string{"api"}},
			map[string]float64{"api": 2 * (9 + 6)}, 10 + 2*(3+2)},
		{"cluster", model.AllocationRules{Tags: []string{"k8s:cluster"}}, map[string]float64{"prod": 40}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.AllocateCosts(ctx, period(tt.rules))
			if err != nil {
				t.Fatal(err)
			}
			ac := res.AllocatedCosts
			if !k8sNear(ac.Total, 50) || !k8sNear(ac.Unallocated, tt.unall) || len(ac.ByDepartment) != len(tt.want) {
				t.Fatalf("allocated %+v: want total 50, unallocated %g, departments %v", ac, tt.unall, tt.want)
			}
			for d, c := range tt.want {
				if math.Abs(ac.ByDepartment[d]-c) > 1e-6 {
					t.Errorf("%s gets %g, want %g", d, ac.ByDepartment[d], c)
				}
			}
		})
	}
	if _, err := s.AllocateCosts(ctx, period(model.AllocationRules{Tags: []string{"k8s:nodepool"}})); err == nil {
		t.Error("an unknown k8s: key is accepted")
	}
}

// TestKubernetesNamespaceAnomaly: the api pod's CPU cost jumps one day;
// the node's bill does not, so the provider has no spike, but namespace
// shop has, on that day.
func TestKubernetesNamespaceAnomaly(t *testing.T) {
	const spike = 32 // June 2
	s := k8sService(t, 35, func(day int, name string, a map[string]any) {
		if day == spike && strings.HasSuffix(name, "/api-7d9f-1") {
			a["cpuCost"] = 30.0
		}
	})
	list, err := s.Anomalies(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	var ns []AnomalyView
	for _, a := range list.Anomalies {
		switch a.Scope {
		case AnomalyNamespace:
			ns = append(ns, a)
		case AnomalyProvider:
			t.Errorf("provider anomaly %+v: the bill is flat", a)
		}
	}
	if len(ns) != 1 || ns[0].Namespace != "shop" || ns[0].Day != "2026-06-02" || ns[0].Provider != model.AWS {
		t.Fatalf("namespace anomalies %+v: want shop on 2026-06-02", ns)
	}
	// shop's weight that day: 30 + 1.5 + 1 + 0.5 over a node of 37,
	// billed 20; its usual 12 a day is the baseline.
	if want := 20 * 33 / 37.0; !k8sNear(ns[0].Actual, want) || !k8sNear(ns[0].Expected, 12) {
		t.Errorf("anomaly %+v: want actual %g against 12", ns[0], want)
	}
	d, err := s.Anomaly(adminCtx(), ns[0].ID)
	if err != nil || d.Anomaly.Namespace != "shop" {
		t.Errorf("detail %+v, %v", d, err)
	}
	// It alerts (a spike of the newest week) under the same id, until
	// someone acknowledges it.
	alerted := func() *model.Alert {
		alerts, err := s.Alerts(adminCtx())
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range alerts {
			if a.ID == ns[0].ID {
				return &a
			}
		}
		return nil
	}
	a := alerted()
	if a == nil || a.Kind != monitor.KindAnomaly || !strings.Contains(a.Message, "Kubernetes namespace shop") || a.Details["namespace"] != "shop" {
		t.Fatalf("alert of the namespace spike: %+v", a)
	}
	if _, err := s.DecideAnomaly(adminCtx(), ns[0].ID, AnomalyDecisionRequest{Action: "acknowledged", Reason: "load test"}, "tester"); err != nil {
		t.Fatal(err)
	}
	if a := alerted(); a != nil {
		t.Fatalf("an acknowledged namespace spike still alerts: %+v", a)
	}
}

// TestKubernetesRequestsRecommendation: every pod of the fixture uses a
// quarter of its CPU request and half its memory request; the CPU
// requests are lowered to usage + 20 %, saving 70 % of each workload's
// CPU cost (its share of the node: the api's CPU is 3 of the node's
// 10 a day, billed 20, so 6 a day).
func TestKubernetesRequestsRecommendation(t *testing.T) {
	s := k8sService(t, 2, nil) // May 1-2; today May 3
	recs, err := s.generated(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	perMonth := 730.0 / 24 / 2
	want := map[string]float64{ // the two days' CPU cost × 0.7, a month
		"prod/shop/api":            math.Round(12*0.7*perMonth*100) / 100,
		"prod/shop/worker":         math.Round(4*0.7*perMonth*100) / 100,
		"prod/kube-system/coredns": math.Round(3*0.7*perMonth*100) / 100,
	}
	got := map[string]float64{}
	for _, r := range recs {
		if r.Type != model.RecK8sRequests {
			continue
		}
		got[r.ResourceID] = r.PotentialSavings
		if r.Provider != model.AWS || r.Details["recommended_cpu_cores"] != 0.3 || r.Details["ram_savings_monthly"] != 0.0 {
			t.Errorf("%s: %+v", r.ResourceID, r)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("request recommendations %v, want %v", got, want)
	}
	for id, v := range want {
		if got[id] != v {
			t.Errorf("%s saves %g, want %g", id, got[id], v)
		}
	}
}

// TestKubernetesFOCUSExportAllocated: the FOCUS export writes each split
// node line as a row per pod (FOCUS 1.3 split cost allocation): the
// allocated rows of a line sum to it exactly, their ratios to 1, the
// idle share has no allocated resource, and the other lines are as
// before.
func TestKubernetesFOCUSExportAllocated(t *testing.T) {
	s := k8sService(t, 2, nil)
	ctx := adminCtx()
	var buf bytes.Buffer
	res, err := s.ExportFOCUS(ctx, CostRequest{Start: "2026-05-01", End: "2026-05-02"}, "", "csv", &buf)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	// The stored lines, independently: the node's and the others.
	nodeLines := map[string]model.Nanos{}
	other := map[string]model.Nanos{}
	sc := s.scope(ctx, []model.ProviderKey{model.AWS})
	sc.From, sc.To = "2026-05-01", "2026-05-02"
	if err := s.store.EachDailyLine(ctx, sc, func(l *model.CostLine, _ model.SourceKind) error {
		if l.ResourceID == "i-0aaa1111bbbb2222c" {
			nodeLines[l.Day] += l.Billed
		} else {
			other[l.ResourceID+"|"+l.Day] += l.Billed
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	allocated := map[string]model.Nanos{}
	ratios := map[string]float64{}
	rest := map[string]model.Nanos{}
	pods := 0
	for _, r := range recs[1:] {
		day := strings.TrimSuffix(r[col["ChargePeriodStart"]], "T00:00:00Z")
		billed, err := model.ParseNanos(r[col["BilledCost"]])
		if err != nil {
			t.Fatal(err)
		}
		if r[col["AllocatedMethodId"]] == "" {
			if r[col["AllocatedMethodDetails"]] != "" || r[col["AllocatedTags"]] != "" {
				t.Errorf("a whole line has allocation cells: %v", r)
			}
			rest[r[col["ResourceId"]]+"|"+day] += billed
			continue
		}
		if r[col["ResourceId"]] != "i-0aaa1111bbbb2222c" || r[col["AllocatedMethodId"]] != K8sAllocationMethod+"opencost" {
			t.Fatalf("allocated row %v", r)
		}
		allocated[day] += billed
		var det struct {
			Elements []struct{ AllocatedRatio float64 }
		}
		if err := json.Unmarshal([]byte(r[col["AllocatedMethodDetails"]]), &det); err != nil || len(det.Elements) != 1 {
			t.Fatalf("AllocatedMethodDetails %q: %v", r[col["AllocatedMethodDetails"]], err)
		}
		ratios[day] += det.Elements[0].AllocatedRatio
		var tags map[string]string
		if err := json.Unmarshal([]byte(r[col["AllocatedTags"]]), &tags); err != nil {
			t.Fatal(err)
		}
		switch id := r[col["AllocatedResourceId"]]; id {
		case "":
			if tags["k8s:namespace"] != model.IdleValue || r[col["AllocatedResourceName"]] != "" {
				t.Errorf("idle row %v", r)
			}
		case "prod/shop/api-7d9f-1":
			pods++
			if r[col["AllocatedResourceName"]] != "api-7d9f-1" || tags["k8s:label:team"] != "web" || tags["k8s:workload"] != "api" ||
				!k8sNear(det.Elements[0].AllocatedRatio, 0.45) || billed != model.NanosFromFloat(9) {
				t.Errorf("api row %v", r)
			}
		default:
			pods++
		}
	}
	for day, n := range nodeLines {
		if allocated[day] != n || !k8sNear(ratios[day], 1) {
			t.Errorf("%s: allocated rows sum to %s (ratios %g), the node's line is %s", day, allocated[day], ratios[day], n)
		}
	}
	if len(nodeLines) != 2 || pods != 6 || res.Rows != int64(len(recs)-1) {
		t.Errorf("node days %v, %d pod rows, %d rows said for %d", nodeLines, pods, res.Rows, len(recs)-1)
	}
	for k, n := range other {
		if rest[k] != n {
			t.Errorf("%s: %s in the export, %s stored", k, rest[k], n)
		}
	}
	if len(rest) != len(other) {
		t.Errorf("whole lines %v, stored %v", rest, other)
	}
	// Parquet writes the same rows.
	var pq bytes.Buffer
	if pres, err := s.ExportFOCUS(ctx, CostRequest{Start: "2026-05-01", End: "2026-05-02"}, "", "parquet", &pq); err != nil ||
		pres.Rows != res.Rows || checkParquet12(t, pq.Bytes()) != len(recs)-1 {
		t.Errorf("parquet %+v, %v", pres, err)
	}
}

// TestKubernetesGKELabels: the GKE cost allocation rows of a Google Cloud
// billing export (imported as the bill too) give each namespace the sum
// of its rows, kube:unallocated is idle, the bucket is (none), the total
// is the bill's; workloads and pod labels group too.
func TestKubernetesGKELabels(t *testing.T) {
	cfg, err := config.Parse([]byte("gcp: {enabled: true, source: export, export_paths: [x]}\n"), "gke.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := openFresh(t, cfg)
	ctx := adminCtx()
	path := k8sFixture("gcp-gke.csv")
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := s.ImportKubernetes(ctx, []string{path}, FormatGKE)
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Files[0]; f.Assets != 2 || f.Matched != 2 || f.From != "2026-05-01" || f.To != "2026-05-02" {
		t.Fatalf("import %+v: want the node and the disk, both billed", f)
	}
	// The independent computation: cost by k8s-namespace label.
	_, rows, col := csvColumns(t, path)
	want, bill := map[string]float64{}, 0.0
	for _, r := range rows {
		c, _ := strconv.ParseFloat(r[col["cost"]], 64)
		bill += c
		var kv []struct{ Key, Value string }
		if err := json.Unmarshal([]byte(r[col["labels"]]), &kv); err != nil {
			t.Fatal(err)
		}
		ns := model.NoValue
		for _, x := range kv {
			if x.Key == "goog-k8s-cluster-name" && ns == model.NoValue {
				ns = model.IdleValue // the cluster's rows without a namespace
			}
			if x.Key == "k8s-namespace" {
				ns = x.Value
			}
		}
		if ns == "kube:unallocated" {
			ns = model.IdleValue
		}
		want[ns] += c
	}
	got, total := namespaceCosts(t, s)
	if !k8sNear(total, bill) || len(got) != len(want) || len(want) != 5 {
		t.Fatalf("groups %v total %g; the rows say %v, %g", got, total, want, bill)
	}
	for ns, c := range want {
		if !k8sNear(got[ns], c) {
			t.Errorf("namespace %s costs %g, the rows say %g", ns, got[ns], c)
		}
	}
	// Workloads and labels: api is 8 a day, team=web likewise.
	for _, g := range []struct{ by, key string }{{"workload", "api"}, {"label:team", "web"}, {"cluster", "prod"}} {
		q, _ := s.CostQuery(CostRequest{Start: "2026-05-01", End: "2026-05-02", GroupBy: g.by})
		a, err := s.AnalyzeCosts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		wantCost := 16.0
		if g.by == "cluster" {
			wantCost = 2 * 17.5
		}
		found := false
		for _, x := range a.Summary.Groups {
			if x.Key == g.key {
				found = true
				if !k8sNear(x.Cost, wantCost) {
					t.Errorf("%s %s costs %g, want %g", g.by, g.key, x.Cost, wantCost)
				}
			}
		}
		if !found {
			t.Errorf("no %s %s in %+v", g.by, g.key, a.Summary.Groups)
		}
	}
}

// TestKubernetesReportOfANamespaceView: a report that follows a saved
// view filtered to a namespace holds that namespace's share of its node,
// as the API answers for the same filter.
func TestKubernetesReportOfANamespaceView(t *testing.T) {
	s := openFresh(t, k8sConfig(t, ""))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{k8sFixture("cur2-eks.csv")}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportKubernetes(ctx, []string{k8sFixture("opencost-2days.json")}, FormatOpenCost); err != nil {
		t.Fatal(err)
	}
	spec := model.ViewSpec{Start: "2026-05-01", End: "2026-05-02", Filters: map[string][]string{"namespace": {"kube-system"}}}
	if _, err := s.SaveView(ctx, "kube-system", spec, "tester", false); err != nil {
		t.Fatal(err)
	}
	api, err := s.Costs(ctx, CostRequest{Start: "2026-05-01", End: "2026-05-02", Filters: spec.Filters})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.GenerateReport(ctx, model.ReportRequest{Type: model.ReportSummary, Format: model.FormatJSON, View: "kube-system"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	var d report.Data
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if got := d.Analysis.Summary.TotalCost; !k8sNear(got, 4) || got != api.Summary.TotalCost {
		t.Errorf("the report of the kube-system view totals %g; the API %g; want 4", got, api.Summary.TotalCost)
	}
}
