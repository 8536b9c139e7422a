package service

import (
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// readCSV reads a real sample whole.
func readCSV(t *testing.T, path string) (header []string, rows [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	all, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return all[0], all[1:]
}

func writeCSV(t *testing.T, path string, header []string, rows [][]string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.Write(header); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func column(t *testing.T, header []string, name string) int {
	t.Helper()
	for i, h := range header {
		if strings.TrimPrefix(h, "\ufeff") == name {
			return i
		}
	}
	t.Fatalf("no column %s", name)
	return -1
}

// exactTotal is one provider's stored billed or effective total as an
// exact decimal string.
func exactTotal(t *testing.T, s *Service, p model.ProviderKey, m model.CostMetric) model.Nanos {
	t.Helper()
	sums, err := s.store.SpanSums(adminCtx(), p, model.SourceExport, nil, "2000-01-01", "2100-01-01")
	if err != nil {
		t.Fatal(err)
	}
	var n model.Nanos
	for _, c := range sums {
		switch m {
		case model.MetricEffective:
			n += c.Effective
		case model.MetricList:
			n += c.List
		default:
			n += c.Billed
		}
	}
	return n
}

// TestOCIReportsAddUp: OCI writes a cost report every few hours, each
// covering its own hours. The real sample (one day, 05:00 to 11:00) cut
// into two consecutive reports: each adds to the other, in any order,
// imported alone, together, again, or as a folder.
func TestOCIReportsAddUp(t *testing.T) {
	ctx := adminCtx()
	sample := sharedFile(t, "oci-cost-report-sample.csv")
	header, rows := readCSV(t, sample)
	start := column(t, header, "lineItem/intervalUsageStart")
	var early, late [][]string
	for _, r := range rows {
		if r[start] < "2023-11-13T09" {
			early = append(early, r)
		} else {
			late = append(late, r)
		}
	}
	if len(early) == 0 || len(late) == 0 {
		t.Fatal("the sample does not span 09:00")
	}
	dir := filepath.Join(t.TempDir(), "bucket", "reports", "cost-csv")
	r1 := writeCSV(t, filepath.Join(dir, "0001000000123401.csv"), header, early)
	r2 := writeCSV(t, filepath.Join(dir, "0001000000123402.csv"), header, late)

	ref := openFresh(t, exportConfig(t))
	if _, err := ref.ImportFiles(ctx, []string{sample}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	whole := exactTotal(t, ref, model.OCI, model.MetricBilled)
	first := openFresh(t, exportConfig(t))
	if _, err := first.ImportFiles(ctx, []string{r1}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	part1 := exactTotal(t, first, model.OCI, model.MetricBilled)
	if part1 <= 0 || part1 >= whole {
		t.Fatalf("first report %v of %v", part1, whole)
	}

	for _, steps := range [][][]string{
		{{r1}, {r2}},
		{{r2}, {r1}},
		{{r1}, {r2}, {r1}, {r2}},
		{{r1, r2}},
		{{dir}, {dir}},
		{{r2}, {dir}},
	} {
		s := openFresh(t, exportConfig(t))
		var last ImportResult
		for _, paths := range steps {
			var err error
			if last, err = s.ImportFiles(ctx, paths, ImportOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if got := exactTotal(t, s, model.OCI, model.MetricBilled); got != whole {
			t.Fatalf("%v: total %v, the whole sample holds %v", steps, got, whole)
		}
		for _, f := range last.Files {
			if f.Replaces[0].Kind != model.PartSlice {
				t.Fatalf("%v: stored as %q, want slice", steps, f.Replaces[0].Kind)
			}
		}
	}
	// The dry run of the second report shows the day before (the first
	// report) and after (both).
	s := openFresh(t, exportConfig(t))
	if _, err := s.ImportFiles(ctx, []string{r1}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	dry, err := s.ImportFiles(ctx, []string{r2}, ImportOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	sp := dry.Files[0].Replaces[0]
	if sp.Before[0].BilledExact != part1.String() || sp.After[0].BilledExact != whole.String() {
		t.Fatalf("dry run: before %s after %s, want %s and %s", sp.Before[0].BilledExact, sp.After[0].BilledExact, part1, whole)
	}
	if got := exactTotal(t, s, model.OCI, model.MetricBilled); got != part1 {
		t.Fatalf("the dry run changed the total to %v", got)
	}
}

// TestFOCUSFilesSplitByDayAddUp: the real FOCUS sample cut into one file a
// day; each day file replaces only its day, so they add up to the whole in
// any order, one by one or together, and again.
func TestFOCUSFilesSplitByDayAddUp(t *testing.T) {
	ctx := adminCtx()
	sample := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	header, rows := readCSV(t, sample)
	start := column(t, header, "ChargePeriodStart")
	byDay := map[string][][]string{}
	for _, r := range rows {
		d := r[start][:10]
		byDay[d] = append(byDay[d], r)
	}
	if len(byDay) < 5 {
		t.Fatalf("the sample has %d days", len(byDay))
	}
	dir := t.TempDir()
	var files []string
	for d, rs := range byDay {
		files = append(files, writeCSV(t, filepath.Join(dir, "focus-"+d+".csv"), header, rs))
	}
	sort.Strings(files)
	ref := openFresh(t, exportConfig(t))
	if _, err := ref.ImportFiles(ctx, []string{sample}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	provs := []model.ProviderKey{model.AWS, model.Azure, model.OCI}
	want := map[model.ProviderKey]model.Nanos{}
	for _, p := range provs {
		want[p] = exactTotal(t, ref, p, model.MetricBilled)
	}
	s := openFresh(t, exportConfig(t))
	r := rand.New(rand.NewPCG(3, 4))
	order := append([]string(nil), files...)
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, f := range append(order, order[:3]...) {
		if _, err := s.ImportFiles(ctx, []string{f}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ImportFiles(ctx, []string{dir}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range provs {
		if got := exactTotal(t, s, p, model.MetricBilled); got != want[p] {
			t.Fatalf("%s: day files give %v, the whole file %v", p, got, want[p])
		}
	}
}

// TestAzureActualAndAmortizedPair: the actual-cost and the amortized-cost
// exports of one month (Microsoft's EA export columns, with a reservation
// bought and used): billed is the actual export's total, effective the
// amortized one's, in either order and again; each alone gives both.
func TestAzureActualAndAmortizedPair(t *testing.T) {
	ctx := adminCtx()
	sample := sharedFile(t, "azure-ea-export-sample.csv")
	header, rows := readCSV(t, sample)
	cost, charge, pricing := column(t, header, "CostInBillingCurrency"), column(t, header, "ChargeType"), column(t, header, "PricingModel")
	resource, reservation := column(t, header, "ResourceId"), column(t, header, "ReservationName")
	with := func(base []string, c, ct, pm, res string) []string {
		r := append([]string(nil), base...)
		r[cost], r[charge], r[pricing], r[resource], r[reservation] = c, ct, pm, res, "ri-1"
		return r
	}
	vm := "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-ri"
	ri := "/providers/Microsoft.Capacity/reservationOrders/ri-1"
	// Actual cost: the purchase, and the usage it covers at zero.
	actualRows := append(slices2(rows), with(rows[0], "100", "Purchase", "Reservation", ri), with(rows[1], "0", "Usage", "Reservation", vm))
	// Amortized cost: no purchase; the covered usage at its share, and
	// the unused part of the reservation.
	amortRows := append(slices2(rows), with(rows[1], "3.5", "Usage", "Reservation", vm), with(rows[2], "1.25", "UnusedReservation", "Reservation", ri))
	dir := t.TempDir()
	actual := writeCSV(t, filepath.Join(dir, "actual", "ea-actual-202309.csv"), header, actualRows)
	amort := writeCSV(t, filepath.Join(dir, "amortized", "ea-amortized-202309.csv"), header, amortRows)

	totalOf := func(path string) model.Nanos {
		s := openFresh(t, exportConfig(t))
		if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
		b, e := exactTotal(t, s, model.Azure, model.MetricBilled), exactTotal(t, s, model.Azure, model.MetricEffective)
		if b != e {
			t.Fatalf("%s alone: billed %v effective %v, want both its total", path, b, e)
		}
		return b
	}
	wantBilled, wantEffective := totalOf(actual), totalOf(amort)
	if wantBilled-wantEffective != nanos(t, "95.25") {
		t.Fatalf("actual %v amortized %v: the fixture is off", wantBilled, wantEffective)
	}
	for _, steps := range [][]string{{actual, amort}, {amort, actual}, {actual, amort, actual, amort}} {
		s := openFresh(t, exportConfig(t))
		for _, p := range steps {
			res, err := s.ImportFiles(ctx, []string{p}, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{actual: model.PartActual, amort: model.PartAmortized}[p]
			if k := res.Files[0].Replaces[0].Kind; k != want {
				t.Fatalf("%s stored as %q, want %q", p, k, want)
			}
		}
		if b := exactTotal(t, s, model.Azure, model.MetricBilled); b != wantBilled {
			t.Fatalf("%v: billed %v, want the actual total %v", steps, b, wantBilled)
		}
		if e := exactTotal(t, s, model.Azure, model.MetricEffective); e != wantEffective {
			t.Fatalf("%v: effective %v, want the amortized total %v", steps, e, wantEffective)
		}
	}
	// Both in one call, and a manifest that names its dataset.
	s := openFresh(t, exportConfig(t))
	if _, err := s.ImportFiles(ctx, []string{actual, amort}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, e := exactTotal(t, s, model.Azure, model.MetricBilled), exactTotal(t, s, model.Azure, model.MetricEffective); b != wantBilled || e != wantEffective {
		t.Fatalf("together: billed %v effective %v", b, e)
	}
	// A manifest that names its dataset decides, even for rows without a
	// commitment (which read the same in both datasets).
	run := filepath.Join(dir, "export", "run1")
	writeCSV(t, filepath.Join(run, "part_0_0001.csv"), header, rows)
	writeFile(t, filepath.Join(run, "manifest.json"), `{"exportConfig":{"exportName":"amortized","type":"AmortizedCost"},
		"runInfo":{"submittedTime":"2023-09-30T02:00:00Z","startDate":"2023-09-01T00:00:00"},"blobs":[{"blobName":"export/run1/part_0_0001.csv"}]}`)
	res, err := s.ImportFiles(ctx, []string{run}, ImportOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if k := res.Files[0].Replaces[0].Kind; k != model.PartAmortized {
		t.Fatalf("manifest of AmortizedCost stored as %q", k)
	}
	// A file mixing both datasets is refused, naming it.
	mixed := writeCSV(t, filepath.Join(dir, "mixed.csv"), header, append(slices2(actualRows), amortRows[len(amortRows)-1]))
	if _, err := s.ImportFiles(ctx, []string{mixed}, ImportOptions{}); err == nil || !strings.Contains(err.Error(), "mixed.csv") {
		t.Fatalf("mixed datasets: %v", err)
	}
}

func slices2(rows [][]string) [][]string { return append([][]string(nil), rows...) }

func nanos(t *testing.T, s string) model.Nanos {
	t.Helper()
	n, err := model.ParseNanos(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestImportDataExportsManifest: an AWS Data Exports delivery (FOCUS or
// CUR 2.0) of a billing period split in numbered parts and listed by its
// manifest's dataFiles, as `aws s3 sync` copies it, with an older
// execution of the same period beside it: the folder, again, or the
// manifest give the whole file's totals.
func TestImportDataExportsManifest(t *testing.T) {
	ctx := adminCtx()
	sample := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	ref := openFresh(t, exportConfig(t))
	if _, err := ref.ImportFiles(ctx, []string{sample}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	provs := []model.ProviderKey{model.AWS, model.Azure, model.OCI}
	want := map[model.ProviderKey]model.Nanos{}
	for _, p := range provs {
		want[p] = exactTotal(t, ref, p, model.MetricBilled)
	}
	root := t.TempDir()
	// s3://bucket/focus/focus-export/data/BILLING_PERIOD=2024-09/<execution>/focus-export-0000N.csv.gz
	h, parts := splitRows(t, sample, 3)
	period := filepath.Join(root, "bucket", "focus", "focus-export", "data", "BILLING_PERIOD=2024-09")
	key := func(exec, f string) string {
		return "s3://bucket/focus/focus-export/data/BILLING_PERIOD=2024-09/" + exec + "/" + f
	}
	var newKeys []string
	for i, p := range parts {
		name := fmt.Sprintf("focus-export-%05d.csv", i+1)
		writeFile(t, filepath.Join(period, "exec-new", name), h+strings.Join(p, ""))
		newKeys = append(newKeys, `"`+key("exec-new", name)+`"`)
	}
	writeFile(t, filepath.Join(period, "exec-old", "focus-export-00001.csv"), h+strings.Join(parts[0], ""))
	manifest := func(exec string, keys []string) string {
		return `{"executionId":"` + exec + `","exportArn":"arn:aws:bcm-data-exports:us-east-1:123456789012:export/focus-export",
			"billingPeriod":{"start":"2024-09-01T00:00:00.000Z","end":"2024-10-01T00:00:00.000Z"},"dataFiles":[` + strings.Join(keys, ",") + `]}`
	}
	metaDir := filepath.Join(root, "bucket", "focus", "focus-export", "metadata", "BILLING_PERIOD=2024-09")
	writeFile(t, filepath.Join(metaDir, "focus-export-Manifest.json"), manifest("exec-new", newKeys))
	writeFile(t, filepath.Join(period, "exec-old", "focus-export-Manifest.json"), manifest("exec-old", []string{`"` + key("exec-old", "focus-export-00001.csv") + `"`}))
	s := openFresh(t, exportConfig(t))
	for _, paths := range [][]string{{root}, {root}, {filepath.Join(metaDir, "focus-export-Manifest.json")}} {
		if _, err := s.ImportFiles(ctx, paths, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, p := range provs {
			if got := exactTotal(t, s, p, model.MetricBilled); got != want[p] {
				t.Fatalf("%v: %s total %v, the whole file %v", paths, p, got, want[p])
			}
		}
	}
}
