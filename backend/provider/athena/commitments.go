package athena

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// CommitmentsNote implements provider.CommitmentSource: every format's
// batches carry its commitment discounts.
func (p *Provider) CommitmentsNote() string { return "" }

// The line item types the commitment measures read (the file import's,
// see billing's CUR mapper): on-demand usage, usage a reservation or a
// savings plan covered, and their recurring fees.
const commitTypes = `'Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage', 'RIFee', 'SavingsPlanRecurringFee'`

// Result columns of the commitment query: the grouping columns, then the
// sums.
var commitCols = []string{"day", "payer", "account", "currency", "line_type", "product_code", "product_name", "unit",
	"excluded", "id", "end_day", "list", "effective", "billed", "upfront", "units", "unused_units", "used_commitment"}

const commitGroups = 10

// commitmentQuery sums the rows of the days [from, to] that the
// commitment measures read, per day, account, currency, line item type
// and commitment; on-demand usage also per service and pricing unit, and
// by whether its usage type or description names a charge no commitment
// covers (excluded). Whether usage is eligible for a commitment is the
// file import's rule: Go applies it to each group (addCURCommitRow), all
// of it but the test of the texts, whose values are too many to group by
// and which the query states with the rule's own words (excludedText).
// The amounts are the cost query's (effective and list as curEffective
// and curList). A table without reservation or savings plan columns is
// read too: its usage is all on demand, and its eligible usage counts.
func commitmentQuery(cfg config.AthenaConfig, t *tableInfo, from, to time.Time) query {
	typ := t.col(curType)
	ri := `(` + typ + ` IN ('DiscountedUsage', 'RIFee'))`
	sp := `(` + typ + ` IN ('SavingsPlanCoveredUsage', 'SavingsPlanRecurringFee'))`
	usage := typ + ` = 'Usage'`
	exprs := []string{
		dayOf(t.col(curStart)),
		t.text("bill_payer_account_id"),
		t.text("line_item_usage_account_id"),
		t.text("line_item_currency_code"),
		t.text(curType),
		t.text("line_item_product_code"),
		t.text("product_product_name"),
		`CASE WHEN ` + usage + ` THEN ` + t.text("pricing_unit") + ` ELSE '' END`,
		excludedText(t, usage, "line_item_usage_type", "line_item_line_item_description"),
		`CASE WHEN ` + ri + ` THEN ` + t.text("reservation_reservation_a_r_n") +
			` WHEN ` + sp + ` THEN ` + t.text("savings_plan_savings_plan_a_r_n") + ` ELSE '' END`,
		`MAX(CASE WHEN ` + ri + ` THEN ` + dayOf(t.col("reservation_end_time")) +
			` WHEN ` + sp + ` THEN ` + dayOf(t.col("savings_plan_end_time")) + ` END)`,
		`SUM(` + curList(t) + `)`,
		`SUM(` + curEffective(t) + `)`,
		`SUM(` + t.amount(curUnblended) + `)`,
		`SUM(` + t.amount("reservation_amortized_upfront_fee_for_billing_period") + `)`,
		`SUM(` + t.amount("reservation_total_reserved_units") + `)`,
		`SUM(` + t.amount("reservation_unused_quantity") + `)`,
		`SUM(` + t.amount("savings_plan_used_commitment") + `)`,
	}
	w, params := where(cfg.Format, t, curStart, from, to)
	w += "\n  AND " + typ + ` IN (` + commitTypes + `)`
	return query{sql: selectSQL(exprs, commitCols, ref(cfg), w, commitGroups), params: params, cols: commitCols}
}

// excludedText is 'x' for a row where when holds whose texts (the
// present columns of cols) name a charge no commitment covers, else ”:
// the text test of the row's half of the eligibility rule, in SQL from
// the rule's own words (billing.EligibleRowWords), matched as the rule
// matches them, in the texts lower-cased. The texts are joined by a
// character no word has, so no word matches across two of them.
func excludedText(t *tableInfo, when string, cols ...string) string {
	var texts []string
	for _, c := range cols {
		if t.has(c) {
			texts = append(texts, t.text(c))
		}
	}
	if len(texts) == 0 {
		return "''"
	}
	text := `lower(` + strings.Join(texts, ` || '|' || `) + `)`
	words := billing.EligibleRowWords().Ineligible
	conds := make([]string, len(words))
	for i, w := range words {
		conds[i] = text + ` LIKE ` + lit("%"+likeEscape.Replace(w)+"%") + ` ESCAPE '\'`
	}
	return `CASE WHEN ` + when + ` AND (` + strings.Join(conds, "\n    OR ") + `) THEN 'x' ELSE '' END`
}

// likeEscape escapes LIKE's wildcards (and its escape) in a word.
var likeEscape = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// commitments returns the commitment facts of the days [from, to], with
// one eligible-usage fact (zero or not) for each day, account and
// currency of lines (the days the batch covers). The query is optional:
// when it fails the costs still stand, so the failure comes back as the
// batch's note (cancellation excepted).
func (p *Provider) commitments(ctx context.Context, t *tableInfo, from, to time.Time, lines []model.CostLine) ([]model.CommitmentFact, string, error) {
	var (
		q   query
		add func(factSet, []string) error
	)
	if p.cfg.Format == config.AthenaFOCUS {
		q, add = focusCommitmentQuery(p.cfg, t, from, to), addFOCUSCommitRow
	} else {
		q, add = commitmentQuery(p.cfg, t, from, to), addCURCommitRow
	}
	facts := factSet{}
	_, err := p.run(ctx, "commitment query", q.sql, q.params, q.cols, func(r []string) error { return add(facts, r) })
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", err
		}
		return nil, provider.CommitmentsFailed(err, ""), nil
	}
	return facts.list(lines), "", nil
}

