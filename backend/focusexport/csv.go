package focusexport

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// What each provider is called in FOCUS's ProviderName, PublisherName and
// InvoiceIssuerName: the names the clouds' own FOCUS exports use, which
// the import maps back to the provider.
var providerNames = map[model.ProviderKey]string{
	model.AWS: "AWS", model.Azure: "Microsoft", model.GCP: "Google Cloud", model.OCI: "Oracle",
}

// chargeCategories are FOCUS 1.2's ChargeCategory values; a stored line
// with none (a live API's) is usage.
var chargeCategories = []string{"Usage", "Purchase", "Tax", "Credit", "Adjustment"}

// serviceCategories are FOCUS 1.2's ServiceCategory values; a service the
// history has no category for is Other.
var serviceCategories = []string{"AI and Machine Learning", "Analytics", "Business Applications", "Compute",
	"Databases", "Developer Tools", "Multicloud", "Identity", "Integration", "Internet of Things",
	"Management and Governance", "Media", "Migration", "Mobile", "Networking", "Security", "Storage", "Web", "Other"}

// Writer writes FOCUS rows as CSV (RFC 4180, a header row, UTF-8; nulls
// are empty cells).
type Writer struct {
	w     *csv.Writer
	rec   []string
	names Names
	rows  int64
}

// NewCSV writes the header to w and returns the writer of the rows.
// names maps account ids to their names (BillingAccountName,
// SubAccountName).
func NewCSV(w io.Writer, names Names) (*Writer, error) {
	x := &Writer{w: csv.NewWriter(w), rec: make([]string, len(Columns)), names: names}
	for i, c := range Columns {
		x.rec[i] = c.Name
	}
	if err := x.w.Write(x.rec); err != nil {
		return nil, err
	}
	return x, nil
}

// Rows is the number of rows written.
func (x *Writer) Rows() int64 { return x.rows }

// Write writes one daily line stored from source src, or one allocated
// part of it.
func (x *Writer) Write(l *model.CostLine, src model.SourceKind, a *Allocation) error {
	if err := fill(x.rec, l, src, a, x.names); err != nil {
		return err
	}
	x.rows++
	return x.w.Write(x.rec)
}

// Close flushes what is buffered.
func (x *Writer) Close() error {
	x.w.Flush()
	return x.w.Error()
}

// Positions of the columns the export fills.
var (
	cBilled, cEffective, cList, cContracted = col("BilledCost"), col("EffectiveCost"), col("ListCost"), col("ContractedCost")
	cAccount, cAccountName, cSub, cSubName  = col("BillingAccountId"), col("BillingAccountName"), col("SubAccountId"), col("SubAccountName")
	cCurrency, cPeriodStart, cPeriodEnd     = col("BillingCurrency"), col("BillingPeriodStart"), col("BillingPeriodEnd")
	cChargeStart, cChargeEnd                = col("ChargePeriodStart"), col("ChargePeriodEnd")
	cCharge, cFrequency, cDescription       = col("ChargeCategory"), col("ChargeFrequency"), col("ChargeDescription")
	cIssuer, cProvider, cPublisher          = col("InvoiceIssuerName"), col("ProviderName"), col("PublisherName")
	cRegionID, cRegionName                  = col("RegionId"), col("RegionName")
	cResource, cResourceType                = col("ResourceId"), col("ResourceType")
	cCategory, cService, cTags              = col("ServiceCategory"), col("ServiceName"), col("Tags")
	cXProvider, cXSource                    = col("x_CostpilotProvider"), col("x_CostpilotSource")
	cAllocDetails, cAllocMethod             = col("AllocatedMethodDetails"), col("AllocatedMethodId")
	cAllocID, cAllocName, cAllocTags        = col("AllocatedResourceId"), col("AllocatedResourceName"), col("AllocatedTags")
)

