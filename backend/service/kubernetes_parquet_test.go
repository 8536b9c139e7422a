package service

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// openCostParquet writes the two-day OpenCost fixture as OpenCost's
// Parquet exporter would with step=12h: the answer flattened (columns
// named by their JSON path, labels as properties.labels.KEY), a row per
// allocation and half day, each with half the day's costs.
func openCostParquet(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(k8sFixture("opencost-2days.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ans struct {
		Data []map[string]map[string]any `json:"data"`
	}
	if err := json.Unmarshal(b, &ans); err != nil {
		t.Fatal(err)
	}
	strs := []string{"name", "properties.cluster", "properties.node", "properties.namespace", "properties.controller",
		"properties.controllerKind", "properties.pod", "properties.providerID", "properties.labels.team", "window.start", "window.end"}
	nums := []string{"running_minutes", "cpuCost", "ramCost", "gpuCost", "pvCost", "totalCost", "cpuCoreRequestAverage",
		"cpuCoreUsageAverage", "ramByteRequestAverage", "ramByteUsageAverage"}
	g := parquet.Group{}
	for _, c := range strs {
		g[c] = parquet.Optional(parquet.String())
	}
	for _, c := range nums {
		g[c] = parquet.Optional(parquet.Leaf(parquet.DoubleType))
	}
	schema := parquet.NewSchema("opencost", g)
	path := filepath.Join(t.TempDir(), "opencost.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[any](f, schema)
	cols := schema.Fields()
	for _, window := range ans.Data {
		for _, a := range window {
			props, _ := a["properties"].(map[string]any)
			win, _ := a["window"].(map[string]any)
			start, err := time.Parse(time.RFC3339, win["start"].(string))
			if err != nil {
				t.Fatal(err)
			}
			for half := range 2 {
				s := start.Add(time.Duration(half) * 12 * time.Hour)
				vals := map[string]any{"name": a["name"], "window.start": s.Format(time.RFC3339),
					"window.end": s.Add(12 * time.Hour).Format(time.RFC3339), "running_minutes": 720.0}
				for k, v := range props {
					vals["properties."+k] = v
				}
				if l, ok := props["labels"].(map[string]any); ok {
					vals["properties.labels.team"] = l["team"]
				}
				for _, c := range nums[1:] {
					if v, ok := a[c].(float64); ok {
						if c[len(c)-4:] == "Cost" {
							v /= 2
						}
						vals[c] = v
					}
				}
				row := make(parquet.Row, len(cols))
				for i, fl := range cols {
					switch v := vals[fl.Name()].(type) {
					case string:
						row[i] = parquet.ByteArrayValue([]byte(v)).Level(0, 1, i)
					case float64:
						row[i] = parquet.DoubleValue(v).Level(0, 1, i)
					default:
						row[i] = parquet.NullValue().Level(0, 0, i)
					}
				}
				if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	closeParquet(t, w, f)
	return path
}

// TestKubernetesOpenCostParquet: the Parquet exporter's half-day rows give
// what the saved JSON answer gives: every namespace twice its OpenCost
// cost, and the same requests and usage.
func TestKubernetesOpenCostParquet(t *testing.T) {
	s := openFresh(t, k8sConfig(t, ""))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{k8sFixture("cur2-eks.csv")}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := s.ImportKubernetes(ctx, []string{openCostParquet(t)}, FormatOpenCost)
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Files[0]; f.Assets != 1 || f.Matched != 1 || f.From != "2026-05-01" || f.To != "2026-05-02" || f.Allocations != 8 {
		t.Fatalf("import = %+v", f)
	}
	checkTwice(t, s)
	ov, err := s.KubernetesOverview(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ov.Workloads {
		if w.Workload == "api" && (w.Days != 2 || !k8sNear(w.CPURequestCores, 1) || !k8sNear(w.CPUUsageCores, 0.25) ||
			!k8sNear(w.RAMRequestBytes, 1<<30) || w.RAMEfficiency == nil || !k8sNear(*w.RAMEfficiency, 0.5)) {
			t.Errorf("api efficiency %+v", w)
		}
	}
	// A file that only looks like Parquet is refused.
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	if err := os.WriteFile(bad, []byte("PAR1 not really"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportKubernetes(ctx, []string{bad}, FormatOpenCost); err == nil {
		t.Error("a broken Parquet file is accepted")
	}
}

// eksPQ is a CUR 2.0 row with split cost allocation data as Parquet:
// timestamps, doubles and resource_tags as a MAP, as Data Exports write.
type eksPQ struct {
	Start     time.Time         `parquet:"line_item_usage_start_date,timestamp(millisecond)"`
	Resource  string            `parquet:"line_item_resource_id,optional"`
	Currency  string            `parquet:"line_item_currency_code"`
	Unblended float64           `parquet:"line_item_unblended_cost"`
	Parent    string            `parquet:"split_line_item_parent_resource_id,optional"`
	Split     *float64          `parquet:"split_line_item_split_cost,optional"`
	Unused    *float64          `parquet:"split_line_item_unused_cost,optional"`
	Tags      map[string]string `parquet:"resource_tags"`
}

// eksParquet writes the CUR 2.0 fixture's rows as Parquet.
func eksParquet(t *testing.T) string {
	t.Helper()
	_, rows, col := csvColumns(t, k8sFixture("cur2-eks.csv"))
	opt := func(s string) *float64 {
		if s == "" {
			return nil
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	var out []eksPQ
	for _, r := range rows {
		g := func(c string) string { return r[col[c]] }
		start, err := time.Parse(time.RFC3339, g("line_item_usage_start_date"))
		if err != nil {
			t.Fatal(err)
		}
		tags := map[string]string{}
		if err := json.Unmarshal([]byte(g("resource_tags")), &tags); err != nil {
			t.Fatal(err)
		}
		out = append(out, eksPQ{Start: start, Resource: g("line_item_resource_id"), Currency: g("line_item_currency_code"),
			Unblended: *opt(g("line_item_unblended_cost")), Parent: g("split_line_item_parent_resource_id"),
			Split: opt(g("split_line_item_split_cost")), Unused: opt(g("split_line_item_unused_cost")), Tags: tags})
	}
	path := filepath.Join(t.TempDir(), "cur2-eks.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[eksPQ](f)
	if _, err := w.Write(out); err != nil {
		t.Fatal(err)
	}
	closeParquet(t, w, f)
	return path
}

// TestKubernetesEKSSplitParquet: the split rows of a CUR 2.0 Parquet
// export give every namespace what the same rows as CSV give.
func TestKubernetesEKSSplitParquet(t *testing.T) {
	ctx := adminCtx()
	costs := func(splits string) (map[string]float64, float64) {
		s := openFresh(t, k8sConfig(t, ""))
		if _, err := s.ImportFiles(ctx, []string{k8sFixture("cur2-eks.csv")}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
		res, err := s.ImportKubernetes(ctx, []string{splits}, FormatEKSSplit)
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Files[0]; f.Allocations == 0 || f.Matched == 0 {
			t.Fatalf("%s: import %+v", splits, f)
		}
		return namespaceCosts(t, s)
	}
	want, wantTotal := costs(k8sFixture("cur2-eks.csv"))
	got, total := costs(eksParquet(t))
	if len(want) < 3 || !k8sNear(total, wantTotal) {
		t.Fatalf("Parquet: %v total %g; CSV: %v total %g", got, total, want, wantTotal)
	}
	for ns, c := range want {
		if !k8sNear(got[ns], c) {
			t.Errorf("namespace %s: %g from Parquet, %g from CSV", ns, got[ns], c)
		}
	}
}

// closeParquet finishes a Parquet writer and its file.
func closeParquet(t *testing.T, w io.Closer, f *os.File) {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
