package athena

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// The SQL below keeps to what Athena (Trino) shares with other SQL
// engines, so a test can run it on embedded ones: substr/CAST for the
// day, CASE, COALESCE, NULLIF, trim, SUM, MAX, BETWEEN, GROUP BY ordinals
// and ? parameters. The one exception is CUR 2.0's resource_tags, a MAP,
// which is grouped as its JSON text with json_format(CAST(... AS JSON)).
//
// Amounts are summed as DECIMAL(38,10): CUR's cost columns are doubles,
// and a decimal sum does not drift with the number of rows. Many
// numeric-looking columns are strings in the Glue tables of CUR 2.0,
// legacy CUR and FOCUS (reservation_total_reserved_units, the rates, any
// column of a CSV table) and hold '' on the rows they do not apply to;
// Trino fails a CAST of '' to a number, so a string column is cast from
// NULLIF(trim(c), '') (see num).

// query is one statement, its execution parameters (SQL literals, as
// Athena's ExecutionParameters take them) and the columns it returns.
type query struct {
	sql     string
	params  []string
	cols    []string
	tagKeys []string // legacy CUR: the tag key of each tag column after curDims
}

// tableInfo is what GetTableMetadata says of the export's table: its
// columns and partition keys (lower case) with their types.
type tableInfo struct {
	cols map[string]string
}

func (t *tableInfo) has(c string) bool { _, ok := t.cols[c]; return ok }

// col is a column reference, or NULL when the table lacks it (legacy
// CUR's columns vary with the services used).
func (t *tableInfo) col(c string) string {
	if t.has(c) {
		return `"` + c + `"`
	}
	return "NULL"
}

// text is a string column as text, ” when null or absent.
func (t *tableInfo) text(c string) string {
	if !t.has(c) {
		return "''"
	}
	return `COALESCE(` + t.col(c) + `, '')`
}

// isText is true for a column Glue declares as a string (string,
// varchar(n) or char(n)).
func (t *tableInfo) isText(c string) bool {
	typ := t.cols[c]
	return typ == "string" || strings.HasPrefix(typ, "varchar") || strings.HasPrefix(typ, "char")
}

// num is a present column as a decimal, NULL where it is null or, for a
// string column, blank.
func (t *tableInfo) num(c string) string {
	v := t.col(c)
	if t.isText(c) {
		v = `NULLIF(trim(` + v + `), '')`
	}
	return `CAST(` + v + ` AS DECIMAL(38,10))`
}

// amount is a cost column as a decimal, 0 when null, blank or absent.
func (t *tableInfo) amount(c string) string {
	if !t.has(c) {
		return "0"
	}
	return `COALESCE(` + t.num(c) + `, 0)`
}

// amountOr is a cost column as a decimal, the fallback where it is null,
// blank or absent.
func (t *tableInfo) amountOr(c, fallback string) string {
	if !t.has(c) {
		return fallback
	}
	return `COALESCE(` + t.num(c) + `, ` + fallback + `)`
}

// nonEmpty is true where a string column has a value.
func (t *tableInfo) nonEmpty(c string) string {
	if !t.has(c) {
		return "1 = 0"
	}
	return `COALESCE(` + t.col(c) + `, '') <> ''`
}

