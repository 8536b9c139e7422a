package invoices

import (
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// bind recognises a header: FOCUS, AWS CUR (legacy and 2.0), Azure cost
// exports, the Google Cloud billing export and OCI cost reports, by the
// columns each is known by; nil for anything else.
func bind(h header) *format {
	switch {
	case h.find("BilledCost") >= 0 && h.find("ChargePeriodStart") >= 0:
		return bindFOCUS(h)
	case h.find("lineItem/UnblendedCost") >= 0:
		return bindCUR(h, "aws-cur", curLegacy)
	case h.find("line_item_unblended_cost") >= 0:
		return bindCUR(h, "aws-cur", cur2)
	case h.find("cost/myCost") >= 0:
		return bindOCI(h)
	case h.find("billing_account_id") >= 0 && h.find("cost") >= 0 && h.find("usage_start_time") >= 0:
		return bindGCP(h)
	case h.find("ChargeType") >= 0 && h.find("CostInBillingCurrency", "Cost", "PreTaxCost") >= 0:
		return bindAzure(h)
	}
	return nil
}

func bindFOCUS(h header) *format {
	provider := h.find("ServiceProviderName", "ProviderName")
	issuer := h.find("InvoiceIssuerName", "InvoiceIssuer")
	publisher := h.find("PublisherName", "HostProviderName")
	account, invoice := h.find("BillingAccountId"), h.find("InvoiceId")
	pstart, start := h.find("BillingPeriodStart"), h.find("ChargePeriodStart")
	class, category := h.find("ChargeClass"), h.find("ChargeCategory")
	currency, billed := h.find("BillingCurrency"), h.find("BilledCost")
	return &format{format: "focus", row: func(c *cells) (row, error) {
		r := row{account: c.get(account), invoice: c.get(invoice), currency: c.get(currency),
			day: c.day(start)}
		r.provider = model.ProviderOfName(c.get(provider))
		if r.provider == "" {
			r.provider = model.ProviderOfName(c.get(issuer))
		}
		r.period = c.day(pstart)
		if r.period == "" {
			r.period = monthStart(r.day)
		}
		if strings.EqualFold(c.get(class), "Correction") {
			r.class = ClassCorrection
		}
		switch strings.ToLower(c.get(category)) {
		case "tax":
			r.kind = KindTax
		case "credit":
			r.kind = KindCredit
		case "purchase":
			r.kind = KindPurchase
		case "adjustment":
			r.kind = KindAdjustment
		default:
			r.kind = KindUsage
		}
		// A publisher that is none of the clouds sold through the marketplace.
		pub := c.get(publisher)
		r.resold(pub != "" && model.ProviderOfName(pub) == "")
		var err error
		r.billed, err = amount(c, billed, "BilledCost")
		return r, err
	}}
}

// The AWS CUR's two spellings of the columns read.
type curColumns struct {
	invoice, payer, pstart, start, lineType, entity, currency, cost string
}

var (
	curLegacy = curColumns{"bill/InvoiceId", "bill/PayerAccountId", "bill/BillingPeriodStartDate", "lineItem/UsageStartDate",
		"lineItem/LineItemType", "bill/BillingEntity", "lineItem/CurrencyCode", "lineItem/UnblendedCost"}
	cur2 = curColumns{"bill_invoice_id", "bill_payer_account_id", "bill_billing_period_start_date", "line_item_usage_start_date",
		"line_item_line_item_type", "bill_billing_entity", "line_item_currency_code", "line_item_unblended_cost"}
)

func bindCUR(h header, name string, cols curColumns) *format {
	invoice, payer, pstart, start := h.find(cols.invoice), h.find(cols.payer), h.find(cols.pstart), h.find(cols.start)
	lineType, entity, currency, cost := h.find(cols.lineType), h.find(cols.entity), h.find(cols.currency), h.find(cols.cost)
	return &format{format: name, row: func(c *cells) (row, error) {
		r := row{provider: model.AWS, account: c.get(payer), invoice: c.get(invoice), currency: c.get(currency),
			day: c.day(start), period: c.day(pstart)}
		if r.period == "" {
			r.period = monthStart(r.day)
		}
		switch strings.ToLower(c.get(lineType)) {
		case "tax":
			r.kind = KindTax
		case "credit", "bundleddiscount", "edpdiscount", "privateratediscount", "discount", "savingsplannegation":
			r.kind = KindCredit
		case "refund":
			r.kind = KindRefund
		case "fee", "rifee", "savingsplanrecurringfee", "savingsplanupfrontfee":
			r.kind = KindPurchase
		case "usage", "discountedusage", "savingsplancoveredusage", "":
			r.kind = KindUsage
		default:
			r.kind = KindAdjustment
		}
		r.resold(strings.EqualFold(c.get(entity), "AWS Marketplace"))
		var err error
		r.billed, err = amount(c, cost, cols.cost)
		return r, err
	}}
}

// resold makes a usage or purchase row sold through a marketplace a
// marketplace row: the one rule every export's columns feed.
func (r *row) resold(marketplace bool) {
	if marketplace && (r.kind == KindUsage || r.kind == KindPurchase) {
		r.kind = KindMarketplace
	}
}

func bindAzure(h header) *format {
	account, invoice, section := h.find("BillingAccountId"), h.find("InvoiceId"), h.find("InvoiceSectionId")
	pstart, date := h.find("BillingPeriodStartDate"), h.find("Date", "UsageDate")
	chargeType, publisher := h.find("ChargeType"), h.find("PublisherType")
	currency := h.find("BillingCurrencyCode", "BillingCurrency", "Currency")
	cost := h.find("CostInBillingCurrency", "Cost", "PreTaxCost")
	return &format{format: "azure", row: func(c *cells) (row, error) {
		r := row{provider: model.Azure, account: c.get(account), invoice: c.get(invoice), currency: c.get(currency),
			day: c.day(date), period: c.day(pstart)}
		if r.invoice == "" {
			r.invoice = c.get(section) // an EA export names the invoice section
		}
		if r.period == "" {
			r.period = monthStart(r.day)
		}
		switch strings.ToLower(c.get(chargeType)) {
		case "purchase", "unusedreservation", "unusedsavingsplan":
			r.kind = KindPurchase
		case "refund":
			r.kind = KindRefund
		case "tax":
			r.kind = KindTax
		case "credit":
			r.kind = KindCredit
		case "roundingadjustment", "adjustment":
			r.kind = KindAdjustment
		default:
			r.kind = KindUsage
		}
		r.resold(strings.EqualFold(c.get(publisher), "Marketplace"))
		var err error
		r.billed, err = amount(c, cost, "CostInBillingCurrency")
		return r, err
	}}
}

func bindGCP(h header) *format {
	account, month, start := h.find("billing_account_id"), h.find("invoice.month"), h.find("usage_start_time")
	cost, credits, currency, costType := h.find("cost"), h.find("credits"), h.find("currency"), h.find("cost_type")
	return &format{format: "gcp", row: func(c *cells) (row, error) {
		r := row{provider: model.GCP, account: c.get(account), currency: c.get(currency), day: c.day(start),
			extraKind: KindCredit}
		// Google invoices each billing account once a month: the invoice
		// month is the invoice.
		if m := c.get(month); len(m) == 6 {
			r.invoice = m
			r.period = m[:4] + "-" + m[4:] + "-01"
		} else {
			r.period = monthStart(r.day)
		}
		switch strings.ToLower(c.get(costType)) {
		case "tax":
			r.kind = KindTax
		case "adjustment", "rounding_error":
			r.kind = KindAdjustment
		default:
			r.kind = KindUsage
		}
		var err error
		if r.billed, err = amount(c, cost, "cost"); err != nil {
			return r, err
		}
		r.extra, err = gcpCredits(c.get(credits))
		return r, err
	}}
}

func bindOCI(h header) *format {
	tenant, start, correction := h.find("lineItem/tenantId"), h.find("lineItem/intervalUsageStart"), h.find("lineItem/isCorrection")
	cost, currency := h.find("cost/myCost"), h.find("cost/currencyCode")
	return &format{format: "oci", row: func(c *cells) (row, error) {
		r := row{provider: model.OCI, account: c.get(tenant), currency: c.get(currency), day: c.day(start),
			kind: KindUsage}
		r.period = monthStart(r.day)
		if strings.EqualFold(c.get(correction), "true") {
			r.class = ClassCorrection
		}
		var err error
		r.billed, err = amount(c, cost, "cost/myCost")
		return r, err
	}}
}
