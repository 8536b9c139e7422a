package billing

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// gcpMapper reads the Google Cloud billing export to BigQuery, saved as CSV
// (nested fields flattened as service.description or service_description,
// repeated fields as JSON) or as newline-delimited JSON. Dims: 0 billing
// account, 1 project, 2 service, 3 region, 4 resource, 5 cost type, 6
// labels, 7 project labels, 8 currency, 9 credit type (credit lines only),
// and resource.name in dimResName when resource.global_name is the id.
//
// Billed and effective are cost; list is cost_at_list when present, else
// cost. Each credit becomes a line of its own with ChargeCategory Credit and
// its (negative) amount, so credits stay visible as the export has them.
type gcpMapper struct {
	exportNames
	forced                                     model.ProviderKey
	account, project, service, region, loc     int
	resource, resName, costType, labels, plabs int
	currency, cost, list, credits, start, inv  int
	costName, listName, startName              string
	credBuf                                    []gcpCredit
	credAmt                                    []exact
	// Committed use discounts: the SKU (fees are "Commitment…" SKUs),
	// the usage in pricing units and their unit, the rate from the
	// pricing currency (USD) to the billing currency.
	sku, qty, qtyUnit, rate int
	qtyName, rateName       string
	skuID                   int
	usage                   bool // the row being mapped is usage (not a fee, tax or adjustment)
	rule                    rowRule
}

type gcpCredit struct {
	Name   string      `json:"name"`
	Amount json.Number `json:"amount"`
	Type   string      `json:"type"`
}

var creditCategory = []byte("Credit")

func bindGCP(h header, forced model.ProviderKey) (mapper, *fieldError) {
	f := func(n string) int { return h.find(n, strings.ReplaceAll(n, ".", "_")) }
	m := &gcpMapper{
		forced:   forced,
		account:  f("billing_account_id"),
		project:  f("project.id"),
		service:  f("service.description"),
		region:   f("location.region"),
		loc:      f("location.location"),
		resource: f("resource.global_name"),
		resName:  f("resource.name"),
		costType: f("cost_type"),
		labels:   f("labels"),
		plabs:    f("project.labels"),
		currency: f("currency"),
		cost:     f("cost"),
		list:     f("cost_at_list"),
		credits:  f("credits"),
		start:    f("usage_start_time"),
		inv:      f("invoice.month"),
		sku:      f("sku.description"),
		skuID:    f("sku.id"),
		qty:      f("usage.amount_in_pricing_units"),
		qtyUnit:  f("usage.pricing_unit"),
		rate:     f("currency_conversion_rate"),
	}
	m.qtyName, m.rateName = h.colName(m.qty, "usage.amount_in_pricing_units"), h.colName(m.rate, "currency_conversion_rate")
	m.exportNames = exportNames{accountName: -1, subName: f("project.name")}
	if m.cost < 0 {
		return nil, missing("cost")
	}
	if m.start < 0 {
		return nil, missing("usage_start_time")
	}
	m.costName, m.listName, m.startName = h.colName(m.cost, ""), h.colName(m.list, "cost_at_list"), h.colName(m.start, "")
	return m, nil
}

func (m *gcpMapper) rows(rec [][]byte, out []rawLine) ([]rawLine, *fieldError) {
	out = append(out, rawLine{})
	base := len(out) - 1
	l := &out[base]
	var fe *fieldError
	if l.day, fe = dayCell(rec, m.start, m.startName); fe != nil {
		return out, fe
	}
	if inv := cell(rec, m.inv); len(inv) == 6 && allDigitsB(inv) {
		var s day
		copy(s[:], string(inv[:4])+"-"+string(inv[4:6])+"-01")
		if validDate(s) {
			l.pstart = s
			l.pend = monthEnd(s)
		}
	}
	if l.billed, _, fe = amount(rec, m.cost, m.costName); fe != nil {
		return out, fe
	}
	l.effective = l.billed
	var ok bool
	if l.list, ok, fe = amount(rec, m.list, m.listName); fe != nil {
		return out, fe
	} else if !ok {
		l.list = l.billed
	}
	d := &l.dims
	d[0], d[1], d[2] = cell(rec, m.account), cell(rec, m.project), cell(rec, m.service)
	if d[3] = cell(rec, m.region); d[3] == nil {
		d[3] = cell(rec, m.loc)
	}
	if d[4] = cell(rec, m.resource); d[4] == nil {
		d[4] = cell(rec, m.resName)
	} else {
		d[dimResName] = cell(rec, m.resName) // the short name beside the global one
	}
	d[5], d[6], d[7], d[8] = cell(rec, m.costType), cell(rec, m.labels), cell(rec, m.plabs), cell(rec, m.currency)
	m.fill(rec, l)
	l.setUsage(cell(rec, m.qtyUnit), cell(rec, m.skuID), cell(rec, m.sku))
	if l.quantity, fe = quantity(rec, m.qty, m.qtyName); fe != nil {
		return out, fe
	}

	cr := bytes.TrimSpace(cell(rec, m.credits))
	m.credBuf, m.credAmt = m.credBuf[:0], m.credAmt[:0]
	if len(cr) > 0 && string(cr) != "[]" {
		dec := json.NewDecoder(bytes.NewReader(cr))
		dec.UseNumber()
		if err := dec.Decode(&m.credBuf); err != nil {
			return out, badField("credits", "invalid credits: %v", err)
		}
		for _, c := range m.credBuf {
			v, ok := parseAmount([]byte(c.Amount))
			if !ok {
				return out, badField("credits", "invalid credit amount %q", c.Amount)
			}
			m.credAmt = append(m.credAmt, v)
		}
	}
	if fe = m.commitment(rec, l); fe != nil {
		return out, fe
	}
	for i, c := range m.credBuf {
		cl := out[base]
		cl.billed, cl.effective, cl.list, cl.quantity = m.credAmt[i], m.credAmt[i], exact{}, exact{}
		cl.dims[5] = creditCategory
		cl.dims[9] = []byte(c.Type)
		cl.commit = commitRow{}
		if fe = m.cudCredit(rec, &out[base], &cl, c.Type, m.credAmt[i]); fe != nil {
			return out, fe
		}
		out = append(out, cl)
	}
	return out, nil
}

