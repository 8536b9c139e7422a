package billing

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// cur2Names translates the legacy CUR names the reference uses.
var cur2Names = map[string]string{
	"lineItem/LineItemType":                                 "line_item_line_item_type",
	"lineItem/UnblendedCost":                                "line_item_unblended_cost",
	"savingsPlan/SavingsPlanEffectiveCost":                  "savings_plan_savings_plan_effective_cost",
	"reservation/EffectiveCost":                             "reservation_effective_cost",
	"savingsPlan/TotalCommitmentToDate":                     "savings_plan_total_commitment_to_date",
	"savingsPlan/UsedCommitment":                            "savings_plan_used_commitment",
	"reservation/UnusedAmortizedUpfrontFeeForBillingPeriod": "reservation_unused_amortized_upfront_fee_for_billing_period",
	"reservation/UnusedRecurringFee":                        "reservation_unused_recurring_fee",
	"reservation/ReservationARN":                            "reservation_reservation_a_r_n",
}

func focusRef(t *testing.T) refSums {
	idx, recs := csvRows(t, "focus-1.3.csv")
	want := refSums{}
	keys := map[string]model.ProviderKey{"Amazon Web Services": model.AWS, "Microsoft": model.Azure, "Google Cloud": model.GCP, "Oracle": model.OCI}
	for _, r := range recs {
		eff := r[idx["EffectiveCost"]]
		if eff == "NULL" || eff == "" {
			eff = r[idx["BilledCost"]]
		}
		if err := want.add(keys[r[idx["ServiceProviderName"]]], r[idx["BillingCurrency"]], r[idx["BilledCost"]], eff); err != nil {
			t.Fatal(err)
		}
	}
	return want
}

func cur2Ref(t *testing.T) refSums {
	idx, recs := csvRows(t, "cur2.csv")
	want := refSums{}
	for _, r := range recs {
		get := func(legacy string) string { return r[idx[cur2Names[legacy]]] }
		if err := want.add(model.AWS, r[idx["line_item_currency_code"]], r[idx["line_item_unblended_cost"]], curRefEffectiveBy(get)); err != nil {
			t.Fatal(err)
		}
	}
	return want
}

func azureRef(t *testing.T) refSums {
	idx, recs := csvRows(t, "azure-mca.csv")
	want := refSums{}
	for _, r := range recs {
		c := r[idx["costInBillingCurrency"]]
		if err := want.add(model.Azure, r[idx["billingCurrency"]], c, c); err != nil {
			t.Fatal(err)
		}
	}
	return want
}

func ociRef(t *testing.T) refSums {
	idx, recs := csvRows(t, "oci.csv")
	want := refSums{}
	for _, r := range recs {
		c := r[idx["cost/myCost"]]
		if err := want.add(model.OCI, r[idx["cost/currencyCode"]], c, c); err != nil {
			t.Fatal(err)
		}
	}
	return want
}

type refCredit struct {
	Amount json.Number `json:"amount"`
}

func gcpAdd(t *testing.T, want refSums, cur, cost string, credits []refCredit) {
	if err := want.add(model.GCP, cur, cost, cost); err != nil {
		t.Fatal(err)
	}
	for _, c := range credits {
		if err := want.add(model.GCP, cur, c.Amount.String(), c.Amount.String()); err != nil {
			t.Fatal(err)
		}
	}
}

func gcpCSVRef(t *testing.T) refSums {
	idx, recs := csvRows(t, "gcp.csv")
	want := refSums{}
	for _, r := range recs {
		var cr []refCredit
		if s := r[idx["credits"]]; s != "" {
			d := json.NewDecoder(strings.NewReader(s))
			d.UseNumber()
			if err := d.Decode(&cr); err != nil {
				t.Fatal(err)
			}
		}
		gcpAdd(t, want, r[idx["currency"]], r[idx["cost"]], cr)
	}
	return want
}

func gcpJSONRef(t *testing.T) refSums {
	b, err := os.ReadFile(filepath.Join("testdata", "gcp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := refSums{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var row struct {
			Cost     json.Number `json:"cost"`
			Currency string      `json:"currency"`
			Credits  []refCredit `json:"credits"`
		}
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&row); err != nil {
			t.Fatal(err)
		}
		gcpAdd(t, want, row.Currency, row.Cost.String(), row.Credits)
	}
	return want
}

