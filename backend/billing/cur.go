package billing

import (
	"errors"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// curMapper reads AWS Cost and Usage Reports: legacy (lineItem/...) and
// CUR 2.0 (line_item_...), CSV or Parquet. Dims: 0 payer account, 1 usage
// account, 2 product code, 3 product name, 4 region, 5 resource id, 6
// product family, 7 line item type, 8 tags, 9 currency, and the usage
// detail: lineItem/UsageType in pricing/unit, the quantity
// lineItem/UsageAmount (none on a SavingsPlanNegation row, which undoes
// the cost of usage already counted).
//
// Costs follow the FOCUS conversion of CUR: billed is the unblended cost;
// effective is the amortized cost (savings plan and reservation effective
// cost for covered usage, the unused part of recurring commitment fees, zero
// for negations and upfront fees); list is the public on-demand cost.
type curMapper struct {
	exportNames
	ends                                    endCache
	forced                                  model.ProviderKey
	payer, account, typ, start, code, pname int
	regionCode, region, resource, family    int
	currency, unblended, public             int
	riEffective, spEffective                int
	riUnusedUpfront, riUnusedRecurring      int
	spTotalCommit, spUsedCommit, riARN      int
	pstart, pend, tagsCol                   int
	tagIdx                                  []int
	tagKeys                                 []string
	names                                   map[int]string
	tagBuf                                  []byte
	startName                               string
	usageType, usageAmount                  int
	cm                                      curCommit
}

// curCommit are the columns the commitment measures read.
type curCommit struct {
	unit, riEnd, riUpfront, riUnits int
	riUnusedQty, spARN, spEnd       int
	usageType, desc                 int // the row's half of the eligibility rule reads them
	rule                            rowRule
}

func bindCUR(h header, forced model.ProviderKey) (mapper, *fieldError) {
	f := func(legacy, v2 string) int { return h.find(legacy, v2) }
	m := &curMapper{
		forced:            forced,
		payer:             f("bill/PayerAccountId", "bill_payer_account_id"),
		account:           f("lineItem/UsageAccountId", "line_item_usage_account_id"),
		typ:               f("lineItem/LineItemType", "line_item_line_item_type"),
		start:             f("lineItem/UsageStartDate", "line_item_usage_start_date"),
		code:              f("lineItem/ProductCode", "line_item_product_code"),
		pname:             f("product/ProductName", "product_product_name"),
		regionCode:        f("product/regionCode", "product_region_code"),
		region:            f("product/region", "product_region"),
		resource:          f("lineItem/ResourceId", "line_item_resource_id"),
		family:            f("product/productFamily", "product_product_family"),
		currency:          f("lineItem/CurrencyCode", "line_item_currency_code"),
		unblended:         f("lineItem/UnblendedCost", "line_item_unblended_cost"),
		public:            f("pricing/publicOnDemandCost", "pricing_public_on_demand_cost"),
		riEffective:       f("reservation/EffectiveCost", "reservation_effective_cost"),
		spEffective:       f("savingsPlan/SavingsPlanEffectiveCost", "savings_plan_savings_plan_effective_cost"),
		riUnusedUpfront:   f("reservation/UnusedAmortizedUpfrontFeeForBillingPeriod", "reservation_unused_amortized_upfront_fee_for_billing_period"),
		riUnusedRecurring: f("reservation/UnusedRecurringFee", "reservation_unused_recurring_fee"),
		spTotalCommit:     f("savingsPlan/TotalCommitmentToDate", "savings_plan_total_commitment_to_date"),
		spUsedCommit:      f("savingsPlan/UsedCommitment", "savings_plan_used_commitment"),
		riARN:             f("reservation/ReservationARN", "reservation_reservation_a_r_n"),
		pstart:            f("bill/BillingPeriodStartDate", "bill_billing_period_start_date"),
		pend:              f("bill/BillingPeriodEndDate", "bill_billing_period_end_date"),
		tagsCol:           h.find("resource_tags"),
		usageType:         f("lineItem/UsageType", "line_item_usage_type"),
		usageAmount:       f("lineItem/UsageAmount", "line_item_usage_amount"),
		exportNames: exportNames{accountName: f("bill/PayerAccountName", "bill_payer_account_name"),
			subName: f("lineItem/UsageAccountName", "line_item_usage_account_name")},
		names: map[int]string{},
		cm: curCommit{
			unit:        f("pricing/unit", "pricing_unit"),
			riEnd:       f("reservation/EndTime", "reservation_end_time"),
			riUpfront:   f("reservation/AmortizedUpfrontFeeForBillingPeriod", "reservation_amortized_upfront_fee_for_billing_period"),
			riUnits:     f("reservation/TotalReservedUnits", "reservation_total_reserved_units"),
			riUnusedQty: f("reservation/UnusedQuantity", "reservation_unused_quantity"),
			spARN:       f("savingsPlan/SavingsPlanARN", "savings_plan_savings_plan_a_r_n"),
			spEnd:       f("savingsPlan/EndTime", "savings_plan_end_time"),
			usageType:   f("lineItem/UsageType", "line_item_usage_type"),
			desc:        f("lineItem/LineItemDescription", "line_item_line_item_description"),
		},
	}
	if m.unblended < 0 {
		return nil, missing("lineItem/UnblendedCost")
	}
	if m.start < 0 {
		return nil, missing("lineItem/UsageStartDate")
	}
	for _, i := range []int{m.unblended, m.public, m.riEffective, m.spEffective, m.riUnusedUpfront,
		m.riUnusedRecurring, m.spTotalCommit, m.spUsedCommit, m.start, m.cm.riUpfront, m.cm.riUnits, m.cm.riUnusedQty, m.usageAmount} {
		m.names[i] = h.colName(i, "cost")
	}
	m.startName = m.names[m.start]
	idx, keys := h.prefixed("resourceTags/", "resource_tags_")
	for i, k := range keys {
		k = strings.TrimPrefix(strings.TrimPrefix(k, "user:"), "user_")
		keys[i] = k
	}
	m.tagIdx, m.tagKeys = idx, keys
	return m, nil
}

func (m *curMapper) amt(rec [][]byte, i int) (exact, bool, *fieldError) {
	return amount(rec, i, m.names[i])
}

func (m *curMapper) rows(rec [][]byte, out []rawLine) ([]rawLine, *fieldError) {
	out = append(out, rawLine{})
	l := &out[len(out)-1]
	var fe *fieldError
	if l.day, fe = dayCell(rec, m.start, m.startName); fe != nil {
		return out, fe
	}
	l.pstart = optDay(rec, m.pstart)
	l.pend = m.ends.inclusive(cell(rec, m.pend)) // the end is exclusive
	if l.billed, _, fe = m.amt(rec, m.unblended); fe != nil {
		return out, fe
	}
	typ := cell(rec, m.typ)
	switch string(typ) {
	case "SavingsPlanCoveredUsage":
		l.effective, _, fe = m.amt(rec, m.spEffective)
	case "DiscountedUsage":
		l.effective, _, fe = m.amt(rec, m.riEffective)
	case "SavingsPlanNegation", "SavingsPlanUpfrontFee":
		l.effective = exact{}
	case "SavingsPlanRecurringFee":
		var total, used exact
		if total, _, fe = m.amt(rec, m.spTotalCommit); fe == nil {
			used, _, fe = m.amt(rec, m.spUsedCommit)
		}
		if fe == nil {
			fe = sum(&l.effective, m.names[m.spTotalCommit], total, used.neg())
		}
	case "RIFee":
		var up, rec2 exact
		if up, _, fe = m.amt(rec, m.riUnusedUpfront); fe == nil {
			rec2, _, fe = m.amt(rec, m.riUnusedRecurring)
		}
		if fe == nil {
			fe = sum(&l.effective, m.names[m.riUnusedUpfront], up, rec2)
		}
	case "Fee":
		if cell(rec, m.riARN) != nil {
			l.effective = exact{} // an upfront reservation fee is amortized into usage
		} else {
			l.effective = l.billed
		}
	default:
		l.effective = l.billed
	}
	if fe != nil {
		return out, fe
	}
	var ok bool
	if l.list, ok, fe = m.amt(rec, m.public); fe != nil {
		return out, fe
	} else if !ok {
		l.list = l.billed
	}
	// Without reservation or savings plan columns every usage row is on
	// demand: its eligible usage still counts.
	if fe = m.commitment(rec, typ, l); fe != nil {
		return out, fe
	}
	d := &l.dims
	d[0], d[1], d[2], d[3] = cell(rec, m.payer), cell(rec, m.account), cell(rec, m.code), cell(rec, m.pname)
	m.fill(rec, l)
	if d[4] = cell(rec, m.regionCode); d[4] == nil {
		d[4] = cell(rec, m.region)
	}
	d[5], d[6], d[7], d[9] = cell(rec, m.resource), cell(rec, m.family), typ, cell(rec, m.currency)
	l.setUsage(cell(rec, m.cm.unit), cell(rec, m.usageType))
	if string(typ) != "SavingsPlanNegation" {
		if l.quantity, fe = quantity(rec, m.usageAmount, m.names[m.usageAmount]); fe != nil {
			return out, fe
		}
	}
	if m.tagsCol >= 0 {
		d[8] = cell(rec, m.tagsCol)
	} else if len(m.tagIdx) > 0 {
		d[8] = m.packTags(rec)
	}
	return out, nil
}

// commitment fills l.commit from a row of an export with reservation or
// savings plan columns (the measures are defined in docs/commitments.md).
func (m *curMapper) commitment(rec [][]byte, typ []byte, l *rawLine) *fieldError {
	c := &l.commit
	var fe *fieldError
	switch string(typ) {
	case "Usage":
		if m.cm.rule.eligible(nil, cell(rec, m.cm.unit), cell(rec, m.cm.usageType), cell(rec, m.cm.desc)) {
			c.kind = commitCandidate
		}
		return nil
	case "DiscountedUsage":
		c.kind, c.id, c.typ, c.cat = commitCovered, cell(rec, m.riARN), riType, usageCat
		c.end = optDay(rec, m.cm.riEnd)
		c.coveredList, c.coveredCost = l.list, l.effective
	case "SavingsPlanCoveredUsage":
		c.kind, c.id, c.typ, c.cat = commitCovered, cell(rec, m.cm.spARN), spType, spendCat
		c.end = optDay(rec, m.cm.spEnd)
		c.coveredList, c.coveredCost = l.list, l.effective
	case "RIFee":
		// Purchased: the amortized upfront fee and the recurring fee of
		// the billing period; unused: their unused parts.
		c.kind, c.id, c.typ, c.cat = commitFee, cell(rec, m.riARN), riType, usageCat
		c.end = optDay(rec, m.cm.riEnd)
		var up exact
		if up, _, fe = m.amt(rec, m.cm.riUpfront); fe != nil {
			return fe
		}
		c.unused = l.effective // the unused upfront and recurring fees (rows)
		var bought exact
		if fe = sum(&bought, m.names[m.cm.riUpfront], up, l.billed); fe != nil {
			return fe
		}
		if fe = sum(&c.used, m.names[m.cm.riUpfront], bought, c.unused.neg()); fe != nil {
			return fe
		}
		if c.units, _, fe = m.amt(rec, m.cm.riUnits); fe != nil {
			return fe
		}
		c.unused2, _, fe = m.amt(rec, m.cm.riUnusedQty)
	case "SavingsPlanRecurringFee":
		c.kind, c.id, c.typ, c.cat = commitFee, cell(rec, m.cm.spARN), spType, spendCat
		c.end = optDay(rec, m.cm.spEnd)
		if c.used, _, fe = m.amt(rec, m.spUsedCommit); fe != nil {
			return fe
		}
		c.unused = l.effective // the total commitment less the used (rows)
	}
	if c.kind != commitNone && c.id == nil {
		c.kind = commitNone // a commitment row without its id cannot be told apart
	}
	return fe
}

var (
	riType   = []byte(TypeReservedInstance)
	spType   = []byte(TypeSavingsPlan)
	usageCat = []byte(CategoryUsage)
	spendCat = []byte(CategorySpend)
)

// packTags packs the non-empty tag columns as index=value pairs; describe
// unpacks them. Only a new key pays for building the map.
func (m *curMapper) packTags(rec [][]byte) []byte {
	b := m.tagBuf[:0]
	for n, i := range m.tagIdx {
		v := cell(rec, i)
		if v == nil {
			continue
		}
		b = appendPacked(b, n, v)
	}
	m.tagBuf = b
	return b
}

func (m *curMapper) describe(l *rawLine) (model.CostLine, *fieldError) {
	d := &l.dims
	k := CURKey{Payer: str(d[0]), Account: str(d[1]), ProductCode: str(d[2]), ProductName: str(d[3]),
		Region: str(d[4]), ResourceID: str(d[5]), ProductFamily: str(d[6]), LineItemType: string(d[7]), Currency: string(d[9])}
	if m.tagsCol >= 0 {
		k.Tags = d[8]
		if k.Tags == nil {
			k.Tags = []byte{}
		}
	} else {
		k.TagMap = unpackTags(d[8], m.tagKeys)
	}
	c, err := CURLine(k)
	c = withUsage(c, l)
	if m.forced != "" {
		c.Provider = m.forced
	}
	if err != nil {
		var fe *fieldError
		errors.As(err, &fe)
		return c, fe
	}
	return c, nil
}

// curChargeCategory maps lineItem/LineItemType to a FOCUS ChargeCategory.
func curChargeCategory(t string) string {
	switch t {
	case "Usage", "DiscountedUsage", "SavingsPlanCoveredUsage", "SavingsPlanNegation", "":
		return "Usage"
	case "Tax":
		return "Tax"
	case "Credit", "Refund", "EdpDiscount", "BundledDiscount", "PrivateRateDiscount", "Discount",
		"DistributorDiscount", "SppDiscount", "SavingsBundleDiscount":
		return "Credit"
	case "Fee", "RIFee", "SavingsPlanRecurringFee", "SavingsPlanUpfrontFee":
		return "Purchase"
	}
	return "Adjustment"
}

// arnType is the resource type of an ARN ("instance" of
// arn:aws:ec2:...:instance/i-1), or "".
func arnType(id string) string {
	if !strings.HasPrefix(id, "arn:") {
		return ""
	}
	parts := strings.SplitN(id, ":", 6)
	if len(parts) < 6 {
		return ""
	}
	res := parts[5]
	if i := strings.IndexAny(res, "/:"); i > 0 {
		return res[:i]
	}
	return parts[2]
}

// stripUserPrefix drops CUR 2.0's "user_" prefix of user-defined tags.
func stripUserPrefix(t map[string]string) map[string]string {
	for k, v := range t {
		if s, ok := strings.CutPrefix(k, "user_"); ok && s != "" {
			delete(t, k)
			t[s] = v
		}
	}
	return t
}
