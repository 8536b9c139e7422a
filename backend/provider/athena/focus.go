package athena

import (
	"time"

	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// FOCUS columns as Glue names them (lower case) in a FOCUS 1.0 table of
// AWS Data Exports.
const (
	focusStart  = "chargeperiodstart"
	focusBilled = "billedcost"
)

var focusCols = []string{"day", "billing_account", "sub_account", "service", "service_category", "region",
	"resource", "resource_type", "charge_category", "currency", "tags",
	"billed", "effective", "list", "account_name", "sub_account_name"}

// orBilled is a FOCUS cost column, the row's billed cost where it is null
// (the file import's rule).
func orBilled(t *tableInfo, c string) string { return t.amountOr(c, t.amount(focusBilled)) }

// focusCostQuery is the daily aggregation of a FOCUS table over [from, to].
func focusCostQuery(cfg config.AthenaConfig, t *tableInfo, from, to time.Time) query {
	region := t.text("regionid")
	if t.has("regionid") && t.has("regionname") {
		region = `COALESCE(NULLIF("regionid", ''), "regionname", '')`
	} else if t.has("regionname") {
		region = t.text("regionname")
	}
	tags := t.text("tags")
	if typ := t.cols["tags"]; len(typ) >= 3 && typ[:3] == "map" {
		tags = `COALESCE(json_format(CAST("tags" AS JSON)), '')`
	}
	exprs := []string{
		dayOf(t.col(focusStart)),
		t.text("billingaccountid"), t.text("subaccountid"), t.text("servicename"), t.text("servicecategory"),
		region, t.text("resourceid"), t.text("resourcetype"), t.text("chargecategory"), t.text("billingcurrency"), tags,
		`SUM(` + t.amount(focusBilled) + `)`,
		`SUM(` + orBilled(t, "effectivecost") + `)`,
		`SUM(` + orBilled(t, "listcost") + `)`,
		`MAX(` + t.text("billingaccountname") + `)`,
		`MAX(` + t.text("subaccountname") + `)`,
	}
	w, params := where(cfg.Format, t, focusStart, from, to)
	return query{sql: selectSQL(exprs, focusCols, ref(cfg), w, 11), params: params, cols: focusCols}
}

// focusLine reads one row of focusCostQuery.
func focusLine(r []string) (model.CostLine, [2][2]string, error) {
	k := billing.FOCUSKey{BillingAccount: trim(r[1]), SubAccount: trim(r[2]), Service: trim(r[3]),
		ServiceCategory: trim(r[4]), Region: trim(r[5]), ResourceID: trim(r[6]), ResourceType: trim(r[7]),
		ChargeCategory: trim(r[8]), Currency: r[9], Tags: []byte(r[10])}
	l, err := billing.FOCUSLine(model.AWS, k)
	if err != nil {
		return l, [2][2]string{}, badRow("cost query", err.Error())
	}
	l.Day = r[0]
	if _, err := time.Parse(model.DateLayout, l.Day); err != nil {
		return l, [2][2]string{}, badRow("cost query", "unreadable day "+clip(l.Day))
	}
	if l.Billed, err = nanos(r[11]); err == nil {
		if l.Effective, err = nanos(r[12]); err == nil {
			l.List, err = nanos(r[13])
		}
	}
	if err != nil {
		return l, [2][2]string{}, badRow("cost query", err.Error())
	}
	return l, [2][2]string{{l.BillingAccount, r[14]}, {l.SubAccount, r[15]}}, nil
}

// focusCommitID is the column of a FOCUS table that names a row's
// commitment; without it every row is on demand, as in the file import.
const focusCommitID = "commitmentdiscountid"

// Result columns of focusCommitmentQuery: the grouping columns, then the
// sums.
var focusCommitCols = []string{"day", "billing_account", "currency", "charge_category", "service", "service_category",
	"pricing_unit", "pricing_category", "excluded", "id", "type", "category", "status", "unit", "list", "effective", "quantity"}

const focusCommitGroups = 14

// focusCommitmentQuery sums the rows of the days [from, to] per day,
// billing account, currency and every column the file import's FOCUS
// commitment rule reads (billing.FOCUSCommitment: charge category,
// commitment, status, pricing unit; the service and its category, the
// pricing category and whether the texts name an ineligible charge for
// eligibility; the quantity's unit), so addFOCUSCommitRow applies the
// rule to each group as the import does to each row. The texts are the
// import's (x_UsageType, ChargeDescription, x_SkuMeterName), tested in
// SQL with the rule's words (excludedText) on usage without a
// commitment. The amounts are the cost query's.
func focusCommitmentQuery(cfg config.AthenaConfig, t *tableInfo, from, to time.Time) query {
	onDemand := t.text(focusCommitID) + ` = ''`
	exprs := []string{
		dayOf(t.col(focusStart)),
		t.text("billingaccountid"), t.text("billingcurrency"), t.text("chargecategory"),
		t.text("servicename"), t.text("servicecategory"), t.text("pricingunit"), t.text("pricingcategory"),
		excludedText(t, onDemand, "x_usagetype", "chargedescription", "x_skumetername"),
		t.text(focusCommitID), t.text("commitmentdiscounttype"), t.text("commitmentdiscountcategory"),
		t.text("commitmentdiscountstatus"), t.text("commitmentdiscountunit"),
		`SUM(` + orBilled(t, "listcost") + `)`,
		`SUM(` + orBilled(t, "effectivecost") + `)`,
		`SUM(` + t.amount("commitmentdiscountquantity") + `)`,
	}
	w, params := where(cfg.Format, t, focusStart, from, to)
	return query{sql: selectSQL(exprs, focusCommitCols, ref(cfg), w, focusCommitGroups), params: params, cols: focusCommitCols}
}

// addFOCUSCommitRow adds one row of focusCommitmentQuery: on-demand usage
// priced by time is eligible when the row's half of the rule accepts its
// pricing category, unit and texts and the line's half its line (compute
// or database usage);
// covered usage gives its list and effective cost (the commitment used),
// an unused row its effective cost; a quantity in hours gives the units.
func addFOCUSCommitRow(facts factSet, r []string) error {
	day, ok := model.ParseDayNum(r[0])
	if !ok {
		return badRow("commitment query", "unreadable day "+clip(r[0]))
	}
	var list, effective, qty model.Nanos
	for i, dst := range []*model.Nanos{&list, &effective, &qty} {
		v, err := nanos(r[14+i])
		if err != nil {
			return badRow("commitment query", err.Error())
		}
		*dst = v
	}
	role := billing.FOCUSCommitment(r[3], r[9], r[12], r[6])
	if role == billing.FOCUSCommitNone {
		return nil
	}
	l, err := billing.FOCUSLine(model.AWS, billing.FOCUSKey{BillingAccount: trim(r[1]), Currency: r[2],
		ChargeCategory: trim(r[3]), Service: trim(r[4]), ServiceCategory: trim(r[5])})
	if err != nil {
		return badRow("commitment query", err.Error())
	}
	k := factKey{account: l.BillingAccount, currency: l.Currency, day: day}
	if role == billing.FOCUSCommitOnDemand {
		if r[8] == "" && billing.EligibleRow(r[7], r[6]) && billing.EligibleUsage(&l) {
			facts.get(k, "", "").OnDemand += list
		}
		return nil
	}
	k.id = r[9]
	f := facts.get(k, r[10], r[11])
	if role == billing.FOCUSCommitUnused {
		f.Unused += effective
	} else {
		f.CoveredList += list
		f.CoveredCost += effective
		f.Used += effective
	}
	if billing.FOCUSCommitUnits(r[13]) {
		f.Units += qty
		if role == billing.FOCUSCommitUnused {
			f.UnusedUnits += qty
		}
	}
	return nil
}
