package athena

import (
	"context"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// usageRow is one usage row of the eligibility fixtures, written in each
// export format by eligibleFixture.
type usageRow struct {
	day, code, service, category   string // product code, name, FOCUS ServiceCategory
	unit, pricing, usageType, desc string // pricing unit and category, usage type, description
	cost                           string // unblended, public on-demand and list cost
}

// eligibleRows are a day of compute and database hours paid on demand
// and, priced by the hour on the same services (the line's half of the
// rule accepts them), an idle Elastic IP, a NAT gateway, load balancer
// capacity units and Spot hours; then a public IPv4 address, an
// Application Load Balancer, storage and data transfer.
func eligibleRows(day string) []usageRow {
	ec2, rds, vpc, elb := "AmazonEC2", "AmazonRDS", "AmazonVPC", "AWSELB"
	ec2n, rdsn := "Amazon Elastic Compute Cloud", "Amazon Relational Database Service"
	vpcn, elbn := "Amazon Virtual Private Cloud", "Elastic Load Balancing"
	return []usageRow{
		{day, ec2, ec2n, "Compute", "Hrs", "OnDemand", "USE1-BoxUsage:m5.large", "$0.096 per On Demand Linux m5.large Instance Hour", "2.304"},
		{day, rds, rdsn, "Databases", "Hrs", "OnDemand", "USE1-InstanceUsage:db.r5.large", "$0.24 per RDS db.r5.large instance hour (or partial hour) running MySQL", "5.76"},
		{day, ec2, ec2n, "Compute", "Hrs", "OnDemand", "USE1-ElasticIP:IdleAddress", "$0.005 per Elastic IP address not attached to a running instance per hour (prorated)", "0.12"},
		{day, ec2, ec2n, "Compute", "Hrs", "OnDemand", "USE1-NatGateway-Hours", "$0.045 per NAT Gateway Hour", "1.08"},
		{day, ec2, ec2n, "Compute", "LCU-Hrs", "OnDemand", "USE1-LCUUsage", "$0.008 per used Application load balancer capacity unit-hour (or partial hour)", "0.192"},
		{day, ec2, ec2n, "Compute", "Hrs", "OnDemand", "USE1-SpotUsage:m5.large", "m5.large Linux/UNIX Spot Instance-hour in US East (Virginia) in us-east-1a", "0.84"},
		{day, vpc, vpcn, "Networking", "Hrs", "OnDemand", "USE1-PublicIPv4:InUseAddress", "$0.005 per In-use public IPv4 address per hour", "0.12"},
		{day, elb, elbn, "Networking", "Hrs", "OnDemand", "USE1-LoadBalancerUsage", "$0.0225 per Application LoadBalancer-hour (or partial hour)", "0.54"},
		{day, ec2, ec2n, "Storage", "GB-Mo", "OnDemand", "USE1-EBS:VolumeUsage.gp3", "$0.08 per GB-month of General Purpose (gp3) provisioned storage", "0.27"},
		{day, ec2, ec2n, "Networking", "GB", "OnDemand", "USE1-DataTransfer-Out-Bytes", "$0.09 per GB - first 10 TB / month data transfer out", "0.9"},
	}
}

// eligibleFixture writes rows as a table of format (CUR 2.0, legacy CUR
// without reservation and savings plan columns, FOCUS without
// commitment columns) and returns its path. In FOCUS a Spot row says so
// by its PricingCategory (Dynamic) only.
func eligibleFixture(t *testing.T, format string, rows []usageRow) string {
	t.Helper()
	var head []string
	var cells func(r usageRow) []string
	start := func(r usageRow) string { return r.day + "T05:00:00Z" }
	switch format {
	case config.AthenaCUR2:
		head = []string{"bill_payer_account_id", "bill_billing_period_start_date", "line_item_usage_account_id",
			"line_item_line_item_type", "line_item_usage_start_date", "line_item_product_code", "product_product_name",
			"line_item_usage_type", "line_item_line_item_description", "line_item_currency_code", "line_item_unblended_cost",
			"pricing_public_on_demand_cost", "pricing_unit", "pricing_term", "reservation_reservation_a_r_n",
			"savings_plan_savings_plan_a_r_n"}
		cells = func(r usageRow) []string {
			return []string{"999988887777", "2024-03-01T00:00:00Z", "123456789012", "Usage", start(r), r.code, r.service,
				r.usageType, r.desc, "USD", r.cost, r.cost, r.unit, r.pricing, "", ""}
		}
	case config.AthenaLegacy:
		head = []string{"bill/PayerAccountId", "bill/BillingPeriodStartDate", "lineItem/UsageAccountId", "lineItem/LineItemType",
			"lineItem/UsageStartDate", "lineItem/ProductCode", "product/ProductName", "lineItem/UsageType",
			"lineItem/LineItemDescription", "lineItem/CurrencyCode", "lineItem/UnblendedCost", "pricing/publicOnDemandCost",
			"pricing/unit", "pricing/term"}
		cells = func(r usageRow) []string {
			return []string{"999988887777", "2024-03-01T00:00:00Z", "123456789012", "Usage", start(r), r.code, r.service,
				r.usageType, r.desc, "USD", r.cost, r.cost, r.unit, r.pricing}
		}
	default:
		head = []string{"BillingAccountId", "SubAccountId", "BillingCurrency", "BillingPeriodStart", "ChargeCategory",
			"ChargePeriodStart", "BilledCost", "EffectiveCost", "ListCost", "ProviderName", "ServiceName", "ServiceCategory",
			"PricingUnit", "PricingCategory", "ChargeDescription", "x_UsageType"}
		cells = func(r usageRow) []string {
			pricing, usageType, desc := "Standard", r.usageType, r.desc
			if strings.Contains(usageType, "Spot") {
				// Only the pricing category says Spot.
				pricing, usageType, desc = "Dynamic", "USE1-BoxUsage:m5.large", ""
			}
			return []string{"999988887777", "123456789012", "USD", "2024-03-01T00:00:00Z", "Usage", start(r), r.cost, r.cost,
				r.cost, "AWS", r.service, r.category, r.unit, pricing, desc, usageType}
		}
	}
	recs := [][]string{head}
	for _, r := range rows {
		recs = append(recs, cells(r))
	}
	return writeCSV(t, format+".csv", recs)
}

// TestEligibleUsageRowRule is the acceptance of one eligible-usage
// figure over Athena: in each format, beside compute and database hours,
// the table has hour-priced charges no commitment covers on the same
// services (an Elastic IP, a NAT gateway, load balancer capacity units,
// Spot) and others. The eligible usage the connector reports is exactly
// the compute and database hours' cost, the file import's figure for the
// same file, and the Commitments view's eligible usage (which the
// commitment recommendation shares), whether or not the table has
// commitment columns.
func TestEligibleUsageRowRule(t *testing.T) {
	const d1, d2 = "2024-03-05", "2024-03-06"
	rows := append(eligibleRows(d1), eligibleRows(d2)...)
	// Independently: the m5.large and db.r5.large hours.
	want := map[string]float64{d1: 2.304 + 5.76, d2: 2.304 + 5.76}
	for _, format := range []string{config.AthenaCUR2, config.AthenaLegacy, config.AthenaFOCUS} {
		t.Run(format, func(t *testing.T) {
			path := eligibleFixture(t, format, rows)
			onEachEngine(t, func(t *testing.T, eng engine) {
				f, srv := newFakeAthenaOn(t, eng, path, testDB, "export")
				cfg := testConfig(srv.URL)
				cfg.Athena.Table, cfg.Athena.Format = "export", format
				p, _ := newTestProvider(t, cfg)
				b, err := p.FetchCosts(context.Background(), d1, d2)
				if err != nil {
					t.Fatal(err)
				}
				if b.CommitmentsNote != "" || f.Count("StartQueryExecution") != 2 {
					t.Fatalf("batch note %q, %d queries; want the commitment query's facts", b.CommitmentsNote, f.Count("StartQueryExecution"))
				}
				got, imported := onDemandByDay(b.Commitments), onDemandByDay(importCommitments(t, path, d1, d2))
				for _, d := range []string{d1, d2} {
					if diff := got[d] - want[d]; diff > 1e-9 || diff < -1e-9 {
						t.Errorf("%s: eligible usage paid on demand = %v, want the compute and database hours' %v", d, got[d], want[d])
					}
					if got[d] != imported[d] {
						t.Errorf("%s: the file import of the same rows says %v, the connector %v", d, imported[d], got[d])
					}
				}
				rep := report(b.Commitments, model.SourceAthena)
				if len(rep.Providers) != 1 || max(rep.Providers[0].EligibleOnDemand-(want[d1]+want[d2]), want[d1]+want[d2]-rep.Providers[0].EligibleOnDemand) > 1e-6 {
					t.Errorf("the Commitments view: %+v; want eligible usage %v", rep.Providers, want[d1]+want[d2])
				}
			})
		})
	}
}

// onDemandByDay sums facts' eligible usage paid on demand by day.
func onDemandByDay(fs []model.CommitmentFact) map[string]float64 {
	out := map[string]float64{}
	for _, f := range fs {
		if f.ID == "" {
			out[f.Day.String()] += f.OnDemand.Float64()
		}
	}
	return out
}

// TestExcludedTextIsTheRule: on each engine, the query's test of the texts
// (excludedText) says of every text what the rule (billing.EligibleRow)
// says: each ineligible word in any case and place, in either column,
// and no word made of the end of one column and the start of the next.
func TestExcludedTextIsTheRule(t *testing.T) {
	words := billing.EligibleRowWords().Ineligible
	type pair struct{ a, b string }
	cases := []pair{{"", ""}, {"BoxUsage:m5.large", "$0.096 per On Demand Linux m5.large Instance Hour"},
		{"100% of 1_000", "a\\b 'quoted'"}, {"public", "ip"}, {"nat", "gateway"}}
	for i, w := range words {
		up := strings.ToUpper(w)
		cases = append(cases, pair{"USE1-" + up + ":x", ""}, pair{"", "per " + w + " hour"})
		if n := len(w) / 2; n > 0 && i%2 == 0 {
			cases = append(cases, pair{"x " + w[:n], w[n:] + " y"}) // split across the two columns
		}
	}
	onEachEngine(t, func(t *testing.T, eng engine) {
		db := eng.open(t, t.TempDir(), "s")
		if _, err := db.Exec(`CREATE TABLE "s"."texts" ("n" ` + eng.column("double") + `, "a" ` + eng.column("string") +
			`, "b" ` + eng.column("string") + `)`); err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			if _, err := db.Exec(`INSERT INTO "s"."texts" VALUES (?, ?, ?)`, float64(i), c.a, c.b); err != nil {
				t.Fatal(err)
			}
		}
		info := &tableInfo{cols: map[string]string{"n": "double", "a": "string", "b": "string"}}
		rows, err := db.Query(eng.prepare(`SELECT "n", ` + excludedText(info, "1 = 1", "a", "b") + ` FROM "s"."texts"`))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		seen := 0
		for rows.Next() {
			var n float64
			var excluded string
			if err := rows.Scan(&n, &excluded); err != nil {
				t.Fatal(err)
			}
			c := cases[int(n)]
			if rule := !billing.EligibleRow("", "Hours", c.a, c.b); rule != (excluded != "") {
				t.Errorf("%q, %q: the query says excluded %v, the rule %v", c.a, c.b, excluded != "", rule)
			}
			seen++
		}
		if err := rows.Err(); err != nil || seen != len(cases) {
			t.Fatalf("%d of %d rows: %v", seen, len(cases), err)
		}
	})
}