func TestGeneratedFormats(t *testing.T) {
	tests := []struct {
		file, format string
		rows         int64
		ref          func(*testing.T) refSums
	}{
		{"focus-1.3.csv", FormatFOCUS, 9, focusRef},
		{"focus-1.3.csv.gz", FormatFOCUS, 9, focusRef},
		{"focus-1.3.parquet", FormatFOCUS, 9, focusRef},
		{"cur2.csv", FormatCUR, 9, cur2Ref},
		{"cur2.parquet", FormatCUR, 9, cur2Ref},
		{"azure-mca.csv", FormatAzure, 5, azureRef},
		{"gcp.csv", FormatGCP, 5, gcpCSVRef},
		{"gcp.jsonl", FormatGCP, 4, gcpJSONRef},
		{"gcp.jsonl.gz", FormatGCP, 4, gcpJSONRef},
		{"oci.csv", FormatOCI, 4, ociRef},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			res, err := ParseFile(context.Background(), filepath.Join("testdata", tt.file), Options{})
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if res.Format != tt.format || res.Rows != tt.rows {
				t.Errorf("format %q rows %d, want %q %d", res.Format, res.Rows, tt.format, tt.rows)
			}
			assertTotals(t, res.Totals, tt.ref(t))
			checkBatches(t, res)
		})
	}
}

// find returns the lines of a result matching pred.
func find(res FileResult, pred func(*model.CostLine) bool) []model.CostLine {
	var out []model.CostLine
	for _, b := range res.Batches {
		ls := expand(b)
		for i := range ls {
			if pred(&ls[i]) {
				out = append(out, ls[i])
			}
		}
	}
	return out
}

func parseFixture(t *testing.T, name string, opt Options) FileResult {
	t.Helper()
	res, err := ParseFile(context.Background(), filepath.Join("testdata", name), opt)
	if err != nil {
		t.Fatalf("ParseFile(%s): %v", name, err)
	}
	return res
}

