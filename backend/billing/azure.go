package billing

import (
	"math/big"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// azureMapper reads Azure cost exports: EA and MCA, actual and amortized
// (the amortized export's cost column already holds amortized cost). Dims:
// 0 billing account, 1 subscription, 2 consumed service, 3 meter category,
// 4 region, 5 resource id, 6 charge type, 7 tags, 8 currency, the resource
// name (ResourceName, in dimResName), and the usage
// detail: the meter (MeterCategory / MeterSubCategory / MeterName) in
// UnitOfMeasure, the quantity Quantity.
//
// Billed and effective are the cost column (CostInBillingCurrency, else
// Cost or PreTaxCost); list is paygCostInBillingCurrency, else PayGPrice
// times Quantity in billing currency (times ExchangeRatePricingToBilling
// when the export has it, as is when it bills in USD, the pricing currency),
// else billed: a USD price is never added to a CAD cost.
type azureMapper struct {
	exportNames
	forced                                    model.ProviderKey
	account, sub, consumed, meter, region     int
	resource, charge, tags, currency, date    int
	resourceName                              int
	cost, paygCost, paygPrice, quantity, rate int
	pstart, pend, pricing                     int
	costName, paygName, priceName, dateName   string
	sig                                       azureSignals
	// Commitment columns: reservation and savings plan (benefit) ids and
	// names, the unit of measure; commit is false without PricingModel.
	resID, resName, benefitID, benefitName, unit int
	commit                                       bool
	meterSub, meterName                          int // the row's half of the eligibility rule reads them too
	qtyName                                      string
	rule                                         rowRule
}

func bindAzure(h header, forced model.ProviderKey) (mapper, *fieldError) {
	m := &azureMapper{
		forced:   forced,
		account:  h.find("BillingAccountId", "EnrollmentNumber", "BillingAccountName"),
		sub:      h.find("SubscriptionId", "SubscriptionGuid", "subscriptionId"),
		consumed: h.find("ConsumedService"),
		meter:    h.find("MeterCategory"),
		region:   h.find("ResourceLocation", "ResourceLocationNormalized", "Location"),
		resource: h.find("ResourceId", "InstanceId", "InstanceName"),
		// EA exports name the resource; MCA ones give only its id.
		resourceName: h.find("ResourceName"),
		charge:       h.find("ChargeType"),
		tags:         h.find("Tags"),
		currency:     h.find("BillingCurrencyCode", "BillingCurrency", "Currency"),
		date:         h.find("Date", "UsageDateTime", "UsageDate"),
		cost:         h.find("CostInBillingCurrency", "Cost", "PreTaxCost"),
		paygCost:     h.find("PaygCostInBillingCurrency"),
		paygPrice:    h.find("PayGPrice"),
		quantity:     h.find("Quantity"),
		rate:         h.find("ExchangeRatePricingToBilling"),
		pstart:       h.find("BillingPeriodStartDate"),
		pend:         h.find("BillingPeriodEndDate"),
		pricing:      h.find("PricingModel"),
		resID:        h.find("ReservationId"),
		resName:      h.find("ReservationName"),
		// BenefitId names a savings plan (and, in newer exports, a
		// reservation too).
		benefitID:   h.find("BenefitId"),
		benefitName: h.find("BenefitName"),
		unit:        h.find("UnitOfMeasure"),
		meterSub:    h.find("MeterSubCategory", "MeterSubcategory"),
		meterName:   h.find("MeterName"),
	}
	m.qtyName = h.colName(m.quantity, "Quantity")
	m.commit = m.pricing >= 0
	m.exportNames = exportNames{accountName: h.find("BillingAccountName", "EnrollmentName"), subName: h.find("SubscriptionName")}
	if m.cost < 0 {
		return nil, missing("CostInBillingCurrency")
	}
	if m.date < 0 {
		return nil, missing("Date")
	}
	m.costName, m.dateName = h.colName(m.cost, ""), h.colName(m.date, "")
	m.paygName, m.priceName = h.colName(m.paygCost, ""), h.colName(m.paygPrice, "PayGPrice")
	return m, nil
}

func (m *azureMapper) rows(rec [][]byte, out []rawLine) ([]rawLine, *fieldError) {
	out = append(out, rawLine{})
	l := &out[len(out)-1]
	var fe *fieldError
	if l.day, fe = dayCell(rec, m.date, m.dateName); fe != nil {
		return out, fe
	}
	l.pstart, l.pend = optDay(rec, m.pstart), optDay(rec, m.pend) // both inclusive
	if l.billed, _, fe = amount(rec, m.cost, m.costName); fe != nil {
		return out, fe
	}
	l.effective = l.billed
	m.sig.note(cell(rec, m.charge), cell(rec, m.pricing), !l.billed.isZero())
	var ok bool
	if l.list, ok, fe = amount(rec, m.paygCost, m.paygName); fe != nil {
		return out, fe
	}
	if !ok {
		rate := cell(rec, m.rate)
		if rate == nil && m.rate < 0 && string(cell(rec, m.currency)) == "USD" {
			rate = one
		}
		if l.list, ok, fe = product(m.priceName, cell(rec, m.paygPrice), cell(rec, m.quantity), rate); fe != nil {
			return out, fe
		}
		if !ok {
			l.list = l.billed
		}
	}
	if m.commit {
		m.commitment(rec, l)
	}
	d := &l.dims
	d[0], d[1], d[2], d[3], d[4] = cell(rec, m.account), cell(rec, m.sub), cell(rec, m.consumed), cell(rec, m.meter), cell(rec, m.region)
	d[5], d[6], d[7], d[8] = cell(rec, m.resource), cell(rec, m.charge), cell(rec, m.tags), cell(rec, m.currency)
	d[dimResName] = cell(rec, m.resourceName)
	m.fill(rec, l)
	l.setUsage(cell(rec, m.unit), d[3], cell(rec, m.meterSub), cell(rec, m.meterName))
	l.quantity, fe = quantity(rec, m.quantity, m.qtyName)
	return out, fe
}

var one = []byte("1")

// commitment fills l.commit from a row of an export with PricingModel (the
// measures are defined in docs/commitments.md). Only the amortized dataset's facts
// are kept (unitPart drops the actual dataset's): there, usage a
// reservation or savings plan covered carries its amortized cost, which is
// also the used part of the commitment (Azure has no used-fee row), and
// UnusedReservation / UnusedSavingsPlan rows the unused part. Purchases
// are left out: their cost reaches those rows amortized.
func (m *azureMapper) commitment(rec [][]byte, l *rawLine) {
	c := &l.commit
	charge, pricing := cell(rec, m.charge), cell(rec, m.pricing)
	usage := charge == nil || equalFoldAny(charge, "usage")
	switch {
	case equalFoldAny(charge, "unusedreservation", "unusedsavingsplan"):
		c.kind, c.unused = commitFee, l.billed
	case usage && equalFoldAny(pricing, "reservation", "savingsplan", "savings plan"):
		c.kind = commitCovered
		c.coveredList, c.coveredCost, c.used = l.list, l.billed, l.billed
	case usage && equalFoldAny(pricing, "ondemand", "on demand"):
		// Spot and other pricing models are never covered.
		unit := cell(rec, m.unit)
		if m.unit < 0 {
			unit = unknownTime
		}
		if m.rule.eligible(nil, unit, cell(rec, m.meterSub), cell(rec, m.meterName)) {
			c.kind = commitCandidate
		}
		return
	default:
		return
	}
	if equalFoldAny(charge, "unusedsavingsplan") || equalFoldAny(pricing, "savingsplan", "savings plan") {
		c.typ, c.cat = azureSPType, spendCat
		c.id = firstCell(rec, m.benefitID, m.resID, m.benefitName, m.resName)
	} else {
		c.typ, c.cat = azureRIType, usageCat
		c.id = firstCell(rec, m.resID, m.benefitID, m.resName, m.benefitName)
	}
	if c.id == nil {
		c.kind = commitNone // a commitment row without its id cannot be told apart
	}
}

var (
	azureRIType = []byte("Reservation")
	azureSPType = []byte(TypeSavingsPlan)
)

// firstCell is the first non-null of a record's cells at idx.
func firstCell(rec [][]byte, idx ...int) []byte {
	for _, i := range idx {
		if b := cell(rec, i); b != nil {
			return b
		}
	}
	return nil
}

// product multiplies decimal cells exactly (to 18 decimals); it reports
// false when a factor is null.
func product(column string, factors ...[]byte) (exact, bool, *fieldError) {
	x := big.NewRat(1, 1)
	for _, f := range factors {
		if f == nil {
			return exact{}, false, nil
		}
		y, ok := new(big.Rat).SetString(strings.TrimSpace(string(f)))
		if !ok {
			return exact{}, false, badField(column, "invalid number %q", clip(f))
		}
		x.Mul(x, y)
	}
	v, ok := exactRat(x)
	if !ok {
		return exact{}, false, badField(column, "list cost out of range")
	}
	return v, true, nil
}

func (m *azureMapper) describe(l *rawLine) (model.CostLine, *fieldError) {
	d := &l.dims
	p := model.Azure
	if m.forced != "" {
		p = m.forced
	}
	tags, err := parseTags(d[7])
	if err != nil {
		return model.CostLine{}, badField("Tags", "invalid tags: %v", err)
	}
	c := model.CostLine{
		Provider: p, BillingAccount: str(d[0]), SubAccount: str(d[1]),
		Region: strings.ToLower(strings.ReplaceAll(str(d[4]), " ", "")), ResourceID: str(d[5]),
		ChargeCategory: azureChargeCategory(str(d[6])), Tags: tags, Currency: currency(d[8]),
		ResourceName: l.resourceName(dimResName),
	}
	if c.BillingAccount == "" {
		c.BillingAccount = c.SubAccount
	}
	c.ResourceType = armType(c.ResourceID)
	s := azureService(c.ResourceType, str(d[2]), str(d[3]))
	c.Service, c.ServiceCategory = s.Name, s.Category
	return withUsage(c, l), nil
}

// azureChargeCategory maps ChargeType to a FOCUS ChargeCategory.
func azureChargeCategory(t string) string {
	switch strings.ToLower(t) {
	case "", "usage", "unusedreservation", "unusedsavingsplan":
		return "Usage"
	case "purchase":
		return "Purchase"
	case "refund", "credit":
		return "Credit"
	case "tax":
		return "Tax"
	}
	return "Adjustment"
}

// armType is the resource type of an Azure resource ID
// (.../providers/Microsoft.Compute/virtualMachines/vm1 gives
// microsoft.compute/virtualmachines), or "".
func armType(id string) string {
	lower := strings.ToLower(id)
	i := strings.LastIndex(lower, "/providers/")
	if i < 0 {
		return ""
	}
	parts := strings.Split(lower[i+len("/providers/"):], "/")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return ""
	}
	t := parts[0] + "/" + parts[1]
	// Child resources: namespace/type/name/subtype/name...
	for j := 3; j < len(parts); j += 2 {
		t += "/" + parts[j]
	}
	return t
}
