package gcp

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	bigquery "google.golang.org/api/bigquery/v2"

	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// Committed use discount types and ids, as the billing export import names
// them: the export never ties a credit to one commitment, so resource-based
// CUDs are grouped per region and pricing unit (they apply only there, and
// a vCPU-hour is not a GiB-hour), spend-based ones together.
const (
	typeResourceCUD = "Committed Use Discount"
	typeSpendCUD    = "Committed Use Discount (spend-based)"
	idResourceCUD   = "gcp-cud/resource-based/"
	idSpendCUD      = "gcp-cud/spend-based"
)

// CommitmentsNote implements provider.CommitmentSource: committed use
// discounts are read from the billing export with the costs.
func (p *Provider) CommitmentsNote() string { return "" }

// commitmentQuery sums the export's committed use discounts per day,
// billing account, currency and CUD group:
//
//   - covered: the CUD credits on usage rows, negated. Google prices
//     covered usage on demand and credits the covered part back, so the
//     credit is the on-demand equivalent of the covered usage;
//   - fee: the commitment fee rows ("Commitment v1: …" resource-based,
//     "Commitment - dollar based v1: …" spend-based), what was purchased;
//   - covered_qty and capacity (resource-based): the covered usage in
//     pricing units (the row's quantity times the share of its cost the
//     credit covers) and the committed quantity of the fee rows, which
//     split the fee into used and unused;
//   - on_demand (id ”): usage priced by a unit of time, at list cost
//     less what CUD credits covered, per service, pricing unit and SKU.
//     Whether it is eligible usage is the file import's rule, applied in
//     Go to each group (eligibleOnDemand): the SKU says what SQL could
//     only say with a second list (an external IP, a Cloud NAT gateway, a
//     forwarding rule, a Spot VM are all priced by the hour on Compute
//     Engine). The unit filter, built from the rule's own words, bounds
//     the groups to the time-priced SKUs of each day.
var commitmentQuery = `WITH r AS (
  SELECT FORMAT_DATE('%%F', DATE(usage_start_time)) AS day,
    IFNULL(billing_account_id, '') AS account, IFNULL(currency, '') AS currency,
    IFNULL(location.region, 'global') AS region, LOWER(IFNULL(usage.pricing_unit, '')) AS unit,
    IFNULL(sku.description, '') AS sku_text, IFNULL(service.description, '') AS service,
    CAST(cost AS NUMERIC) AS cost, CAST(%s AS NUMERIC) AS list,
    CAST(IFNULL(usage.amount_in_pricing_units, 0) AS NUMERIC) AS qty,
    IFNULL((SELECT SUM(CAST(c.amount AS NUMERIC)) FROM UNNEST(credits) AS c WHERE c.type = 'COMMITTED_USAGE_DISCOUNT'), 0) AS cud,
    IFNULL((SELECT SUM(CAST(c.amount AS NUMERIC)) FROM UNNEST(credits) AS c WHERE c.type = 'COMMITTED_USAGE_DISCOUNT_DOLLAR_BASE'), 0) AS cud_spend
  FROM %s
  WHERE DATE(usage_start_time) BETWEEN @from AND @to%s
    AND IFNULL(cost_type, 'regular') = 'regular'
), k AS (
  SELECT *, LOWER(sku_text) AS sku, STARTS_WITH(LOWER(sku_text), 'commitment') AS is_fee,
    STARTS_WITH(LOWER(sku_text), 'commitment') AND (STRPOS(LOWER(sku_text), 'dollar') > 0 OR STRPOS(LOWER(sku_text), 'spend') > 0) AS spend_fee
  FROM r
)
SELECT day, account, currency, CONCAT('` + idResourceCUD + `', region, '/', unit) AS id, 'resource' AS kind,
  CAST(SUM(IF(is_fee, 0, -cud)) AS STRING) AS covered,
  CAST(SUM(IF(is_fee, cost, 0)) AS STRING) AS fee,
  CAST(SUM(IF(is_fee, 0, IFNULL(SAFE_DIVIDE(-cud, cost), 0) * qty)) AS STRING) AS covered_qty,
  CAST(SUM(IF(is_fee, qty, 0)) AS STRING) AS capacity,
  '0' AS on_demand, '' AS service, '' AS unit_text, '' AS sku_text
FROM k WHERE (is_fee AND NOT spend_fee) OR (NOT is_fee AND cud != 0)
GROUP BY day, account, currency, id
UNION ALL
SELECT day, account, currency, '` + idSpendCUD + `', 'spend',
  CAST(SUM(IF(is_fee, 0, -cud_spend)) AS STRING), CAST(SUM(IF(is_fee, cost, 0)) AS STRING), '0', '0', '0', '', '', ''
FROM k WHERE spend_fee OR (NOT is_fee AND cud_spend != 0)
GROUP BY day, account, currency
UNION ALL
SELECT day, account, currency, '', '', '0', '0', '0', '0',
  CAST(SUM(GREATEST(list + cud + cud_spend, 0)) AS STRING), service, unit, sku_text
FROM k WHERE NOT is_fee AND ` + anyWord("unit", billing.EligibleRowWords().TimeUnits) + `
GROUP BY day, account, currency, service, unit, sku_text`

// anyWord is a BigQuery condition: the (lower-case) column col contains
// one of words.
func anyWord(col string, words []string) string {
	conds := make([]string, len(words))
	for i, w := range words {
		conds[i] = "STRPOS(" + col + ", '" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(w) + "') > 0"
	}
	return "(" + strings.Join(conds, " OR ") + ")"
}