// tagColumns are legacy CUR's resource_tags_* columns, sorted.
func (t *tableInfo) tagColumns() []string {
	var out []string
	for c := range t.cols {
		if strings.HasPrefix(c, "resource_tags_") {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// dayOf is the UTC day (YYYY-MM-DD) of a timestamp column: Athena prints
// a timestamp as "2024-03-02 05:00:00.000", a string column holds ISO 8601.
func dayOf(col string) string { return `substr(CAST(` + col + ` AS varchar), 1, 10)` }

// ref is the table as the query names it; the catalog and database are
// also the query's execution context.
func ref(cfg config.AthenaConfig) string { return `"` + cfg.Database + `"."` + cfg.Table + `"` }

func lit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// partitionFilter prunes the table to the billing periods of the days
// with a bounded number of parameters however long the span: Data Exports
// partition by billing_period=YYYY-MM, a range; legacy CUR's Athena
// integration by year and month (month without a leading zero, so months
// do not sort as text), whole years as a range and the months of a
// partial first or last year as a list (see yearMonthFilter). A table
// without those partitions is read whole (and the log says what that
// scanned).
func partitionFilter(format string, t *tableInfo, from, to time.Time) (string, []string) {
	switch {
	case format != config.AthenaLegacy && t.has("billing_period"):
		return `"billing_period" BETWEEN ? AND ?`, []string{lit(from.Format("2006-01")), lit(to.Format("2006-01"))}
	case format == config.AthenaLegacy && t.has("year") && t.has("month"):
		return yearMonthFilter(from, to)
	}
	return "", nil
}

// yearMonthFilter selects legacy CUR's year/month partitions of the months
// from through to: at most a year range and two lists of up to 11 months,
// so at most 26 parameters.
func yearMonthFilter(from, to time.Time) (string, []string) {
	var parts, params []string
	months := func(y, first, last int) {
		if first == 1 && last == 12 {
			parts = append(parts, `"year" = ?`)
			params = append(params, lit(strconv.Itoa(y)))
			return
		}
		marks := make([]string, 0, last-first+1)
		params = append(params, lit(strconv.Itoa(y)))
		for m := first; m <= last; m++ {
			marks = append(marks, "?")
			params = append(params, lit(strconv.Itoa(m)))
		}
		parts = append(parts, `("year" = ? AND "month" IN (`+strings.Join(marks, ", ")+`))`)
	}
	fy, fm, ly, lm := from.Year(), int(from.Month()), to.Year(), int(to.Month())
	if fy == ly {
		months(fy, fm, lm)
		return parts[0], params
	}
	firstWhole, lastWhole := fy, ly
	if fm != 1 {
		months(fy, fm, 12)
		firstWhole++
	}
	if lm != 12 {
		lastWhole--
	}
	switch {
	case firstWhole == lastWhole:
		months(firstWhole, 1, 12)
	case firstWhole < lastWhole:
		// Years have four digits, so they sort as text.
		parts = append(parts, `"year" BETWEEN ? AND ?`)
		params = append(params, lit(strconv.Itoa(firstWhole)), lit(strconv.Itoa(lastWhole)))
	}
	if lm != 12 {
		months(ly, 1, lm)
	}
	return "(" + strings.Join(parts, " OR ") + ")", params
}

// where is the WHERE clause of the days [from, to]: the partitions, then
// the usage day.
func where(format string, t *tableInfo, start string, from, to time.Time) (string, []string) {
	w, params := partitionFilter(format, t, from, to)
	day := dayOf(t.col(start)) + ` BETWEEN ? AND ?`
	params = append(params, lit(from.Format(model.DateLayout)), lit(to.Format(model.DateLayout)))
	if w != "" {
		w += "\n  AND " + day
	} else {
		w = day
	}
	return "WHERE " + w, params
}

// CUR columns (CUR 2.0 and legacy CUR's Athena integration share them).
const (
	curStart     = "line_item_usage_start_date"
	curUnblended = "line_item_unblended_cost"
	curType      = "line_item_line_item_type"
)

// curEffective is the amortized cost of one CUR row, the file import's
// rule: savings plan and reservation effective cost for covered usage, the
// unused part of recurring commitment fees, zero for negations and
// upfront fees, else the unblended cost.
func curEffective(t *tableInfo) string {
	unblended := t.amount(curUnblended)
	return `CASE ` + t.col(curType) + `
    WHEN 'SavingsPlanCoveredUsage' THEN ` + t.amount("savings_plan_savings_plan_effective_cost") + `
    WHEN 'DiscountedUsage' THEN ` + t.amount("reservation_effective_cost") + `
    WHEN 'SavingsPlanNegation' THEN 0
    WHEN 'SavingsPlanUpfrontFee' THEN 0
    WHEN 'SavingsPlanRecurringFee' THEN ` + t.amount("savings_plan_total_commitment_to_date") + ` - ` + t.amount("savings_plan_used_commitment") + `
    WHEN 'RIFee' THEN ` + t.amount("reservation_unused_amortized_upfront_fee_for_billing_period") + ` + ` + t.amount("reservation_unused_recurring_fee") + `
    WHEN 'Fee' THEN CASE WHEN ` + t.nonEmpty("reservation_reservation_a_r_n") + ` THEN 0 ELSE ` + unblended + ` END
    ELSE ` + unblended + ` END`
}

// curList is the public on-demand cost of one row, else its unblended cost.
func curList(t *tableInfo) string {
	return t.amountOr("pricing_public_on_demand_cost", t.amount(curUnblended))
}

// curRegion is the region code, else the region.
func curRegion(t *tableInfo) string {
	switch {
	case t.has("product_region_code") && t.has("product_region"):
		return `COALESCE(NULLIF("product_region_code", ''), "product_region", '')`
	case t.has("product_region_code"):
		return t.text("product_region_code")
	}
	return t.text("product_region")
}

// curTags is CUR 2.0's tag map as JSON text, or "" when the table keeps
// tags as legacy columns (see tagColumns).
func curTags(t *tableInfo) string {
	if !t.has("resource_tags") {
		return ""
	}
	if strings.HasPrefix(t.cols["resource_tags"], "map") {
		return `COALESCE(json_format(CAST("resource_tags" AS JSON)), '')`
	}
	return t.text("resource_tags")
}

// Result columns of the CUR cost query, in order; legacy tag columns
// follow dims, then the amounts and names.
var curDims = []string{"day", "payer", "account", "product_code", "product_name", "region", "resource",
	"family", "line_type", "currency", "tags"}

var curMeasures = []string{"billed", "effective", "list", "payer_name", "account_name"}

// curCostQuery is the daily aggregation of a CUR table over [from, to].
func curCostQuery(cfg config.AthenaConfig, t *tableInfo, from, to time.Time) query {
	exprs := []string{
		dayOf(t.col(curStart)),
		t.text("bill_payer_account_id"),
		t.text("line_item_usage_account_id"),
		t.text("line_item_product_code"),
		t.text("product_product_name"),
		curRegion(t),
		t.text("line_item_resource_id"),
		t.text("product_product_family"),
		t.text(curType),
		t.text("line_item_currency_code"),
	}
	tags := curTags(t)
	if tags == "" {
		tags = "''"
	}
	exprs = append(exprs, tags)
	cols := append([]string(nil), curDims...)
	var legacyTags, tagKeys []string
	if !t.has("resource_tags") {
		legacyTags = t.tagColumns()
		for i, c := range legacyTags {
			exprs = append(exprs, t.text(c))
			cols = append(cols, "tag"+strconv.Itoa(i))
			// As the file import names tag columns: user-defined tags
			// without their user_ prefix.
			k := strings.TrimPrefix(c, "resource_tags_")
			tagKeys = append(tagKeys, strings.TrimPrefix(strings.TrimPrefix(k, "user:"), "user_"))
		}
	}
	nGroup := len(exprs)
	exprs = append(exprs,
		`SUM(`+t.amount(curUnblended)+`)`,
		`SUM(`+curEffective(t)+`)`,
		`SUM(`+curList(t)+`)`,
		`MAX(`+t.text("bill_payer_account_name")+`)`,
		`MAX(`+t.text("line_item_usage_account_name")+`)`,
	)
	cols = append(cols, curMeasures...)
	w, params := where(cfg.Format, t, curStart, from, to)
	return query{sql: selectSQL(exprs, cols, ref(cfg), w, nGroup), params: params, cols: cols, tagKeys: tagKeys}
}

// selectSQL writes SELECT exprs AS cols FROM table WHERE … GROUP BY the
// first nGroup columns (by ordinal).
func selectSQL(exprs, cols []string, table, where string, nGroup int) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	for i, e := range exprs {
		if i > 0 {
			b.WriteString(",\n  ")
		}
		b.WriteString(e + ` AS "` + cols[i] + `"`)
	}
	b.WriteString("\nFROM " + table + "\n" + where)
	if nGroup > 0 {
		b.WriteString("\nGROUP BY ")
		for i := 1; i <= nGroup; i++ {
			if i > 1 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(i))
		}
	}
	return b.String()
}

// checkQuery reads nothing of the table (one partition, no rows): it
// proves the workgroup, the output location and the table's access.
func checkQuery(cfg config.AthenaConfig, t *tableInfo) query {
	start := curStart
	if cfg.Format == config.AthenaFOCUS {
		start = focusStart
	}
	now := time.Now().UTC()
	w, params := where(cfg.Format, t, start, now, now)
	return query{sql: `SELECT 1 AS "ok" FROM ` + ref(cfg) + "\n" + w + "\nLIMIT 0", params: params, cols: []string{"ok"}}
}
