package gcp

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

const billingAccount = "01A2B3-C4D5E6-F7G8H9"

// cudRows are the commitment query's answer: a resource-based group whose
// fee is partly used (80 of 100 committed units covered) on the first day
// and over-covered on the second, a spend-based one, and the eligible
// usage paid on demand each day.
var cudRows = [][]string{
	{"2026-11-17", billingAccount, "USD", "gcp-cud/resource-based/us-central1/hour", "resource", "40", "20", "80", "100", "0", "", "", ""},
	{"2026-11-17", billingAccount, "USD", "gcp-cud/spend-based", "spend", "10", "8", "0", "0", "0", "", "", ""},
	{"2026-11-17", billingAccount, "USD", "", "", "0", "0", "0", "0", "30", "Compute Engine", "hour", "N2 Instance Core running in Americas"},
	{"2026-11-18", billingAccount, "USD", "gcp-cud/resource-based/us-central1/hour", "resource", "50", "20", "120", "100", "0", "", "", ""},
	{"2026-11-18", billingAccount, "USD", "", "", "0", "0", "0", "0", "25.000000001", "Compute Engine", "hour", "N2 Instance Core running in Americas"},
}

func TestFetchCommitments(t *testing.T) {
	f, srv := newFakeGoogle(t)
	f.cud = cudRows
	p := newTestProvider(t, srv.URL)
	var cs provider.CommitmentSource = p
	if cs.CommitmentsNote() != "" {
		t.Fatal("the GCP connector should say it reads committed use discounts")
	}
	b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-18")
	if err != nil {
		t.Fatal(err)
	}
	// The rows, and a zero eligible-usage fact on the 19th: its costs
	// have none.
	if b.CommitmentsNote != "" || len(b.Commitments) != len(cudRows)+1 {
		t.Fatalf("note %q, %d facts; want %d facts", b.CommitmentsNote, len(b.Commitments), len(cudRows)+1)
	}
	queries := f.Kept("jobs.query commitments")
	if len(queries) != 1 {
		t.Fatalf("commitment queries = %d, want 1", len(queries))
	}
	sql := queries[0]["query"].(string)
	for _, w := range []string{"COMMITTED_USAGE_DISCOUNT'", "COMMITTED_USAGE_DISCOUNT_DOLLAR_BASE", "'commitment'", "IFNULL(cost_at_list, cost)",
		"usage.amount_in_pricing_units", "_PARTITIONTIME", "`acme-billing.billing.gcp_billing_export_resource_v1_01A2B3`",
		"STRPOS(unit, 'hour') > 0", "GROUP BY day, account, currency, service, unit, sku_text"} {
		if !strings.Contains(sql, w) {
			t.Errorf("commitment SQL lacks %q:\n%s", w, sql)
		}
	}

	// Independently: covered usage is the credits; a resource-based fee is
	// used in the share of its committed units covered (at most all), a
	// spend-based one up to what its credits covered.
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	var covered, onDemand, used, fee, resUsed, resFee, spendUsed, spendFee float64
	for _, r := range cudRows {
		covered += num(r[5])
		onDemand += num(r[9])
		u := 0.0
		switch r[4] {
		case "resource":
			u = num(r[6]) * min(num(r[7])/num(r[8]), 1)
			resUsed, resFee = resUsed+u, resFee+num(r[6])
		case "spend":
			u = min(num(r[6]), num(r[5]))
			spendUsed, spendFee = spendUsed+u, spendFee+num(r[6])
		}
		used += u
		fee += num(r[6])
	}
	rep := providertest.CommitmentReport(t, b, "2026-11-20")
	total := providertest.Summary(t, rep, model.GCP, "")
	res := providertest.Summary(t, rep, model.GCP, typeResourceCUD)
	spend := providertest.Summary(t, rep, model.GCP, typeSpendCUD)
	for _, c := range []struct {
		name string
		got  *float64
		want float64
	}{
		{"coverage", total.Coverage, covered / (covered + onDemand)},
		{"resource-based utilization", res.Utilization, resUsed / resFee},
		{"spend-based utilization", spend.Utilization, spendUsed / spendFee},
		{"unused", &total.UnusedCost, fee - used},
		// Net savings: the credits received less the fees paid.
		{"net savings", &total.NetSavings, covered - fee},
	} {
		if !providertest.Near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if total.ExpiryUnknown != 2 || len(rep.Expiring) != 0 {
		t.Errorf("%d commitments without end, expiring %v; the export gives no term ends", total.ExpiryUnknown, rep.Expiring)
	}
	for _, fct := range b.Commitments {
		if fct.Account != billingAccount || fct.Currency != "USD" {
			t.Errorf("fact %+v", fct)
		}
	}
}

// TestCommitmentsQueryFails: a failed commitment query leaves the costs
// whole and says why; a FOCUS view gives none and says why.
func TestCommitmentsQueryFails(t *testing.T) {
	f, srv := newFakeGoogle(t)
	f.fail = func(op string, _ int) (int, string, bool) { return 400, "invalidQuery", op == "jobs.query commitments" }
	p := newTestProvider(t, srv.URL)
	b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatalf("the costs should not fail with the commitment query: %v", err)
	}
	if len(b.Lines) == 0 || len(b.Commitments) != 0 || !strings.Contains(b.CommitmentsNote, "invalidQuery") {
		t.Errorf("%d lines, %d facts, note %q; want the lines, no facts, the failure", len(b.Lines), len(b.Commitments), b.CommitmentsNote)
	}

	f, srv = newFakeGoogle(t)
	f.schema = []string{"BillingAccountId", "SubAccountId", "ServiceName", "ChargePeriodStart", "BilledCost", "EffectiveCost", "ListCost", "BillingCurrency"}
	p = newTestProvider(t, srv.URL)
	b, err = p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if n := f.Count("jobs.query commitments"); err != nil || b.CommitmentsNote == "" || n != 0 {
		t.Errorf("FOCUS view: note %q, %d commitment queries, %v; want a note and no query", b.CommitmentsNote, n, err)
	}
}