// Credit types of committed use discounts: resource-based, legacy
// spend-based, and the new spend-based model's offset of the fee.
const (
	creditCUD       = "COMMITTED_USAGE_DISCOUNT"
	creditCUDDollar = "COMMITTED_USAGE_DISCOUNT_DOLLAR_BASE"
	creditCUDOffset = "FEE_UTILIZATION_OFFSET"
)

var (
	gcpResourceCUD = []byte("Committed Use Discount")
	gcpSpendCUD    = []byte("Committed Use Discount (spend-based)")
	gcpResourceID  = "gcp-cud/resource-based/"
	gcpSpendID     = []byte("gcp-cud/spend-based")
	gcpGlobal      = []byte("global")
)

// commitment fills the commitment measures of a row (defined in
// docs/commitments.md). The export never ties a credit to one commitment, so the
// commitments of a billing account are grouped: resource-based CUDs per
// region and pricing unit (they apply only there, and a vCPU-hour is not a
// GiB-hour), spend-based ones together (Compute flexible CUDs apply across
// regions). A commitment fee ("Commitment v1:
// …" resource-based, "Commitment - dollar based v1: …" spend-based) is
// split into used and unused once its day is summed, by the credits
// applied against what was committed (commitSums.split); a fee row with a
// FEE_UTILIZATION_OFFSET credit (the new spend-based model) says its used
// part itself. Usage with CUD credits is covered at the credits' amount
// (Google prices covered usage on demand and credits it back), and its
// rest is eligible usage paid on demand.
func (m *gcpMapper) commitment(rec [][]byte, l *rawLine) *fieldError {
	c := &l.commit
	m.usage = false
	if !equalFoldAny(l.dims[5], "regular", "usage") && l.dims[5] != nil {
		return nil
	}
	sku := cell(rec, m.sku)
	if hasPrefixFold(sku, "commitment") {
		return m.fee(rec, l, sku)
	}
	m.usage = true
	unit := cell(rec, m.qtyUnit)
	if m.qtyUnit < 0 {
		unit = unknownTime
	}
	if !m.rule.eligible(nil, unit, sku) {
		return nil
	}
	c.kind = commitCandidate
	var covered exact
	for i, cr := range m.credBuf {
		if cr.Type == creditCUD || cr.Type == creditCUDDollar {
			var ok bool
			if covered, ok = covered.add(m.credAmt[i].neg()); !ok {
				return badField("credits", "%v", errOverflow)
			}
			c.partial = true
		}
	}
	if c.partial {
		rest, ok := l.list.add(covered.neg())
		if !ok {
			return badField("credits", "%v", errOverflow)
		}
		if rest.n > 0 || (rest.n == 0 && rest.f > 0) {
			c.onDemand = rest
		}
	}
	return nil
}

