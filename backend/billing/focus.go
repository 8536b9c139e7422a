package billing

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/model"
)

// focusMapper reads FOCUS 1.0 to 1.4. Dims: 0 provider (ServiceProviderName,
// else ProviderName), 1 invoice issuer, 2 host provider or publisher, 3
// billing account, 4 sub account, 5 service, 6 service category, 7 region,
// 8 resource id, 9 resource type, 10 charge category, 11 tags, 12 currency,
// 13 billing account name, 14 sub account name, 15 resource name
// (ResourceName) and the usage detail (dimUsage, dimUnit).
//
// The usage is x_UsageType (AWS) when the row has it, else the Azure
// meter (x_SkuMeterCategory / x_SkuMeterSubcategory / x_SkuMeterName, as
// the Azure cost export names it), else SkuId / ChargeDescription. The
// unit and quantity are PricingUnit and PricingQuantity, or
// ConsumedUnit and ConsumedQuantity where the row has no
// PricingQuantity.
type focusMapper struct {
	ends                            endCache
	forced                          model.ProviderKey
	provider, issuer, host, publish int
	account, sub, service, category int
	regionID, regionName, resource  int
	resType, charge, tags, currency int
	resName                         int
	allocRes, allocName, allocTags  int // FOCUS 1.3 Allocated* split columns; -1 when absent
	accountName, subName            int
	billed, effective, list         int
	start, pstart, pend             int
	billedName, effName, listName   string
	startName, providerName         string
	cdID, cdType, cdCat, cdStatus   int // CommitmentDiscount* columns; -1 when absent
	cdQty, cdUnit                   int // FOCUS 1.1+: CommitmentDiscountQuantity, CommitmentDiscountUnit
	cdQtyName                       string
	pricingUnit                     int
	// The row's half of the eligibility rule reads some of these (-1 when absent).
	pricingCat, usageType, sku, chargeDesc int
	meterCat, meterSub, meterName          int
	pricingQty, consumedQty                int
	consumedUnit                           int
	pricingQtyName, consumedQtyName        string
	rule                                   rowRule
}

func bindFOCUS(h header, forced model.ProviderKey) (mapper, *fieldError) {
	m := &focusMapper{
		forced:   forced,
		provider: h.find("ServiceProviderName", "ProviderName"),
		issuer:   h.find("InvoiceIssuerName", "InvoiceIssuer"),
		host:     h.find("HostProviderName"),
		publish:  h.find("PublisherName"),
		account:  h.find("BillingAccountId"),
		sub:      h.find("SubAccountId"),
		// The names depend on the ids, so keying by them adds no lines.
		accountName: h.find("BillingAccountName"),
		subName:     h.find("SubAccountName"),
		service:     h.find("ServiceName"),
		category:    h.find("ServiceCategory"),
		regionID:    h.find("RegionId", "Region"),
		regionName:  h.find("RegionName"),
		resource:    h.find("ResourceId"),
		resType:     h.find("ResourceType"),
		resName:     h.find("ResourceName"),
		allocRes:    h.find("AllocatedResourceId"),
		allocName:   h.find("AllocatedResourceName"),
		allocTags:   h.find("AllocatedTags"),
		charge:      h.find("ChargeCategory"),
		tags:        h.find("Tags"),
		currency:    h.find("BillingCurrency"),
		billed:      h.find("BilledCost"),
		effective:   h.find("EffectiveCost"),
		list:        h.find("ListCost"),
		start:       h.find("ChargePeriodStart"),
		pstart:      h.find("BillingPeriodStart"),
		pend:        h.find("BillingPeriodEnd"),
		cdID:        h.find("CommitmentDiscountId"),
		cdType:      h.find("CommitmentDiscountType"),
		cdCat:       h.find("CommitmentDiscountCategory"),
		cdStatus:    h.find("CommitmentDiscountStatus"),
		cdQty:       h.find("CommitmentDiscountQuantity"),
		cdUnit:      h.find("CommitmentDiscountUnit"),
		pricingUnit: h.find("PricingUnit"),
		pricingCat:  h.find("PricingCategory"),
		usageType:   h.find("x_UsageType"),
		sku:         h.find("SkuId"),
		chargeDesc:  h.find("ChargeDescription"),
		meterCat:    h.find("x_SkuMeterCategory"),
		meterSub:    h.find("x_SkuMeterSubcategory"),
		meterName:   h.find("x_SkuMeterName"),
		pricingQty:  h.find("PricingQuantity"),
		consumedQty: h.find("ConsumedQuantity"),
		// ConsumedUnit is the unit of ConsumedQuantity.
		consumedUnit: h.find("ConsumedUnit"),
	}
	m.pricingQtyName = h.colName(m.pricingQty, "PricingQuantity")
	m.consumedQtyName = h.colName(m.consumedQty, "ConsumedQuantity")
	m.cdQtyName = h.colName(m.cdQty, "CommitmentDiscountQuantity")
	if m.host < 0 {
		m.host = m.publish
	}
	if m.billed < 0 {
		return nil, missing("BilledCost")
	}
	if m.start < 0 {
		return nil, missing("ChargePeriodStart")
	}
	if m.provider < 0 && m.issuer < 0 && m.host < 0 && forced == "" {
		return nil, missing("ProviderName")
	}
	m.billedName = h.colName(m.billed, "BilledCost")
	m.effName = h.colName(m.effective, "EffectiveCost")
	m.listName = h.colName(m.list, "ListCost")
	m.startName = h.colName(m.start, "ChargePeriodStart")
	m.providerName = h.colName(m.provider, "ProviderName")
	return m, nil
}