// exportRow is one usage row of a billing export, as the file import reads
// it and as the commitment query groups it (one row per group here).
type exportRow struct {
	day, service, unit, sku string
	list, cud               string // cost at list; the CUD credit on it
}

// TestEligibleUsageRowRule is the acceptance of one eligible-usage figure:
// beside the compute hours, the export has hour-priced charges of the
// eligible services that no commitment covers (an external IP, a Cloud
// NAT gateway, a forwarding rule, Spot and preemptible VMs, a GKE cluster
// fee) and usage not priced by time. The eligible usage the connector
// reports is exactly the compute hours' list cost less their CUD credits,
// the file import's figure for the same rows, and the Commitments view's
// eligible usage (which the commitment recommendation shares).
func TestEligibleUsageRowRule(t *testing.T) {
	const d1, d2 = "2026-11-17", "2026-11-18"
	rows := []exportRow{
		{d1, "Compute Engine", "hour", "N2 Instance Core running in Americas", "12.5", "0"},
		{d1, "Compute Engine", "gibibyte hour", "N2 Instance Ram running in Americas", "3.25", "0"},
		{d1, "Compute Engine", "hour", "E2 Instance Core running in Americas", "10", "-6"},
		{d1, "Compute Engine", "hour", "External IP Charge on a Standard VM", "0.24", "0"},
		{d1, "Compute Engine", "hour", "Cloud NAT Gateway Uptime charge", "1.08", "0"},
		{d1, "Compute Engine", "hour", "Network Load Balancing: Forwarding Rule Minimum Service Charge in Americas", "0.6", "0"},
		{d1, "Compute Engine", "hour", "Spot Preemptible N2 Instance Core running in Americas", "4", "0"},
		{d1, "Compute Engine", "gibibyte month", "Storage PD Capacity", "7", "0"},
		{d2, "Compute Engine", "hour", "N2 Instance Core running in Americas", "12.5", "0"},
		{d2, "Compute Engine", "hour", "Preemptible N1 Predefined Instance Core running in Americas", "2", "0"},
		{d2, "Compute Engine", "hour", "Static IP Charge", "0.24", "0"},
		{d2, "Cloud SQL", "hour", "Cloud SQL for PostgreSQL: Zonal - vCPU in Americas", "1.5", "0"},
		{d2, "Kubernetes Engine", "hour", "Regional Kubernetes Clusters", "2.4", "0"},
		{d2, "Networking", "hour", "Cloud NAT Gateway Uptime charge", "1.08", "0"},
		{d2, "Cloud Storage", "gibibyte month", "Standard Storage US Multi-region", "3", "0"},
	}
	// Independently: the compute and database hours paid on demand, at
	// list price, the covered E2 hours for their uncovered part (10 - 6).
	want := map[string]float64{d1: 12.5 + 3.25 + 4, d2: 12.5 + 1.5}

	f, srv := newFakeGoogle(t)
	f.cud = [][]string{{d1, billingAccount, "USD", "gcp-cud/resource-based/us-central1/hour", "resource", "6", "5", "6", "10", "0", "", "", ""}}
	for _, r := range rows {
		// The query's on_demand: the list cost less the CUD credits, never
		// below zero.
		list, _ := strconv.ParseFloat(r.list, 64)
		cud, _ := strconv.ParseFloat(r.cud, 64)
		f.cud = append(f.cud, []string{r.day, billingAccount, "USD", "", "", "0", "0", "0", "0",
			strconv.FormatFloat(max(list+cud, 0), 'f', -1, 64), r.service, r.unit, r.sku})
	}
	p := newTestProvider(t, srv.URL)
	b, err := p.FetchCosts(context.Background(), d1, d2)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, fct := range b.Commitments {
		if fct.ID == "" {
			got[fct.Day.String()] += fct.OnDemand.Float64()
		}
	}
	imported := importOnDemand(t, rows)
	for _, d := range []string{d1, d2} {
		if !providertest.Near(ptr(got[d]), want[d]) {
			t.Errorf("%s: eligible usage paid on demand = %v, want the compute hours' %v", d, got[d], want[d])
		}
		if !providertest.Near(ptr(imported[d]), got[d]) {
			t.Errorf("%s: the file import of the same rows says %v, the connector %v", d, imported[d], got[d])
		}
	}
	rep := providertest.CommitmentReport(t, b, "2026-11-20")
	total := providertest.Summary(t, rep, model.GCP, "")
	if eligible := 6 + want[d1] + want[d2]; !providertest.Near(&total.EligibleOnDemand, eligible) {
		t.Errorf("the Commitments view's eligible usage = %v, want the covered 6 and the compute hours' %v", total.EligibleOnDemand, eligible)
	}
}