// fee fills the measures of a commitment fee row.
func (m *gcpMapper) fee(rec [][]byte, l *rawLine, sku []byte) *fieldError {
	c := &l.commit
	c.kind = commitFee
	spend := bytes.Contains(bytes.ToLower(sku), []byte("dollar")) || bytes.Contains(bytes.ToLower(sku), []byte("spend"))
	var offset exact
	hasOffset := false
	for i, cr := range m.credBuf {
		if cr.Type == creditCUDOffset {
			var ok bool
			if offset, ok = offset.add(m.credAmt[i].neg()); !ok {
				return badField("credits", "%v", errOverflow)
			}
			hasOffset = true
		}
	}
	if spend || hasOffset {
		c.id, c.typ, c.cat = gcpSpendID, gcpSpendCUD, spendCat
	} else {
		c.id, c.typ, c.cat = m.resourceID(rec, l), gcpResourceCUD, usageCat
	}
	if hasOffset {
		// The new spend-based model: the offset is the used part.
		c.used = offset
		var ok bool
		if c.unused, ok = l.billed.add(offset.neg()); !ok {
			return badField(m.costName, "%v", errOverflow)
		}
		return nil
	}
	c.fee = l.billed
	q, _, fe := amount(rec, m.qty, m.qtyName)
	if fe != nil {
		return fe
	}
	if spend {
		// A legacy spend-based fee's pricing units are hundredths of
		// the hourly commitment at on-demand prices, in USD (as
		// Google's own utilization query reads them).
		r, _ := exactRat(new(big.Rat).Quo(q.rat(), big.NewRat(100, 1)))
		q = r
	}
	c.capacity = q
	return nil
}

// resourceID is the group of the resource-based CUDs of a row's region
// and pricing unit: vCPUs (and GPUs) in hours, memory in GiB-hours are
// committed and split apart.
func (m *gcpMapper) resourceID(rec [][]byte, l *rawLine) []byte {
	r := l.dims[3]
	if r == nil {
		r = gcpGlobal
	}
	id := append([]byte(gcpResourceID), r...)
	if u := cell(rec, m.qtyUnit); u != nil {
		id = append(append(id, '/'), bytes.ToLower(u)...)
	}
	return id
}