func (m *focusMapper) rows(rec [][]byte, out []rawLine) ([]rawLine, *fieldError) {
	out = append(out, rawLine{})
	l := &out[len(out)-1]
	var fe *fieldError
	if l.day, fe = dayCell(rec, m.start, m.startName); fe != nil {
		return out, fe
	}
	l.pstart = optDay(rec, m.pstart)
	l.pend = m.ends.inclusive(cell(rec, m.pend)) // the end is exclusive
	var ok bool
	if l.billed, _, fe = amount(rec, m.billed, m.billedName); fe != nil {
		return out, fe
	}
	if l.effective, ok, fe = amount(rec, m.effective, m.effName); fe != nil {
		return out, fe
	} else if !ok {
		l.effective = l.billed
	}
	if l.list, ok, fe = amount(rec, m.list, m.listName); fe != nil {
		return out, fe
	} else if !ok {
		l.list = l.billed
	}
	if fe = m.commitment(rec, l); fe != nil {
		return out, fe
	}
	d := &l.dims
	d[0], d[1], d[2] = cell(rec, m.provider), cell(rec, m.issuer), cell(rec, m.host)
	d[3], d[4], d[5], d[6] = cell(rec, m.account), cell(rec, m.sub), cell(rec, m.service), cell(rec, m.category)
	if d[7] = cell(rec, m.regionID); d[7] == nil {
		d[7] = cell(rec, m.regionName)
	}
	d[8], d[9], d[10] = cell(rec, m.resource), cell(rec, m.resType), cell(rec, m.charge)
	d[11], d[12] = cell(rec, m.tags), cell(rec, m.currency)
	d[13], d[14], d[dimFOCUSResName] = cell(rec, m.accountName), cell(rec, m.subName), cell(rec, m.resName)
	// A row of a provider-calculated split (FOCUS 1.3) is the share of a
	// shared resource allocated to another: it is kept as the allocated
	// resource's cost, with its name and tags, so views by resource and
	// tag show the workloads (AllocatedMethodId and its details are not
	// kept: docs/exports.md).
	if ar := cell(rec, m.allocRes); !isNull(ar) {
		d[8], d[dimFOCUSResName] = ar, cell(rec, m.allocName)
		if at := cell(rec, m.allocTags); !isNull(at) {
			d[11] = at
		}
	}
	return out, m.usage(rec, l)
}

