package billing

import (
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// ociMapper reads OCI cost reports. Dims: 0 tenancy, 1 compartment, 2
// service, 3 region, 4 resource id, 5 correction flag, 6 tags, 7 currency,
// and the usage detail: the product (cost/productSku / product/Description,
// as OCI's FOCUS report gives SkuId and ChargeDescription) in
// cost/skuUnitDescription (the unit of the quantity and the unit price;
// else cost/billingUnitReadable), the quantity usage/billedQuantity.
// Billed and effective are cost/myCost, the column Oracle's own tools sum
// (cost/myCostOverage is informational); the report has no list cost, so
// list is billed. The report has no commitment discounts (OCI's annual
// commitment prices the whole tenancy): its time-priced compute and
// database usage is eligible usage paid on demand.
type ociMapper struct {
	exportNames
	forced                                    model.ProviderKey
	tenant, compartment, service, region, res int
	correction, currency, cost, start         int
	costName, startName                       string
	sku, desc, unit, qty                      int // the row's half of the eligibility rule reads unit and desc
	qtyName                                   string
	tagIdx                                    []int
	tagKeys                                   []string
	tagBuf                                    []byte
	rule                                      rowRule
}

func bindOCI(h header, forced model.ProviderKey) (mapper, *fieldError) {
	m := &ociMapper{
		forced:      forced,
		tenant:      h.find("lineItem/tenantId"),
		compartment: h.find("product/compartmentId"),
		service:     h.find("product/service"),
		region:      h.find("product/region"),
		res:         h.find("product/resourceId"),
		correction:  h.find("lineItem/isCorrection"),
		currency:    h.find("cost/currencyCode"),
		cost:        h.find("cost/myCost"),
		start:       h.find("lineItem/intervalUsageStart"),
		sku:         h.find("cost/productSku"),
		desc:        h.find("product/Description"),
		unit:        h.find("cost/skuUnitDescription", "cost/billingUnitReadable"),
		qty:         h.find("usage/billedQuantity"),
	}
	m.qtyName = h.colName(m.qty, "usage/billedQuantity")
	m.exportNames = exportNames{accountName: h.find("lineItem/tenantName"), subName: h.find("product/compartmentName")}
	if m.cost < 0 {
		return nil, missing("cost/myCost")
	}
	if m.start < 0 {
		return nil, missing("lineItem/intervalUsageStart")
	}
	m.costName, m.startName = h.colName(m.cost, ""), h.colName(m.start, "")
	m.tagIdx, m.tagKeys = h.prefixed("tags/")
	return m, nil
}

func (m *ociMapper) rows(rec [][]byte, out []rawLine) ([]rawLine, *fieldError) {
	out = append(out, rawLine{})
	l := &out[len(out)-1]
	var fe *fieldError
	if l.day, fe = dayCell(rec, m.start, m.startName); fe != nil {
		return out, fe
	}
	if l.billed, _, fe = amount(rec, m.cost, m.costName); fe != nil {
		return out, fe
	}
	l.effective, l.list = l.billed, l.billed
	d := &l.dims
	d[0], d[1], d[2], d[3], d[4] = cell(rec, m.tenant), cell(rec, m.compartment), cell(rec, m.service), cell(rec, m.region), cell(rec, m.res)
	d[5], d[7] = cell(rec, m.correction), cell(rec, m.currency)
	m.fill(rec, l)
	if m.rule.eligible(nil, cell(rec, m.unit), cell(rec, m.desc)) {
		l.commit.kind = commitCandidate
	}
	l.setUsage(cell(rec, m.unit), cell(rec, m.sku), cell(rec, m.desc))
	if l.quantity, fe = quantity(rec, m.qty, m.qtyName); fe != nil {
		return out, fe
	}
	if len(m.tagIdx) > 0 {
		b := m.tagBuf[:0]
		for n, i := range m.tagIdx {
			if v := cell(rec, i); v != nil {
				b = appendPacked(b, n, v)
			}
		}
		m.tagBuf = b
		d[6] = b
	}
	return out, nil
}

func (m *ociMapper) describe(l *rawLine) (model.CostLine, *fieldError) {
	d := &l.dims
	p := model.OCI
	if m.forced != "" {
		p = m.forced
	}
	c := model.CostLine{
		Provider: p, BillingAccount: str(d[0]), SubAccount: str(d[1]), Service: str(d[2]),
		Region: str(d[3]), ResourceID: str(d[4]), Currency: currency(d[7]), ChargeCategory: "Usage",
		Tags: unpackTags(d[6], m.tagKeys),
	}
	if strings.EqualFold(str(d[5]), "true") {
		c.ChargeCategory = "Adjustment"
	}
	c.ServiceCategory = serviceCategory(model.OCI, c.Service)
	c.ResourceType = ocidType(c.ResourceID)
	return withUsage(c, l), nil
}

// ocidType is the resource type of an OCID (ocid1.<type>.oc1...), or "".
func ocidType(id string) string {
	if !strings.HasPrefix(id, "ocid1.") {
		return ""
	}
	t, _, _ := strings.Cut(id[len("ocid1."):], ".")
	return t
}