// cudCredit fills the measures of a CUD credit line of usage row base:
// usage covered at the credit's amount; utilized is the covered quantity
// (resource-based: the row's usage in pricing units times the share of
// its cost the credit covers) or the credit in USD (spend-based).
func (m *gcpMapper) cudCredit(rec [][]byte, base, cl *rawLine, typ string, amt exact) *fieldError {
	if typ != creditCUD && typ != creditCUDDollar || !m.usage {
		return nil
	}
	c := &cl.commit
	c.kind, c.coveredList = commitCovered, amt.neg()
	if typ == creditCUD {
		c.id, c.typ, c.cat = m.resourceID(rec, base), gcpResourceCUD, usageCat
		q, ok, fe := amount(rec, m.qty, m.qtyName)
		if fe != nil || !ok || base.billed.isZero() {
			return fe
		}
		x := new(big.Rat).Mul(q.rat(), c.coveredList.rat())
		c.utilized, _ = exactRat(x.Quo(x, base.billed.rat()))
		return nil
	}
	c.id, c.typ, c.cat = gcpSpendID, gcpSpendCUD, spendCat
	rate, ok, fe := amount(rec, m.rate, m.rateName)
	if fe != nil {
		return fe
	}
	if !ok || rate.isZero() {
		c.utilized = c.coveredList
		return nil
	}
	x := new(big.Rat).Quo(c.coveredList.rat(), rate.rat())
	c.utilized, _ = exactRat(x)
	return nil
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

// monthEnd is the last day of d's month.
func monthEnd(d day) day {
	return d.addMonths(1).addDays(-1)
}

func (m *gcpMapper) describe(l *rawLine) (model.CostLine, *fieldError) {
	d := &l.dims
	p := model.GCP
	if m.forced != "" {
		p = m.forced
	}
	tags, err := parseTags(d[7])
	if err != nil {
		return model.CostLine{}, badField("project.labels", "invalid labels: %v", err)
	}
	own, err := parseTags(d[6])
	if err != nil {
		return model.CostLine{}, badField("labels", "invalid labels: %v", err)
	}
	// Resource labels win over the project's.
	if tags == nil {
		tags = own
	} else {
		for k, v := range own {
			tags[k] = v
		}
	}
	c := model.CostLine{
		Provider: p, BillingAccount: str(d[0]), SubAccount: str(d[1]), Service: str(d[2]),
		Region: str(d[3]), ResourceID: str(d[4]), Tags: tags, Currency: currency(d[8]),
		ChargeCategory: gcpChargeCategory(str(d[5])), ResourceName: l.resourceName(dimResName),
	}
	c.ServiceCategory = serviceCategory(model.GCP, c.Service)
	c.ResourceType = gcpResourceType(c.ResourceID)
	return withUsage(c, l), nil
}

// gcpChargeCategory maps cost_type to a FOCUS ChargeCategory.
func gcpChargeCategory(t string) string {
	switch strings.ToLower(t) {
	case "", "regular", "usage":
		return "Usage"
	case "tax":
		return "Tax"
	case "credit":
		return "Credit"
	}
	return "Adjustment" // adjustment, rounding_error
}

// gcpResourceType is the collection of a resource global name
// (//compute.googleapis.com/projects/p/zones/z/instances/i gives
// compute.googleapis.com/instances), or "".
func gcpResourceType(id string) string {
	rest, ok := strings.CutPrefix(id, "//")
	if !ok {
		return ""
	}
	parts := strings.Split(rest, "/")
	if len(parts) < 3 {
		return ""
	}
	return parts[0] + "/" + parts[len(parts)-2]
}

// gcpJSONColumns is the header JSON lines are flattened to.
var gcpJSONColumns = []string{
	"billing_account_id", "project.id", "service.description", "location.region", "location.location",
	"resource.global_name", "resource.name", "cost_type", "labels", "project.labels", "currency",
	"cost", "cost_at_list", "credits", "usage_start_time", "invoice.month", "project.name",
	"sku.description", "usage.amount_in_pricing_units", "usage.pricing_unit", "currency_conversion_rate",
	"sku.id",
}

// gcpJSONRow decodes one JSON line of the BigQuery export into cells in
// gcpJSONColumns order. Numbers stay as their JSON text, so amounts are
// exact.
type gcpJSONRow struct {
	fields [][]byte
}

func newGCPJSONRow() *gcpJSONRow { return &gcpJSONRow{fields: make([][]byte, len(gcpJSONColumns))} }

type gcpJSONLine struct {
	BillingAccountID json.RawMessage `json:"billing_account_id"`
	Project          *struct {
		ID     json.RawMessage `json:"id"`
		Name   json.RawMessage `json:"name"`
		Labels json.RawMessage `json:"labels"`
	} `json:"project"`
	Service *struct {
		Description json.RawMessage `json:"description"`
	} `json:"service"`
	Location *struct {
		Region   json.RawMessage `json:"region"`
		Location json.RawMessage `json:"location"`
	} `json:"location"`
	Resource *struct {
		GlobalName json.RawMessage `json:"global_name"`
		Name       json.RawMessage `json:"name"`
	} `json:"resource"`
	CostType       json.RawMessage `json:"cost_type"`
	Labels         json.RawMessage `json:"labels"`
	Currency       json.RawMessage `json:"currency"`
	Cost           json.RawMessage `json:"cost"`
	CostAtList     json.RawMessage `json:"cost_at_list"`
	Credits        json.RawMessage `json:"credits"`
	UsageStartTime json.RawMessage `json:"usage_start_time"`
	Invoice        *struct {
		Month json.RawMessage `json:"month"`
	} `json:"invoice"`
	SKU *struct {
		ID          json.RawMessage `json:"id"`
		Description json.RawMessage `json:"description"`
	} `json:"sku"`
	Usage *struct {
		AmountInPricingUnits json.RawMessage `json:"amount_in_pricing_units"`
		PricingUnit          json.RawMessage `json:"pricing_unit"`
	} `json:"usage"`
	CurrencyConversionRate json.RawMessage `json:"currency_conversion_rate"`
}

func (r *gcpJSONRow) decode(line []byte) ([][]byte, *fieldError) {
	var j gcpJSONLine
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, badField("json", "invalid JSON line: %v", err)
	}
	f := r.fields
	for i := range f {
		f[i] = nil
	}
	f[0] = scalar(j.BillingAccountID)
	if j.Project != nil {
		f[1], f[9], f[16] = scalar(j.Project.ID), raw(j.Project.Labels), scalar(j.Project.Name)
	}
	if j.Service != nil {
		f[2] = scalar(j.Service.Description)
	}
	if j.Location != nil {
		f[3], f[4] = scalar(j.Location.Region), scalar(j.Location.Location)
	}
	if j.Resource != nil {
		f[5], f[6] = scalar(j.Resource.GlobalName), scalar(j.Resource.Name)
	}
	f[7], f[8], f[10] = scalar(j.CostType), raw(j.Labels), scalar(j.Currency)
	f[11], f[12], f[13], f[14] = scalar(j.Cost), scalar(j.CostAtList), raw(j.Credits), scalar(j.UsageStartTime)
	if j.Invoice != nil {
		f[15] = scalar(j.Invoice.Month)
	}
	if j.SKU != nil {
		f[17], f[21] = scalar(j.SKU.Description), scalar(j.SKU.ID)
	}
	if j.Usage != nil {
		f[18], f[19] = scalar(j.Usage.AmountInPricingUnits), scalar(j.Usage.PricingUnit)
	}
	f[20] = scalar(j.CurrencyConversionRate)
	return f, nil
}

// scalar is a JSON string's text or a number's literal; null is nil.
func scalar(v json.RawMessage) []byte {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return []byte(s)
		}
	}
	return v
}

// raw is a JSON value's text; null is nil.
func raw(v json.RawMessage) []byte {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	return v
}
