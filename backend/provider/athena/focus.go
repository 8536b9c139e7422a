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
func orBilled(t *tableInfo, c string) string {
	if !t.has(c) {
		return t.amount(focusBilled)
	}
	return `CASE WHEN "` + c + `" IS NULL THEN ` + t.amount(focusBilled) + ` ELSE CAST("` + c + `" AS DECIMAL(38,10)) END`
}

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