func TestMapping(t *testing.T) {
	nanos := func(s string) model.Nanos {
		v, err := model.ParseNanos(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, file := range []string{"focus-1.3.csv", "focus-1.3.parquet"} {
		res := parseFixture(t, file, Options{})
		// Two hourly rows of i-0abc with the same tags in another key order
		// are one daily line.
		ec2 := find(res, func(l *model.CostLine) bool { return l.ResourceID == "i-0abc" })
		if len(ec2) != 1 || ec2[0].Billed != nanos("12.5000001234") || ec2[0].Tags["team"] != "web" ||
			ec2[0].ServiceCategory != "Compute" || ec2[0].Region != "us-east-1" || ec2[0].Day != "2025-01-03" {
			t.Errorf("%s: ec2 lines %+v", file, ec2)
		}
		credit := find(res, func(l *model.CostLine) bool { return l.ChargeCategory == "Credit" && l.Provider == model.AWS })
		if len(credit) != 1 || credit[0].Billed != nanos("-3.75") || credit[0].Region != "" {
			t.Errorf("%s: credit %+v", file, credit)
		}
		gcp := find(res, func(l *model.CostLine) bool { return l.Provider == model.GCP })
		if len(gcp) != 2 || gcp[0].ServiceCategory != "Compute" {
			t.Errorf("%s: gcp %+v (category from the embedded table)", file, gcp)
		}
		if got := res.Totals[model.Azure]["EUR"]; got.Billed != nanos("7.0011") {
			t.Errorf("%s: azure EUR %+v", file, got)
		}
		oci := find(res, func(l *model.CostLine) bool { return l.Provider == model.OCI && l.ChargeCategory == "Usage" })
		if len(oci) != 1 || oci[0].Tags["quote"] != `say "hi"` {
			t.Errorf("%s: oci %+v", file, oci)
		}
		// A FOCUS file replaces the days of its rows, not the whole
		// billing period it names: files cut by day add up.
		for _, b := range res.Batches {
			if b.Provider == model.AWS && (b.From != "2025-01-03" || b.To != "2025-01-03" || b.Part != nil) {
				t.Errorf("%s: aws batch span %s..%s part %v", file, b.From, b.To, b.Part)
			}
		}
	}

	cur := parseFixture(t, "cur2.csv", Options{})
	want := map[string]string{"Usage": "0.0928", "Purchase": "583.304", "Credit": "-12.34", "Tax": "0.0000001"}
	for cat, v := range want {
		var sum model.Nanos
		for _, l := range find(cur, func(l *model.CostLine) bool { return l.ChargeCategory == cat }) {
			sum += l.Billed
		}
		if sum != nanos(v) {
			t.Errorf("cur2 %s billed %s, want %s", cat, sum, v)
		}
	}
	ec2 := find(cur, func(l *model.CostLine) bool { return l.ResourceType == "instance" })
	if len(ec2) != 1 || ec2[0].Tags["team"] != "data" || ec2[0].Effective != nanos("0.1538") || ec2[0].ServiceCategory != "Compute" {
		t.Errorf("cur2 ec2 %+v", ec2)
	}

	az := parseFixture(t, "azure-mca.csv", Options{})
	vm := find(az, func(l *model.CostLine) bool { return strings.HasSuffix(l.ResourceID, "vm-web-1") })
	if len(vm) != 1 || vm[0].Region != "westeurope" || vm[0].Day != "2024-06-03" || vm[0].ResourceType != "microsoft.compute/virtualmachines" ||
		vm[0].Service != "Virtual Machines" || vm[0].Tags["owner"] != "ops" {
		t.Errorf("azure vm %+v", vm)
	}
	if r := find(az, func(l *model.CostLine) bool { return l.ChargeCategory == "Credit" }); len(r) != 1 || r[0].Billed != nanos("-120.25") {
		t.Errorf("azure refund %+v", r)
	}

	g := parseFixture(t, "gcp.csv", Options{})
	late := find(g, func(l *model.CostLine) bool { return l.Day == "2024-05-02" && l.Service == "Compute Engine" })
	if len(late) != 1 || late[0].Tags["team"] != "edge" || late[0].Tags["app"] != "api" {
		t.Errorf("gcp: offset timestamp or label merge wrong: %+v", late)
	}
	cr := find(g, func(l *model.CostLine) bool { return l.ChargeCategory == "Credit" })
	var crSum model.Nanos
	for _, l := range cr {
		crSum += l.Billed
	}
	if crSum != nanos("-0.0363222") {
		t.Errorf("gcp credits %s", crSum)
	}
	if b := g.Batches[0]; b.From != "2024-05-01" || b.To != "2024-05-31" {
		t.Errorf("gcp span %s..%s", b.From, b.To)
	}

	forced := parseFixture(t, "oci.csv", Options{Provider: model.OCI, Format: FormatOCI})
	if r := find(forced, func(l *model.CostLine) bool { return l.ChargeCategory == "Adjustment" }); len(r) != 1 || r[0].Billed != nanos("-0.064") {
		t.Errorf("oci correction %+v", r)
	}
}

// TestAccountNamesOfCURAndGCP: CUR 2.0's payer and usage account names and
// Google Cloud's project name name their ids.
func TestAccountNamesOfCURAndGCP(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "gcp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	line := strings.SplitN(string(b), "\n", 2)[0]
	line = strings.Replace(line, `"project":{"id":"proj-a",`, `"project":{"id":"proj-a","name":"Project A",`, 1)
	res, err := Parse(context.Background(), strings.NewReader(line+"\n"), "names.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	if got := res.AccountNames[model.GCP]["proj-a"]; got != "Project A" {
		t.Fatalf("GCP project name %q (%v)", got, res.AccountNames)
	}
	c, err := os.ReadFile(filepath.Join("testdata", "cur2.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimRight(string(c), "\n"), "\n")
	header := strings.Split(rows[0], ",")
	payer, usage := -1, -1
	for i, h := range header {
		switch h {
		case "bill_payer_account_id":
			payer = i
		case "line_item_usage_account_id":
			usage = i
		}
	}
	if payer < 0 || usage < 0 {
		t.Fatal("cur2.csv has no account columns")
	}
	var out strings.Builder
	out.WriteString(rows[0] + ",bill_payer_account_name,line_item_usage_account_name\n")
	for _, r := range rows[1:] {
		out.WriteString(r + ",Payer Org,Team Account\n")
	}
	res, err = Parse(context.Background(), strings.NewReader(out.String()), "names.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	first := strings.Split(rows[1], ",")
	if got := res.AccountNames[model.AWS][first[payer]]; got != "Payer Org" {
		t.Fatalf("payer %s named %q (%v)", first[payer], got, res.AccountNames)
	}
	if got := res.AccountNames[model.AWS][first[usage]]; got != "Team Account" {
		t.Fatalf("usage account %s named %q", first[usage], got)
	}
}
