package model

import "strings"

// PeriodKind is how an analysis period is named (docs/decisions.md,
// "Periods"): rolling days, a calendar unit or a custom range.
type PeriodKind string

// The period kinds.
const (
	PeriodDays          PeriodKind = "days"           // the N complete days before today
	PeriodMonthToDate   PeriodKind = "mtd"            // this month's complete days
	PeriodLastMonth     PeriodKind = "last_month"     // the previous calendar month
	PeriodQuarterToDate PeriodKind = "qtd"            // this quarter's complete days
	PeriodLastQuarter   PeriodKind = "last_quarter"   // the previous calendar quarter
	PeriodYearToDate    PeriodKind = "ytd"            // this year's complete days
	PeriodLast12Months  PeriodKind = "last_12_months" // the 12 calendar months before this one
	PeriodCustom        PeriodKind = "custom"         // inclusive start..end, cut at today
)

// PeriodKinds lists the period kinds.
var PeriodKinds = []PeriodKind{PeriodDays, PeriodMonthToDate, PeriodLastMonth, PeriodQuarterToDate,
	PeriodLastQuarter, PeriodYearToDate, PeriodLast12Months, PeriodCustom}

// Granularity is the bucket of a cost series.
type Granularity string

// The granularities; a week starts on Monday and is named by that day, a
// month by its first day.
const (
	GranularityDay   Granularity = "day"
	GranularityWeek  Granularity = "week"
	GranularityMonth Granularity = "month"
)

// Granularities lists the granularities.
var Granularities = []Granularity{GranularityDay, GranularityWeek, GranularityMonth}

// Dimension is what costs can be grouped and filtered by. A tag key is
// the dimension "tag:<key>".
type Dimension string

// The dimensions of a line key (docs/data-model.md).
const (
	DimProvider        Dimension = "provider"
	DimBillingAccount  Dimension = "billing_account"
	DimSubAccount      Dimension = "sub_account"
	DimService         Dimension = "service"
	DimServiceCategory Dimension = "service_category"
	DimRegion          Dimension = "region"
	DimResource        Dimension = "resource"
	DimChargeCategory  Dimension = "charge_category"
	// DimAccount filters on the billing account or the sub-account; as a
	// grouping it is the sub-account, else the billing account.
	DimAccount Dimension = "account"
)

// Dimensions lists the fixed dimensions a grouping may name; "tag:<key>"
// is allowed beside them.
var Dimensions = []Dimension{DimProvider, DimBillingAccount, DimSubAccount, DimService, DimServiceCategory,
	DimRegion, DimResource, DimChargeCategory}

// tagDimPrefix starts the dimension of a tag key.
const tagDimPrefix = "tag:"

// TagDimension is the dimension of tag key k.
func TagDimension(k string) Dimension { return Dimension(tagDimPrefix + k) }

// TagKey returns the tag key of a tag dimension.
func (d Dimension) TagKey() (string, bool) {
	k, ok := strings.CutPrefix(string(d), tagDimPrefix)
	return k, ok && k != ""
}

// NoValue is the filter value and group key of lines without a value in a
// dimension: untagged lines for a tag key, no region, no resource...
const NoValue = "(none)"

// Filter keeps the lines whose dimension has one of the values (NoValue
// for none). Tag keys and values match ignoring case, as allocation does.
type Filter struct {
	Dim    Dimension `json:"dim"`
	Values []string  `json:"values"`
}

// PeriodInfo is summary.period of a cost analysis: what the period is.
type PeriodInfo struct {
	Kind        PeriodKind  `json:"kind"`
	Days        int         `json:"days,omitempty"` // of kind days
	Granularity Granularity `json:"granularity"`
	Label       string      `json:"label"`
	Start       string      `json:"start"` // inclusive days
	End         string      `json:"end"`
	// Cut is true when the range asked for ended after today and was cut
	// at today; RequestedEnd is then the end asked for.
	Cut          bool   `json:"cut"`
	RequestedEnd string `json:"requested_end,omitempty"`
}

// Comparison is summary.previous of a cost analysis: the totals of the
// span the period is compared with (docs/decisions.md, "Periods").
type Comparison struct {
	Start     string                  `json:"start"` // inclusive days
	End       string                  `json:"end"`
	Days      int                     `json:"days"`
	TotalCost float64                 `json:"total_cost"`
	Providers map[ProviderKey]float64 `json:"providers"`
}

// CostGroup is one group of summary.groups: the cost of one value of the
// grouping dimension now and in the previous span.
type CostGroup struct {
	Key          string  `json:"key"` // the filter value (NoValue for none)
	Label        string  `json:"label"`
	Cost         float64 `json:"cost"`
	PreviousCost float64 `json:"previous_cost"`
	// Other, when above 0, says this group folds that many smaller groups.
	Other int `json:"other,omitempty"`
	// Series is the group's cost per bucket, for the top groups only.
	Series []DailyPoint `json:"series,omitempty"`
}

// ViewSpec is what a saved view keeps: a period, metric, grouping and
// filters, with the names of GET /api/costs' parameters.
type ViewSpec struct {
	Period      PeriodKind          `json:"period,omitempty"`
	Days        int                 `json:"days,omitempty"`
	Start       string              `json:"start,omitempty"`
	End         string              `json:"end,omitempty"`
	Granularity Granularity         `json:"granularity,omitempty"`
	Metric      CostMetric          `json:"metric,omitempty"`
	GroupBy     Dimension           `json:"group_by,omitempty"`
	Filters     map[string][]string `json:"filters,omitempty"`
}

// SavedView is a named ViewSpec shared by every user.
type SavedView struct {
	ID        int64    `json:"id"`
	Name      string   `json:"name"`
	Spec      ViewSpec `json:"spec"`
	CreatedBy string   `json:"created_by"`
	CreatedAt string   `json:"created_at"`
	UpdatedAt string   `json:"updated_at"`
}