// usage fills the usage detail and quantity of a row (see focusMapper).
func (m *focusMapper) usage(rec [][]byte, l *rawLine) *fieldError {
	unit := cell(rec, m.pricingUnit)
	var fe *fieldError
	if cell(rec, m.pricingQty) != nil {
		l.quantity, fe = quantity(rec, m.pricingQty, m.pricingQtyName)
	} else if cell(rec, m.consumedQty) != nil {
		l.quantity, fe = quantity(rec, m.consumedQty, m.consumedQtyName)
		unit = cell(rec, m.consumedUnit)
	}
	if ut := cell(rec, m.usageType); ut != nil {
		l.setUsage(unit, ut)
	} else if mc := cell(rec, m.meterCat); mc != nil {
		l.setUsage(unit, mc, cell(rec, m.meterSub), cell(rec, m.meterName))
	} else {
		l.setUsage(unit, cell(rec, m.sku), cell(rec, m.chargeDesc))
	}
	return fe
}

func (m *focusMapper) accountNames(l *rawLine) [][2][]byte {
	return [][2][]byte{{l.dims[3], l.dims[13]}, {l.dims[4], l.dims[14]}}
}

// commitment fills l.commit from a FOCUS row (the measures are defined in
// docs/commitments.md, and FOCUSCommitRole says what each kind of row gives). A
// file without the CommitmentDiscount columns still gives its eligible
// usage: every row is then on demand or not eligible.
// FOCUS 1.1+ gives the quantity of a row (consumed by a Used row, left by
// an Unused one): when its unit is time (hours), the commitment's units
// are their sum and its unused units the Unused rows', so utilization can
// be in hours.
func (m *focusMapper) commitment(rec [][]byte, l *rawLine) *fieldError {
	c := &l.commit
	id := cell(rec, m.cdID)
	role := focusCommitRole(cell(rec, m.charge), id, cell(rec, m.cdStatus), cell(rec, m.pricingUnit))
	switch role {
	case FOCUSCommitNone:
		return nil
	case FOCUSCommitOnDemand:
		if m.rule.eligible(cell(rec, m.pricingCat), cell(rec, m.pricingUnit),
			cell(rec, m.usageType), cell(rec, m.chargeDesc), cell(rec, m.meterName)) {
			c.kind = commitCandidate
		}
		return nil
	case FOCUSCommitUnused:
		c.kind, c.unused = commitFee, l.effective
	default:
		c.kind = commitCovered
		c.coveredList, c.coveredCost, c.used = l.list, l.effective, l.effective
	}
	c.id, c.typ, c.cat = id, cell(rec, m.cdType), cell(rec, m.cdCat)
	if m.cdQty < 0 || !timePriced(cell(rec, m.cdUnit)) {
		return nil
	}
	q, ok, fe := amount(rec, m.cdQty, m.cdQtyName)
	if fe != nil || !ok {
		return fe
	}
	c.units = q
	if role == FOCUSCommitUnused {
		c.unused2 = q
	}
	return nil
}

// FOCUSCommitRole is what a FOCUS usage row is to the commitment
// measures; exported for the connectors that aggregate a FOCUS table
// where it lives, so both read a row alike.
type FOCUSCommitRole uint8

const (
	// FOCUSCommitNone rows are not read: charges other than usage (a
	// purchase's cost reaches the usage and unused rows amortized), and
	// usage paid on demand that is not priced by time.
	FOCUSCommitNone FOCUSCommitRole = iota
	// FOCUSCommitOnDemand is usage without a commitment discount, priced
	// by time: its ListCost is eligible usage when the rest of the rule
	// accepts it (EligibleRow, EligibleUsage).
	FOCUSCommitOnDemand
	// FOCUSCommitUsed is usage a commitment covered (status Used, or none
	// given): ListCost is its on-demand equivalent, EffectiveCost its cost
	// and the commitment used; the quantity counts as units.
	FOCUSCommitUsed
	// FOCUSCommitUnused is the unused part of a commitment (status
	// Unused): EffectiveCost is unused; the quantity counts as units and
	// unused units.
	FOCUSCommitUnused
)

