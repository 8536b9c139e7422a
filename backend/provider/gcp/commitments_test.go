package gcp

import (
	"context"
	"strconv"
	"strings"
	"testing"

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
	{"2026-11-17", billingAccount, "USD", "gcp-cud/resource-based/us-central1/hour", "resource", "40", "20", "80", "100", "0"},
	{"2026-11-17", billingAccount, "USD", "gcp-cud/spend-based", "spend", "10", "8", "0", "0", "0"},
	{"2026-11-17", billingAccount, "USD", "", "", "0", "0", "0", "0", "30"},
	{"2026-11-18", billingAccount, "USD", "gcp-cud/resource-based/us-central1/hour", "resource", "50", "20", "120", "100", "0"},
	{"2026-11-18", billingAccount, "USD", "", "", "0", "0", "0", "0", "25.000000001"},
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
	if b.CommitmentsNote != "" || len(b.Commitments) != len(cudRows) {
		t.Fatalf("note %q, %d facts; want %d facts", b.CommitmentsNote, len(b.Commitments), len(cudRows))
	}
	if len(f.commitQueries) != 1 {
		t.Fatalf("commitment queries = %d, want 1", len(f.commitQueries))
	}
	sql := f.commitQueries[0]["query"].(string)
	for _, w := range []string{"COMMITTED_USAGE_DISCOUNT'", "COMMITTED_USAGE_DISCOUNT_DOLLAR_BASE", "'commitment'", "IFNULL(cost_at_list, cost)",
		"usage.amount_in_pricing_units", "_PARTITIONTIME", "`acme-billing.billing.gcp_billing_export_resource_v1_01A2B3`"} {
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
	if err != nil || b.CommitmentsNote == "" || len(f.commitQueries) != 0 {
		t.Errorf("FOCUS view: note %q, %d commitment queries, %v; want a note and no query", b.CommitmentsNote, len(f.commitQueries), err)
	}
}