// commitments reads the span's committed use discounts from the billing
// export, with one eligible-usage fact (zero or not) for each day, billing
// account and currency of lines (the days the batch covers). The query is
// optional: when it fails the costs still stand, so the failure comes back
// as the batch's note (cancellation excepted).
func (p *Provider) commitments(ctx context.Context, bq *bigquery.Service, from, to string, lines []model.CostLine) ([]model.CommitmentFact, string, error) {
	format, hasList, ingestion, err := p.detect(ctx, bq)
	if err != nil {
		return nil, "", err
	}
	if format == formatFOCUS {
		return nil, "the live connector reads committed use discounts from the Cloud Billing export tables, not from a FOCUS view; " +
			"point gcp.billing_table at the standard or detailed export table, or import the FOCUS data", nil
	}
	project, dataset, table, _ := splitTable(p.cfg.BillingTable, p.cfg.ProjectID)
	list, partition := "cost", ""
	if hasList {
		list = "IFNULL(cost_at_list, cost)"
	}
	if ingestion {
		partition = "\n    AND DATE(_PARTITIONTIME) >= DATE_SUB(@from, INTERVAL 1 DAY)"
	}
	req := queryRequest(fmt.Sprintf(commitmentQuery, list, fmt.Sprintf("`%s.%s.%s`", project, dataset, table), partition), from, to)
	var facts []model.CommitmentFact
	onDemand := map[onDemandKey]model.Nanos{}
	err = p.run(ctx, bq, req, func(r *bigquery.TableRow) error {
		f, err := commitmentFact(r)
		if err != nil {
			return err
		}
		if f.ID == "" {
			onDemand[onDemandKey{f.Day, f.Account, f.Currency}] += f.OnDemand
			return nil
		}
		facts = append(facts, f)
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", err
		}
		return nil, provider.CommitmentsFailed(err, ""), nil
	}
	for i := range lines {
		if day, ok := model.ParseDayNum(lines[i].Day); ok {
			k := onDemandKey{day, lines[i].BillingAccount, lines[i].Currency}
			if _, seen := onDemand[k]; !seen {
				onDemand[k] = 0 // a day without eligible usage reads as none, not unknown
			}
		}
	}
	for k, v := range onDemand {
		facts = append(facts, model.CommitmentFact{Day: k.day, Account: k.account, Currency: k.currency, OnDemand: v})
	}
	slices.SortFunc(facts, func(a, b model.CommitmentFact) int {
		return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.Account, b.Account), cmp.Compare(a.ID, b.ID),
			cmp.Compare(a.Currency, b.Currency))
	})
	return facts, "", nil
}

// onDemandKey identifies the one eligible-usage fact of a day.
type onDemandKey struct {
	day               model.DayNum
	account, currency string
}

// eligibleOnDemand is the file import's eligibility rule for a group of
// time-priced usage: its SKU and unit (the row's half) and its service
// (the line's half; the group has no resource, so its type is not read).
func eligibleOnDemand(service, unit, sku string) bool {
	l := model.CostLine{Provider: model.GCP, Service: service, ChargeCategory: "Usage"}
	return billing.EligibleRow("", unit, sku) && billing.EligibleUsage(&l)
}

// commitmentFact reads one row of the commitment query. A group's fee is
// split by the committed quantity it covered (resource-based), else, with
// no quantity, by what its credits covered: used = min(fee, covered). The
// used fee is what the covered usage cost. An on-demand group (id "")
// counts only when eligibleOnDemand accepts it.
func commitmentFact(r *bigquery.TableRow) (model.CommitmentFact, error) {
	if r == nil || len(r.F) != 13 {
		return model.CommitmentFact{}, badRow("a commitment row has the wrong number of cells")
	}
	s := func(i int) string {
		if r.F[i] == nil || r.F[i].V == nil {
			return ""
		}
		if v, ok := r.F[i].V.(string); ok {
			return v
		}
		return fmt.Sprint(r.F[i].V)
	}
	var n [5]model.Nanos
	for i := range n {
		v := s(5 + i)
		if v == "" {
			continue
		}
		x, err := model.ParseNanos(v)
		if err != nil {
			return model.CommitmentFact{}, badRow("unreadable commitment amount " + v)
		}
		n[i] = x
	}
	covered, fee, coveredQty, capacity, onDemand := n[0], n[1], n[2], n[3], n[4]
	day, ok := model.ParseDayNum(s(0))
	if !ok {
		return model.CommitmentFact{}, badRow("unreadable day " + s(0))
	}
	f := model.CommitmentFact{Account: s(1), Day: day, Currency: s(2), ID: s(3)}
	switch s(4) {
	case "":
		if eligibleOnDemand(s(10), s(11), s(12)) {
			f.OnDemand = onDemand
		}
		return f, nil
	case "spend":
		f.Type, f.Category = typeSpendCUD, "Spend"
	default:
		f.Type, f.Category = typeResourceCUD, "Usage"
	}
	f.CoveredList = covered
	f.Used = min(fee, covered)
	if capacity > 0 {
		share := min(coveredQty.Float64()/capacity.Float64(), 1)
		f.Used = model.NanosFromFloat(fee.Float64() * max(share, 0))
	}
	f.Used = max(f.Used, 0)
	f.Unused = fee - f.Used
	f.CoveredCost = f.Used
	return f, nil
}
