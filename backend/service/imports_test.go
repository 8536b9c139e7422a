package service

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

func sharedFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(repoRoot(t), "testdata", "real", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("real sample missing from the repository: %v", err)
	}
	return p
}

// focusTotals sums BilledCost per provider straight from the CSV with
// big.Rat: an independent check of the import path.
func focusTotals(t *testing.T, path string) map[model.ProviderKey]*big.Rat {
	t.Helper()
	head, rows := readCSV(t, path)
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimPrefix(h, "\ufeff")] = i
	}
	out := map[model.ProviderKey]*big.Rat{}
	for _, rec := range rows {
		v := rec[col["BilledCost"]]
		if v == "" || v == "NULL" {
			continue
		}
		x, ok := new(big.Rat).SetString(v)
		if !ok {
			t.Fatalf("bad amount %q", v)
		}
		name := strings.ToLower(rec[col["ProviderName"]])
		var k model.ProviderKey
		switch {
		case strings.Contains(name, "amazon") || strings.Contains(name, "aws"):
			k = model.AWS
		case strings.Contains(name, "microsoft") || strings.Contains(name, "azure"):
			k = model.Azure
		case strings.Contains(name, "oracle"):
			k = model.OCI
		default:
			k = model.GCP
		}
		if out[k] == nil {
			out[k] = new(big.Rat)
		}
		out[k].Add(out[k], x)
	}
	return out
}

// repoRoot is the repository's root: the folder of go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root (go.mod) not found")
		}
		dir = parent
	}
}

func exportConfig(t *testing.T) *config.Config {
	cfg, err := config.Parse([]byte(`
aws: {enabled: true, source: export, region: us-east-1, export_paths: [x]}
azure: {enabled: true, source: export, export_paths: [x]}
oci: {enabled: true, source: export, export_paths: [x]}
`), "export.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestImportRealFOCUSTwice(t *testing.T) {
	path := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	s := openDemo(t, exportConfig(t))
	ctx := adminCtx()
	want := focusTotals(t, path)
	check := func() {
		t.Helper()
		for k, w := range want {
			sc := s.scope(ctx, []model.ProviderKey{k})
			sums, err := s.store.ServiceSums(ctx, sc, model.MetricBilled)
			if err != nil {
				t.Fatal(err)
			}
			var got model.Nanos
			for _, v := range sums {
				got += v.Amount
			}
			wf, _ := w.Float64()
			if !relClose(got.Float64(), wf) {
				t.Fatalf("%s: stored %s, file sums to %s", k, got, w.FloatString(9))
			}
		}
	}
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	check()
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	check() // nothing counted twice
	// A dry run writes nothing.
	s2 := openFresh(t, exportConfig(t))
	res, err := s2.ImportFiles(ctx, []string{path}, ImportOptions{DryRun: true})
	if err != nil || len(res.Files) != 1 || res.Files[0].Rows == 0 {
		t.Fatalf("dry run %+v %v", res, err)
	}
	if st, _ := s2.store.Stats(ctx); len(st) != 0 {
		t.Fatalf("dry run wrote history: %+v", st)
	}
}

func TestBadImportLeavesHistoryUnchanged(t *testing.T) {
	path := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	s := openDemo(t, exportConfig(t))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	before, _ := s.store.Stats(ctx)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// A truncated gzip of the same file.
	gz := filepath.Join(dir, "cut.csv.gz")
	var zb bytes.Buffer
	w := gzip.NewWriter(&zb)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, gz, zb.Bytes()[:zb.Len()/2])
	// A non-numeric cost deep in the file.
	lines := strings.Split(string(data), "\n")
	head, _ := csv.NewReader(strings.NewReader(lines[0])).Read()
	idx := -1
	for i, h := range head {
		if h == "BilledCost" {
			idx = i
		}
	}
	rec, _ := csv.NewReader(strings.NewReader(lines[500])).Read()
	if idx < 0 || len(rec) <= idx {
		t.Fatalf("BilledCost column not found in line 501 (%d fields)", len(rec))
	}
	rec[idx] = "twelve"
	var b strings.Builder
	cw := csv.NewWriter(&b)
	if err := cw.Write(rec); err != nil {
		t.Fatal(err)
	}
	cw.Flush()
	lines[500] = strings.TrimSuffix(b.String(), "\n")
	bad := filepath.Join(dir, "bad.csv")
	mustWrite(t, bad, []byte(strings.Join(lines, "\n")))
	unknown := filepath.Join(dir, "unknown.csv")
	mustWrite(t, unknown, []byte("foo,bar\n1,2\n"))
	for _, p := range []string{gz, bad, unknown} {
		_, err := s.ImportFiles(ctx, []string{p}, ImportOptions{})
		if apperr.KindOf(err) != apperr.Validation {
			t.Fatalf("%s: want a ValidationError, got %v", filepath.Base(p), err)
		}
		if !strings.Contains(err.Error(), filepath.Base(p)) {
			t.Fatalf("%s: error does not name the file: %v", p, err)
		}
	}
	after, _ := s.store.Stats(ctx)
	if len(after) != len(before) {
		t.Fatalf("history changed: %+v -> %+v", before, after)
	}
	for i := range before {
		if before[i].Lines != after[i].Lines {
			t.Fatalf("history changed: %+v -> %+v", before[i], after[i])
		}
	}
}