// commitRow is one row of commitmentQuery.
type commitRow struct {
	key                                     billing.CURKey
	day, unit, id, end                      string
	excluded                                bool // its texts name a charge no commitment covers
	list, effective, billed, upfront, units model.Nanos
	unusedUnits, usedCommitment             model.Nanos
}

func readCommitRow(r []string) (commitRow, error) {
	row := commitRow{
		key: billing.CURKey{Payer: trim(r[1]), Account: trim(r[2]), Currency: r[3], LineItemType: r[4],
			ProductCode: trim(r[5]), ProductName: trim(r[6])},
		day: r[0], unit: r[7], excluded: r[8] != "", id: r[9], end: r[10],
	}
	if _, err := time.Parse(model.DateLayout, row.day); err != nil {
		return row, badRow("commitment query", "unreadable day "+clip(row.day))
	}
	for i, dst := range []*model.Nanos{&row.list, &row.effective, &row.billed, &row.upfront, &row.units,
		&row.unusedUnits, &row.usedCommitment} {
		v, err := nanos(r[11+i])
		if err != nil {
			return row, badRow("commitment query", err.Error())
		}
		*dst = v
	}
	return row, nil
}

// factKey identifies one commitment fact.
type factKey struct {
	account, currency, id string
	day                   model.DayNum
}

// factSet sums the facts of a commitment query's rows.
type factSet map[factKey]*model.CommitmentFact

func (s factSet) get(k factKey, typ, cat string) *model.CommitmentFact {
	f := s[k]
	if f == nil {
		f = &model.CommitmentFact{Account: k.account, Day: k.day, ID: k.id, Type: typ, Category: cat, Currency: k.currency}
		s[k] = f
	}
	return f
}

// list is the facts in a stable order, with one eligible-usage fact a
// day, account and currency of lines, so a day without eligible usage
// reads as none rather than unknown.
func (s factSet) list(lines []model.CostLine) []model.CommitmentFact {
	for i := range lines {
		day, ok := model.ParseDayNum(lines[i].Day)
		if !ok {
			continue
		}
		s.get(factKey{account: lines[i].BillingAccount, currency: lines[i].Currency, day: day}, "", "")
	}
	out := make([]model.CommitmentFact, 0, len(s))
	for _, f := range s {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Day != b.Day {
			return a.Day < b.Day
		}
		if a.Account != b.Account {
			return a.Account < b.Account
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Currency < b.Currency
	})
	return out
}

// addCURCommitRow adds one row of commitmentQuery as the file import reads
// the same rows (see billing's CUR mapper): on-demand usage is eligible
// when the row's half of the rule accepts its unit and texts and the
// line's half its line (compute or database usage); covered usage gives its list and effective cost; a reservation
// fee its used and unused amortized fee and reserved units, a savings
// plan fee its used commitment and the rest.
func addCURCommitRow(facts factSet, raw []string) error {
	r, err := readCommitRow(raw)
	if err != nil {
		return err
	}
	l, err := billing.CURLine(r.key)
	if err != nil {
		return badRow("commitment query", err.Error())
	}
	day, _ := model.ParseDayNum(r.day)
	k := factKey{account: l.BillingAccount, currency: l.Currency, day: day}
	if r.key.LineItemType == "Usage" {
		if !r.excluded && billing.EligibleRow("", r.unit) && billing.EligibleUsage(&l) {
			facts.get(k, "", "").OnDemand += r.list
		}
		return nil
	}
	if k.id = r.id; k.id == "" {
		return nil // a commitment row without its id cannot be told apart
	}
	var f *model.CommitmentFact
	switch r.key.LineItemType {
	case "DiscountedUsage":
		f = facts.get(k, billing.TypeReservedInstance, billing.CategoryUsage)
		f.CoveredList += r.list
		f.CoveredCost += r.effective
	case "SavingsPlanCoveredUsage":
		f = facts.get(k, billing.TypeSavingsPlan, billing.CategorySpend)
		f.CoveredList += r.list
		f.CoveredCost += r.effective
	case "RIFee":
		// Purchased: the amortized upfront fee and the recurring fee;
		// unused: their unused parts (the row's effective cost).
		f = facts.get(k, billing.TypeReservedInstance, billing.CategoryUsage)
		f.Unused += r.effective
		f.Used += r.upfront + r.billed - r.effective
		f.Units += r.units
		f.UnusedUnits += r.unusedUnits
	case "SavingsPlanRecurringFee":
		f = facts.get(k, billing.TypeSavingsPlan, billing.CategorySpend)
		f.Used += r.usedCommitment
		f.Unused += r.effective
	default:
		return nil
	}
	if end, ok := model.ParseDayNum(r.end); ok && end > f.End {
		f.End = end
	}
	return nil
}
