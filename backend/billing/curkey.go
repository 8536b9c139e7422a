package billing

import (
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// CURKey is the identity of a Cost and Usage Report line at daily grain,
// as a query that aggregates the report where it lives (Athena) returns
// it. Tags is the resource_tags map as JSON text (CUR 2.0), or nil with
// TagMap holding the legacy resource_tags_* columns by key.
type CURKey struct {
	Payer, Account, ProductCode, ProductName, Region, ResourceID string
	ProductFamily, LineItemType, Currency                        string
	Tags                                                         []byte
	TagMap                                                       map[string]string
}

// CURLine describes a CUR line key as the file import does (one rule for
// both): service, service category, resource type, charge category and
// tags. The amounts and the day are left to the caller.
func CURLine(k CURKey) (model.CostLine, error) {
	c := model.CostLine{
		Provider: model.AWS, BillingAccount: k.Payer, SubAccount: k.Account, Region: k.Region,
		ResourceID: k.ResourceID, Currency: currency([]byte(k.Currency)), ChargeCategory: curChargeCategory(k.LineItemType),
	}
	if c.BillingAccount == "" {
		c.BillingAccount = c.SubAccount
	}
	c.Service = k.ProductName
	if c.Service == "" {
		c.Service = k.ProductCode
	}
	c.ServiceCategory = serviceCategory(model.AWS, k.ProductCode, c.Service)
	c.ResourceType = arnType(c.ResourceID)
	if c.ResourceType == "" {
		c.ResourceType = k.ProductFamily
	}
	if k.Tags != nil {
		t, err := parseTags(k.Tags)
		if err != nil {
			return c, badField("resource_tags", "invalid tags: %v", err)
		}
		c.Tags = stripUserPrefix(t)
	} else if len(k.TagMap) > 0 {
		c.Tags = k.TagMap
	}
	if c.ResourceID != "" {
		// The Name tag (resourceTags/user:Name) is what the AWS console
		// calls a resource.
		c.ResourceName = model.ClipDim(strings.TrimSpace(c.Tags["Name"]), model.MaxNameLen)
	}
	return c, nil
}

// TimePriced reports whether a pricing unit is a unit of time, the usage
// commitment discounts are sold for (see timePriced).
func TimePriced(unit string) bool { return timePriced([]byte(unit)) }

// EligibleUsage is the line key's half of the commitment eligibility rule:
// whether on-demand usage of a line could have been covered by a
// commitment discount (see eligibleKey); EligibleRow is the row's half.
func EligibleUsage(c *model.CostLine) bool { return eligibleKey(c) }

// FOCUSKey is the identity of a FOCUS line at daily grain, as an
// aggregating query returns it; Tags is the Tags column's JSON text.
type FOCUSKey struct {
	BillingAccount, SubAccount, Service, ServiceCategory, Region string
	ResourceID, ResourceType, ChargeCategory, Currency           string
	ResourceName                                                 string // ResourceName, when the query reads it
	Tags                                                         []byte
}

// FOCUSLine describes a FOCUS line key of provider p as the file import
// does; the amounts and the day are left to the caller.
func FOCUSLine(p model.ProviderKey, k FOCUSKey) (model.CostLine, error) {
	c := model.CostLine{
		Provider: p, BillingAccount: k.BillingAccount, SubAccount: k.SubAccount, Service: k.Service,
		ServiceCategory: k.ServiceCategory, Region: k.Region, ResourceID: k.ResourceID, ResourceType: k.ResourceType,
		ResourceName: k.ResourceName, ChargeCategory: k.ChargeCategory, Currency: currency([]byte(k.Currency)),
	}
	tags, err := parseTags(k.Tags)
	if err != nil {
		return c, badField("Tags", "invalid tags: %v", err)
	}
	c.Tags = tags
	if c.ServiceCategory == "" {
		c.ServiceCategory = serviceCategory(p, c.Service)
	}
	if c.ChargeCategory == "" {
		c.ChargeCategory = "Usage"
	}
	return c, nil
}
