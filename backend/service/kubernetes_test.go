package service

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

func k8sFixture(name string) string { return filepath.Join("testdata", "kubernetes", name) }

// k8sConfig is an AWS export source and, when url is set, a live cluster.
func k8sConfig(t *testing.T, url string) *config.Config {
	t.Helper()
	y := "aws: {enabled: true, source: export, region: eu-west-1, export_paths: [x]}\n"
	if url != "" {
		y += "kubernetes: {days: 45, clusters: [{name: prod, opencost_url: '" + url + "'}]}\n"
	}
	cfg, err := config.Parse([]byte(y), "k8s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// openCostNamespaces sums an OpenCost answer's totalCost by namespace
// (idle as model.IdleValue), read independently of the parser.
func openCostNamespaces(t *testing.T, path string) map[string]float64 {
	t.Helper()
	var ans struct {
		Data []map[string]struct {
			Name       string `json:"name"`
			TotalCost  float64
			Properties struct{ Namespace string }
		} `json:"data"`
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ans); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, w := range ans.Data {
		for _, a := range w {
			ns := a.Properties.Namespace
			if strings.HasSuffix(a.Name, "__idle__") {
				ns = model.IdleValue
			}
			out[ns] += a.TotalCost
		}
	}
	return out
}

// namespaceCosts is the May 1-2 analysis grouped by namespace: the
// groups by key, and the total.
func namespaceCosts(t *testing.T, s *Service) (map[string]float64, float64) {
	t.Helper()
	q, err := s.CostQuery(CostRequest{Start: "2026-05-01", End: "2026-05-02", GroupBy: "namespace"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.AnalyzeCosts(adminCtx(), q)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, g := range a.Summary.Groups {
		out[g.Key] += g.Cost
	}
	return out, a.Summary.TotalCost
}

func k8sNear(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// checkTwice: the node costs twice OpenCost's list price, so every
// namespace, idle included, gets twice its OpenCost cost; the bucket is
// (none); the groups add up to the bill.
func checkTwice(t *testing.T, s *Service) {
	t.Helper()
	want := openCostNamespaces(t, k8sFixture("opencost-2days.json"))
	got, total := namespaceCosts(t, s)
	sum := 0.0
	for _, v := range got {
		sum += v
	}
	if !k8sNear(total, 50) || !k8sNear(sum, total) {
		t.Errorf("total %g, groups add up to %g; the bill is 50", total, sum)
	}
	for ns, c := range want {
		if !k8sNear(got[ns], 2*c) {
			t.Errorf("namespace %s costs %g, want twice OpenCost's %g", ns, got[ns], c)
		}
	}
	if !k8sNear(got[model.NoValue], 10) || len(got) != len(want)+1 {
		t.Errorf("groups %v: want OpenCost's namespaces and (none) = 10 (the bucket)", got)
	}
}

func TestKubernetesOpenCostImportReconciles(t *testing.T) {
	s := openFresh(t, k8sConfig(t, ""))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{k8sFixture("cur2-eks.csv")}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // importing the same window again replaces it
		res, err := s.ImportKubernetes(ctx, []string{k8sFixture("opencost-2days.json")}, FormatOpenCost)
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Files[0]; f.Assets != 1 || f.Matched != 1 || f.From != "2026-05-01" || f.To != "2026-05-02" {
			t.Fatalf("import = %+v", f)
		}
		checkTwice(t, s)
	}
	events, err := s.AuditLog(ctx, 10)
	if err != nil || len(events) == 0 || events[0].Event != AuditImport || events[0].Details["format"] != FormatOpenCost {
		t.Errorf("audit log %+v, %v: want the import first", events, err)
	}
	// A namespace filter keeps the namespace's share of the node.
	q, _ := s.CostQuery(CostRequest{Start: "2026-05-01", End: "2026-05-02", GroupBy: "service",
		Filters: map[string][]string{"namespace": {"kube-system"}}})
	a, err := s.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !k8sNear(a.Summary.TotalCost, 4) {
		t.Errorf("kube-system alone costs %g, want 4", a.Summary.TotalCost)
	}
	// A pod label groups too.
	q, _ = s.CostQuery(CostRequest{Start: "2026-05-01", End: "2026-05-02", GroupBy: "label:team"})
	if a, err = s.AnalyzeCosts(ctx, q); err != nil {
		t.Fatal(err)
	}
	for _, g := range a.Summary.Groups {
		if g.Key == "web" && !k8sNear(g.Cost, 18) {
			t.Errorf("label team=web costs %g, want 18", g.Cost)
		}
	}
}

func TestKubernetesUnbilledNodeIsEstimated(t *testing.T) {
	s := openFresh(t, k8sConfig(t, ""))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{k8sFixture("cur2-eks.csv")}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportKubernetes(ctx, []string{k8sFixture("opencost-unbilled.json")}, FormatOpenCost); err != nil {
		t.Fatal(err)
	}
	got, total := namespaceCosts(t, s)
	if !k8sNear(got["batch"], 4) || !k8sNear(total, 50) || !k8sNear(got[model.NoValue], 50) {
		t.Errorf("groups %v total %g: the unbilled node's namespace keeps OpenCost's 4, beside the bill's 50", got, total)
	}
	q, _ := s.CostQuery(CostRequest{Start: "2026-05-01", End: "2026-05-02", GroupBy: "namespace"})
	a, err := s.AnalyzeCosts(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range a.Summary.Notices {
		found = found || (n.Kind == model.NoticeK8sEstimated && strings.Contains(n.Message, "4.00"))
	}
	if !found {
		t.Errorf("notices %+v: want the estimate of 4 said", a.Summary.Notices)
	}
	ov, err := s.KubernetesOverview(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	if len(ov.Clusters) != 1 || ov.Clusters[0].Name != "edge" || ov.Clusters[0].Matched != 0 || ov.Clusters[0].EstimatedDays != 2 {
		t.Errorf("clusters = %+v, want edge with 2 estimated node-days", ov.Clusters)
	}
}

func TestKubernetesLiveOpenCost(t *testing.T) {
	body, err := os.ReadFile(k8sFixture("opencost-2days.json"))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path != "/allocation" || q.Get("step") != "1d" || q.Get("aggregate") != "cluster,node,namespace,controller,pod" ||
			q.Get("includeIdle") != "true" || q.Get("idleByNode") != "true" || !strings.Contains(q.Get("window"), ",") {
			http.Error(w, "unexpected query "+r.URL.String(), http.StatusBadRequest)
			return
		}
		calls++
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	s := openFresh(t, k8sConfig(t, srv.URL))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{k8sFixture("cur2-eks.csv")}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		res, err := s.SyncKubernetes(ctx, "")
		if err != nil || len(res) != 1 || res[0].Error != "" || res[0].Matched != 1 {
			t.Fatalf("sync %d = %+v, %v", i, res, err)
		}
		checkTwice(t, s)
	}
	// The second sync starts at the day the first ended.
	if last, _ := s.store.K8sSynced(ctx, "prod"); last != testNow.Format(model.DateLayout) || calls != 2 {
		t.Errorf("synced through %q after %d calls", last, calls)
	}
	if _, err := s.SyncKubernetes(ctx, "nope"); err == nil {
		t.Error("an unknown cluster is not refused")
	}
}

// TestKubernetesEKSSplit: the EKS split rows of a CUR 2.0 export give each
// namespace the sum of its pods' split and unused cost.
func TestKubernetesEKSSplit(t *testing.T) {
	s := openFresh(t, k8sConfig(t, ""))
	ctx := adminCtx()
	path := k8sFixture("cur2-eks.csv")
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportKubernetes(ctx, []string{path}, FormatEKSSplit); err != nil {
		t.Fatal(err)
	}
	// The independent computation: split + unused cost per namespace tag.
	_, rows, col := csvColumns(t, path)
	want := map[string]float64{}
	for _, r := range rows {
		if r[col["split_line_item_parent_resource_id"]] == "" {
			continue
		}
		var tags map[string]string
		if err := json.Unmarshal([]byte(r[col["resource_tags"]]), &tags); err != nil {
			t.Fatal(err)
		}
		sp, _ := strconv.ParseFloat(r[col["split_line_item_split_cost"]], 64)
		un, _ := strconv.ParseFloat(r[col["split_line_item_unused_cost"]], 64)
		want[tags["aws:eks:namespace"]] += sp + un
	}
	got, total := namespaceCosts(t, s)
	if len(want) != 2 || !k8sNear(total, 50) || !k8sNear(got[model.NoValue], 10) {
		t.Fatalf("groups %v total %g, independent %v", got, total, want)
	}
	for ns, c := range want {
		if !k8sNear(got[ns], c) {
			t.Errorf("namespace %s costs %g, the split rows say %g", ns, got[ns], c)
		}
	}
}