func mustWrite(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestImportPartsOfOneDelivery: AWS splits a report into numbered files;
// the parts given together replace their period once with the sum of all
// of them, in any order and again, and a file of another format in the
// same call is imported beside them.
func TestImportPartsOfOneDelivery(t *testing.T) {
	whole := sharedFile(t, "aws-cur-legacy-sample.csv")
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	header, rows := lines[0], lines[1:]
	dir := t.TempDir()
	part := func(name string, rows []string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(header+strings.Join(rows, "")), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Every other row, so both parts span the whole period.
	var odd, even []string
	for i, r := range rows {
		if i%2 == 0 {
			even = append(even, r)
		} else {
			odd = append(odd, r)
		}
	}
	p1, p2 := part("report-1.csv", even), part("report-2.csv", odd)
	azure := sharedFile(t, "azure-ea-export-sample.csv")
	ctx := adminCtx()
	cfg := exportConfig(t)
	cfg.Currency.Rates = map[string]float64{"CAD": 0.73}
	totals := func(s *Service) map[model.ProviderKey]float64 { return providerTotals(t, s) }
	ref := openFresh(t, cfg)
	if _, err := ref.ImportFiles(ctx, []string{whole, azure}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	want := totals(ref)
	if want[model.AWS] <= 0 || want[model.Azure] <= 0 {
		t.Fatalf("reference totals %v", want)
	}
	s := openFresh(t, cfg)
	for _, paths := range [][]string{{p1, p2, azure}, {azure, p2, p1}, {p2, p1, azure}} {
		res, err := s.ImportFiles(ctx, paths, ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 2 {
			t.Fatalf("%v: %d units, want 2 (the AWS parts and the Azure file)", paths, len(res.Files))
		}
		got := totals(s)
		for _, k := range []model.ProviderKey{model.AWS, model.Azure} {
			if !relClose(got[k], want[k]) {
				t.Fatalf("%v: %s total %v, the whole file gives %v", paths, k, got[k], want[k])
			}
		}
	}
	// One part alone replaces the period with just that part: parts must be
	// given together (docs/exports.md says so).
	if _, err := s.ImportFiles(ctx, []string{p1}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := totals(s)[model.AWS]; got >= want[model.AWS] {
		t.Fatalf("one part alone: %v, the whole gives %v", got, want[model.AWS])
	}
}

// splitRows writes the rows of a CSV file alternately into n parts with
// the header, so every part spans the whole period.
func splitRows(t *testing.T, path string, n int) (header string, parts [][]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	parts = make([][]string, n)
	for i, r := range lines[1:] {
		parts[i%n] = append(parts[i%n], r)
	}
	return lines[0], parts
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestImportDeliveriesWithManifests: local copies of an AWS legacy CUR
// bucket and of an Azure partitioned export, each with an older delivery
// of the same period beside the current one. Importing the folder, again,
// or the manifest itself gives the whole files' totals: the current
// manifest's parts add up and the older delivery is left out.
func TestImportDeliveriesWithManifests(t *testing.T) {
	ctx := adminCtx()
	cfg := exportConfig(t)
	cfg.Currency.Rates = map[string]float64{"CAD": 0.73}
	totals := func(s *Service) map[model.ProviderKey]float64 { return providerTotals(t, s) }
	cur, azure := sharedFile(t, "aws-cur-legacy-sample.csv"), sharedFile(t, "azure-ea-export-sample.csv")
	ref := openFresh(t, cfg)
	if _, err := ref.ImportFiles(ctx, []string{cur, azure}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	want := totals(ref)

	root := t.TempDir()
	// AWS: s3://bucket/cur/daily/20231101-20231201/<assembly>/daily-N.csv
	period := filepath.Join(root, "bucket", "cur", "daily", "20231101-20231201")
	h, parts := splitRows(t, cur, 2)
	key := func(asm, f string) string { return "cur/daily/20231101-20231201/" + asm + "/" + f }
	writeFile(t, filepath.Join(period, "old", "daily-1.csv"), h+strings.Join(parts[0], "")) // an older, partial delivery
	writeFile(t, filepath.Join(period, "old", "daily-Manifest.json"),
		`{"assemblyId":"old","reportName":"daily","billingPeriod":{"start":"20231101T000000.000Z"},"reportKeys":["`+key("old", "daily-1.csv")+`"]}`)
	newManifest := `{"assemblyId":"new","reportName":"daily","billingPeriod":{"start":"20231101T000000.000Z"},"reportKeys":["` +
		key("new", "daily-1.csv") + `","` + key("new", "daily-2.csv") + `"]}`
	writeFile(t, filepath.Join(period, "new", "daily-1.csv"), h+strings.Join(parts[0], ""))
	writeFile(t, filepath.Join(period, "new", "daily-2.csv"), h+strings.Join(parts[1], ""))
	writeFile(t, filepath.Join(period, "new", "daily-Manifest.json"), newManifest)
	writeFile(t, filepath.Join(period, "daily-Manifest.json"), newManifest) // the current delivery's, above
	// Azure: <container>/exports/monthly/20230901-20230930/<run>/part_N.csv
	run := filepath.Join(root, "container", "exports", "monthly", "20230901-20230930")
	h, parts = splitRows(t, azure, 2)
	blob := func(r, f string) string { return "exports/monthly/20230901-20230930/" + r + "/" + f }
	writeFile(t, filepath.Join(run, "run1", "part_0_0001.csv"), h+strings.Join(parts[0], ""))
	writeFile(t, filepath.Join(run, "run1", "manifest.json"), `{"exportConfig":{"exportName":"monthly","type":"ActualCost"},
		"runInfo":{"submittedTime":"2023-09-20T02:00:00Z","startDate":"2023-09-01T00:00:00"},"blobs":[{"blobName":"`+blob("run1", "part_0_0001.csv")+`"}]}`)
	writeFile(t, filepath.Join(run, "run2", "part_0_0001.csv"), h+strings.Join(parts[0], ""))
	writeFile(t, filepath.Join(run, "run2", "part_0_0002.csv"), h+strings.Join(parts[1], ""))
	writeFile(t, filepath.Join(run, "run2", "manifest.json"), `{"exportConfig":{"exportName":"monthly","type":"ActualCost"},
		"runInfo":{"submittedTime":"2023-09-30T02:00:00Z","startDate":"2023-09-01T00:00:00"},"blobs":[{"blobName":"`+
		blob("run2", "part_0_0001.csv")+`"},{"blobName":"`+blob("run2", "part_0_0002.csv")+`"}]}`)

	s := openFresh(t, cfg)
	for _, paths := range [][]string{{root}, {root}, {filepath.Join(period, "daily-Manifest.json"), filepath.Join(run, "run2", "manifest.json")}} {
		res, err := s.ImportFiles(ctx, paths, ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := totals(s)
		for _, k := range []model.ProviderKey{model.AWS, model.Azure} {
			if !relClose(got[k], want[k]) {
				t.Fatalf("%v: %s total %v, the whole file gives %v (%+v)", paths, k, got[k], want[k], res)
			}
		}
		if paths[0] == root && (len(res.Files) != 2 || len(res.Files[0].Warnings) == 0) {
			t.Fatalf("folder import: %d units, warnings %v", len(res.Files), res.Files[0].Warnings)
		}
	}
	// A manifest whose files are missing is an error naming it.
	bad := filepath.Join(t.TempDir(), "x-Manifest.json")
	writeFile(t, bad, `{"reportName":"x","billingPeriod":{"start":"20231101T000000.000Z"},"reportKeys":["nowhere/x-1.csv"]}`)
	if _, err := s.ImportFiles(ctx, []string{bad}, ImportOptions{}); err == nil || !strings.Contains(err.Error(), "x-Manifest.json") {
		t.Fatalf("missing part: %v", err)
	}
}

// TestImportShowsWhatItReplaces: an import (and a dry run) names, per
// provider, the span and accounts it replaces with the totals stored
// there before and the imported ones after.
func TestImportShowsWhatItReplaces(t *testing.T) {
	path := sharedFile(t, "aws-cur-legacy-sample.csv")
	s := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	first, err := s.ImportFiles(ctx, []string{path}, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := first.Files[0].Replaces
	if len(r) != 1 || r[0].Provider != model.AWS || len(r[0].Before) != 0 || len(r[0].After) != 1 ||
		r[0].From != "2023-11-01" || r[0].To != "2023-11-30" || len(r[0].Accounts) == 0 {
		t.Fatalf("first import replaces %+v", r)
	}
	again, err := s.ImportFiles(ctx, []string{path}, ImportOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	r2 := again.Files[0].Replaces
	if len(r2) != 1 || len(r2[0].Before) != 1 || r2[0].Before[0].BilledExact != r[0].After[0].BilledExact ||
		r2[0].After[0].BilledExact != r[0].After[0].BilledExact {
		t.Fatalf("dry run again replaces %+v, the first import stored %+v", r2, r[0].After)
	}
}

// providerTotals is each provider's total over the real samples' years.
func providerTotals(t *testing.T, s *Service) map[model.ProviderKey]float64 {
	t.Helper()
	p, _ := PeriodForDates("2023-01-01", "2024-12-31")
	a, err := s.AnalyzeCosts(adminCtx(), model.CostQuery{Period: p})
	if err != nil {
		t.Fatal(err)
	}
	out := map[model.ProviderKey]float64{}
	for k, pc := range a.Providers {
		out[k] = pc.TotalCost
	}
	return out
}