// fill writes a line's cells into rec; the columns the history has no
// value for are null.
func fill(rec []string, l *model.CostLine, src model.SourceKind, a *Allocation, all Names) error {
	names := all.Accounts
	day, ok := model.ParseDayNum(l.Day)
	if !ok {
		return fmt.Errorf("focusexport: line day %q is not YYYY-MM-DD", l.Day)
	}
	clear(rec)
	rec[cBilled], rec[cEffective], rec[cList] = decimal(l.Billed), decimal(l.Effective), decimal(l.List)
	// ContractedCost is the cost after negotiated discounts and before
	// commitment discounts: what was billed, as the history keeps it.
	rec[cContracted] = rec[cBilled]
	rec[cAccount], rec[cAccountName] = l.BillingAccount, names[l.BillingAccount]
	rec[cSub] = l.SubAccount
	if l.SubAccount != "" {
		rec[cSubName] = names[l.SubAccount]
	}
	rec[cCurrency] = l.Currency
	// The history keeps days, not billing periods: a day's billing period
	// is its calendar month, the period every cloud bills by.
	m := day.Month()
	rec[cPeriodStart], rec[cPeriodEnd] = dateTime(m.First()), dateTime((m + 1).First())
	rec[cChargeStart], rec[cChargeEnd] = dateTime(day), dateTime(day+1)
	charge := l.ChargeCategory
	if !slices.Contains(chargeCategories, charge) {
		charge = "Usage"
	}
	rec[cCharge] = charge
	switch charge {
	case "Usage":
		rec[cFrequency] = "Usage-Based"
	case "Purchase":
		rec[cFrequency] = "One-Time"
	}
	rec[cDescription] = description(l, charge)
	name := providerNames[l.Provider]
	if name == "" {
		// Beyond the clouds: its display name, when that keys it again
		// on import, else its key.
		name = all.Providers[l.Provider]
		if model.ProviderKeyOf(name) != l.Provider {
			name = string(l.Provider)
		}
	}
	rec[cIssuer], rec[cProvider], rec[cPublisher] = name, name, name
	rec[cRegionID], rec[cRegionName] = l.Region, l.Region
	rec[cResource], rec[cResourceType] = l.ResourceID, l.ResourceType
	cat := l.ServiceCategory
	if !slices.Contains(serviceCategories, cat) {
		cat = "Other"
	}
	rec[cCategory], rec[cService] = cat, l.Service
	if len(l.Tags) > 0 {
		b, err := json.Marshal(l.Tags) // keys sorted
		if err != nil {
			return err
		}
		rec[cTags] = string(b)
	}
	rec[cXProvider], rec[cXSource] = string(l.Provider), string(src)
	if a != nil {
		return fillAllocation(rec, l, a)
	}
	return nil
}

// fillAllocation writes the Allocated* cells of an allocated charge.
func fillAllocation(rec []string, l *model.CostLine, a *Allocation) error {
	details, err := json.Marshal(map[string]any{"Elements": []map[string]any{{"AllocatedRatio": a.Ratio}}})
	if err != nil {
		return err
	}
	rec[cAllocDetails], rec[cAllocMethod] = string(details), a.MethodID
	rec[cAllocID], rec[cAllocName] = a.ResourceID, a.ResourceName
	// FOCUS: allocated tags must not repeat the line's own.
	tags := map[string]string{}
	for k, v := range a.Tags {
		if _, dup := l.Tags[k]; !dup {
			tags[k] = v
		}
	}
	if len(tags) > 0 {
		b, err := json.Marshal(tags) // keys sorted
		if err != nil {
			return err
		}
		rec[cAllocTags] = string(b)
	}
	return nil
}

// description is a ChargeDescription: what the row sums.
func description(l *model.CostLine, charge string) string {
	what := l.Service
	if what == "" {
		what = "unnamed service"
	}
	if l.ResourceID != "" {
		return fmt.Sprintf("%s %s of %s for the day", what, strings.ToLower(charge), l.ResourceID)
	}
	return fmt.Sprintf("%s %s for the day", what, strings.ToLower(charge))
}

// decimal writes nanos as a decimal number without trailing zeros.
func decimal(n model.Nanos) string {
	s := strings.TrimRight(n.String(), "0")
	return strings.TrimSuffix(s, ".")
}

// dateTime is a day's midnight UTC in ISO 8601, as FOCUS writes times.
func dateTime(d model.DayNum) string { return d.String() + "T00:00:00Z" }