// FOCUSCommitment classifies a FOCUS row by its ChargeCategory,
// CommitmentDiscountId, CommitmentDiscountStatus and PricingUnit ("" for
// a null).
func FOCUSCommitment(charge, id, status, pricingUnit string) FOCUSCommitRole {
	return focusCommitRole([]byte(charge), []byte(id), []byte(status), []byte(pricingUnit))
}

// FOCUSCommitUnits reports whether the CommitmentDiscountQuantity of rows
// with this CommitmentDiscountUnit counts as the commitment's units: only
// a unit of time does (see timePriced).
func FOCUSCommitUnits(unit string) bool { return timePriced([]byte(unit)) }

func focusCommitRole(charge, id, status, pricingUnit []byte) FOCUSCommitRole {
	if !isNull(charge) && !equalFoldAny(charge, "Usage") {
		return FOCUSCommitNone
	}
	if isNull(id) {
		if timePriced(pricingUnit) {
			return FOCUSCommitOnDemand
		}
		return FOCUSCommitNone
	}
	if equalFoldAny(status, "Unused") {
		return FOCUSCommitUnused
	}
	return FOCUSCommitUsed
}

func (m *focusMapper) describe(l *rawLine) (model.CostLine, *fieldError) {
	d := &l.dims
	p, fe := focusProvider(m.providerName, m.forced, d[0], d[1], d[2])
	if fe != nil {
		return model.CostLine{}, fe
	}
	c, err := FOCUSLine(p, FOCUSKey{BillingAccount: str(d[3]), SubAccount: str(d[4]), Service: str(d[5]),
		ServiceCategory: str(d[6]), Region: str(d[7]), ResourceID: str(d[8]), ResourceType: str(d[9]),
		ResourceName: l.resourceName(dimFOCUSResName), ChargeCategory: str(d[10]), Currency: string(d[12]), Tags: d[11]})
	if err != nil {
		var fe *fieldError
		errors.As(err, &fe)
		return model.CostLine{}, fe
	}
	return withUsage(c, l), nil
}

// currency normalises a currency code; any code is accepted, because
// import never fails because of a currency.
func currency(b []byte) string {
	s := str(b)
	out := []byte(s)
	for i, c := range out {
		if c >= 'a' && c <= 'z' {
			out[i] = c - 'a' + 'A'
		}
	}
	return string(out)
}

// focusProvider keys a FOCUS row: the forced provider, else the cloud its
// service provider or invoice issuer names (its host's only when it names
// neither), else an extra provider keyed by the first name given (an AI
// vendor or SaaS publishing FOCUS, hosted on a cloud or not).
func focusProvider(column string, forced model.ProviderKey, service, issuer, host []byte) (model.ProviderKey, *fieldError) {
	if p := chooseProvider(forced, service, issuer); p != "" {
		return p, nil
	}
	name := focusProviderName(service, issuer, host)
	if isNull(service) && isNull(issuer) {
		if p := providerKey(string(host)); p != "" {
			return p, nil
		}
	}
	if name == "" {
		return "", badField(column, "no provider name (force one with --provider)")
	}
	p := model.ProviderKeyOf(name)
	if p == "" {
		return "", badField(column, "provider %q has no letter or digit to key it by (force one with --provider)", clip([]byte(name)))
	}
	return p, nil
}

// focusProviderName is the display name of an extra provider: the first
// name the row gives, trimmed and cut to model.MaxProviderNameLen.
func focusProviderName(names ...[]byte) string {
	for _, n := range names {
		if s := strings.TrimSpace(string(n)); s != "" && !isNull(n) {
			for len(s) > model.MaxProviderNameLen {
				_, size := utf8.DecodeLastRuneInString(s)
				s = s[:len(s)-size]
			}
			return s
		}
	}
	return ""
}

// providerName is the display name of the provider of a line described
// from l (see focusProvider).
func (m *focusMapper) displayName(l *rawLine) string {
	return focusProviderName(l.dims[0], l.dims[1], l.dims[2])
}