func ptr(v float64) *float64 { return &v }

// importOnDemand imports rows as a billing export file and sums the
// eligible usage paid on demand per day.
func importOnDemand(t *testing.T, rows []exportRow) map[string]float64 {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("billing_account_id,project.id,service.description,sku.description,usage_start_time,cost,cost_at_list," +
		"currency,credits,usage.pricing_unit,usage.amount_in_pricing_units,cost_type\n")
	for _, r := range rows {
		credits := "[]"
		if r.cud != "0" {
			credits = `"[{""name"":""Committed use discount"",""amount"":` + r.cud + `,""type"":""COMMITTED_USAGE_DISCOUNT""}]"`
		}
		sb.WriteString(strings.Join([]string{billingAccount, testProject, r.service, `"` + r.sku + `"`, r.day + "T10:00:00Z",
			r.list, r.list, "USD", credits, r.unit, "1", "regular"}, ",") + "\n")
	}
	res, err := billing.Parse(context.Background(), strings.NewReader(sb.String()), "gcp-export.csv", billing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	out := map[string]float64{}
	for _, b := range res.Batches {
		for _, f := range b.Commitments {
			if f.ID == "" {
				out[f.Day.String()] += f.OnDemand.Float64()
			}
		}
	}
	if len(out) != 2 {
		t.Fatalf("the import has eligible usage on %d days: %v", len(out), out)
	}
	return out
}
