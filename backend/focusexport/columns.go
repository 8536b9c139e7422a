// Package focusexport writes the stored cost history as FOCUS 1.2 Cost and
// Usage rows: one row per daily line (provider, accounts, service,
// category, region, resource, charge category, tags, currency and day),
// every column of the FOCUS 1.2 column list in its order, with x_ columns
// for what FOCUS has no place for, and FOCUS 1.3's split cost allocation
// columns (Allocated*) for the lines Kubernetes splits divide: a row per
// pod, the rows of a line summing to it. It streams: a row is written as it is
// read, so memory does not grow with the history.
package focusexport

import (
	"fmt"
	"io"

	"github.com/costpilot/costpilot/backend/model"
)

// Version is the FOCUS version the export follows.
const Version = "1.2"

// Type is a FOCUS column's data type.
type Type string

// The FOCUS data types the export writes.
const (
	String   Type = "String"
	Decimal  Type = "Decimal"
	DateTime Type = "DateTime"
	JSON     Type = "JSON"
)

// Column is one column of the export.
type Column struct {
	Name string
	Type Type
	// Mandatory columns are required in every FOCUS 1.2 dataset; the
	// others are conditional or recommended, present and null when the
	// history does not know them.
	Mandatory bool
}

// Columns are the FOCUS 1.2 Cost and Usage columns in the specification's
// order (its column glossary is alphabetical), then the x_ columns.
var Columns = []Column{
	// FOCUS 1.3's data generator-calculated split cost allocation.
	{"AllocatedMethodDetails", JSON, false},
	{"AllocatedMethodId", String, false},
	{"AllocatedResourceId", String, false},
	{"AllocatedResourceName", String, false},
	{"AllocatedTags", JSON, false},
	{"AvailabilityZone", String, false},
	{"BilledCost", Decimal, true},
	{"BillingAccountId", String, true},
	{"BillingAccountName", String, true},
	{"BillingAccountType", String, false},
	{"BillingCurrency", String, true},
	{"BillingPeriodEnd", DateTime, true},
	{"BillingPeriodStart", DateTime, true},
	{"CapacityReservationId", String, false},
	{"CapacityReservationStatus", String, false},
	{"ChargeCategory", String, true},
	{"ChargeClass", String, true},
	{"ChargeDescription", String, true},
	{"ChargeFrequency", String, false},
	{"ChargePeriodEnd", DateTime, true},
	{"ChargePeriodStart", DateTime, true},
	{"CommitmentDiscountCategory", String, false},
	{"CommitmentDiscountId", String, false},
	{"CommitmentDiscountName", String, false},
	{"CommitmentDiscountQuantity", Decimal, false},
	{"CommitmentDiscountStatus", String, false},
	{"CommitmentDiscountType", String, false},
	{"CommitmentDiscountUnit", String, false},
	{"ConsumedQuantity", Decimal, false},
	{"ConsumedUnit", String, false},
	{"ContractedCost", Decimal, true},
	{"ContractedUnitPrice", Decimal, false},
	{"EffectiveCost", Decimal, true},
	{"InvoiceId", String, false},
	{"InvoiceIssuerName", String, true},
	{"ListCost", Decimal, true},
	{"ListUnitPrice", Decimal, false},
	{"PricingCategory", String, false},
	{"PricingCurrency", String, false},
	{"PricingCurrencyContractedUnitPrice", Decimal, false},
	{"PricingCurrencyEffectiveCost", Decimal, false},
	{"PricingCurrencyListUnitPrice", Decimal, false},
	{"PricingQuantity", Decimal, true},
	{"PricingUnit", String, true},
	{"ProviderName", String, true},
	{"PublisherName", String, true},
	{"RegionId", String, false},
	{"RegionName", String, false},
	{"ResourceId", String, false},
	{"ResourceName", String, false},
	{"ResourceType", String, false},
	{"ServiceCategory", String, true},
	{"ServiceName", String, true},
	{"ServiceSubcategory", String, false},
	{"SkuId", String, false},
	{"SkuMeter", String, false},
	{"SkuPriceDetails", JSON, false},
	{"SkuPriceId", String, false},
	{"SubAccountId", String, false},
	{"SubAccountName", String, false},
	{"SubAccountType", String, false},
	{"Tags", JSON, false},
	// What FOCUS has no column for: costpilot's provider key and where
	// the line came from (demo, api, export).
	{"x_CostpilotProvider", String, false},
	{"x_CostpilotSource", String, false},
}

// index is each column's position by name.
var index = func() map[string]int {
	m := make(map[string]int, len(Columns))
	for i, c := range Columns {
		m[c.Name] = i
	}
	return m
}()

// col is the position of a named column; the names are the table's, so a
// miss is a programming error caught by the tests.
func col(name string) int {
	i, ok := index[name]
	if !ok {
		panic("focusexport: no column " + name)
	}
	return i
}

// File formats of the export.
const (
	FormatCSV     = "csv"
	FormatParquet = "parquet"
)

// Formats lists the file formats.
var Formats = []string{FormatCSV, FormatParquet}

// RowWriter writes the rows of one file.
type RowWriter interface {
	// Write writes one daily line stored from source src, or (a not nil)
	// one allocated part of it.
	Write(l *model.CostLine, src model.SourceKind, a *Allocation) error
	Close() error
	Rows() int64
}

// New returns the row writer of a file format ("" is CSV).
func New(format string, w io.Writer, names Names) (RowWriter, error) {
	switch format {
	case "", FormatCSV:
		return NewCSV(w, names)
	case FormatParquet:
		return NewParquet(w, names)
	}
	return nil, fmt.Errorf("focusexport: no format %q", format)
}

// Names are the names the rows carry beside the history's ids.
type Names struct {
	// Accounts maps account ids to their names (BillingAccountName,
	// SubAccountName).
	Accounts map[string]string
	// Providers maps the keys of providers beyond the clouds to their
	// display names (ProviderName and the other provider columns), so an
	// import of the export keys them as before and keeps their names.
	Providers map[model.ProviderKey]string
}

// Allocation is what the Allocated* columns of an allocated charge say:
// the part of a daily line (the origin charge) a Kubernetes pod, or a
// node's idle share, took.
type Allocation struct {
	// MethodID names the documented method (AllocatedMethodId).
	MethodID string
	// Ratio is the part of the origin charge (AllocatedMethodDetails'
	// AllocatedRatio); the ratios of one origin charge sum to 1.
	Ratio float64
	// ResourceID and ResourceName are the pod's (AllocatedResourceId,
	// AllocatedResourceName); empty for an unallocated (idle) share, which
	// FOCUS requires to have a null AllocatedResourceId.
	ResourceID, ResourceName string
	// Tags are the part's own tags (AllocatedTags): none of the line's.
	Tags map[string]string
}
