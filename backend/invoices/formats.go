package invoices

import (
	"strings"

	"github.com/costpilot/costpilot/backend/csvhead"
	"github.com/costpilot/costpilot/backend/model"
)

// bind recognises a header: FOCUS, AWS CUR (legacy and 2.0), Azure cost
// exports, the Google Cloud billing export and OCI cost reports, by the
// columns each is known by; nil for anything else.
func bind(h csvhead.Header) *format {
	switch {
	case h.Find("BilledCost") >= 0 && h.Find("ChargePeriodStart") >= 0:
		return bindFOCUS(h)
	case h.Find("lineItem/UnblendedCost") >= 0:
		return bindCUR(h, "aws-cur", curLegacy)
	case h.Find("line_item_unblended_cost") >= 0:
		return bindCUR(h, "aws-cur", cur2)
	case h.Find("cost/myCost") >= 0:
		return bindOCI(h)
	case h.Find("billing_account_id") >= 0 && h.Find("cost") >= 0 && h.Find("usage_start_time") >= 0:
		return bindGCP(h)
	case h.Find("ChargeType") >= 0 && h.Find("CostInBillingCurrency", "Cost", "PreTaxCost") >= 0:
		return bindAzure(h)
	}
	return nil
}

func bindFOCUS(h csvhead.Header) *format {
	provider := h.Find("ServiceProviderName", "ProviderName")
	issuer := h.Find("InvoiceIssuerName", "InvoiceIssuer")
	publisher := h.Find("PublisherName", "HostProviderName")
	account, invoice := h.Find("BillingAccountId"), h.Find("InvoiceId")
	pstart, start := h.Find("BillingPeriodStart"), h.Find("ChargePeriodStart")
	class, category := h.Find("ChargeClass"), h.Find("ChargeCategory")
	currency, billed := h.Find("BillingCurrency"), h.Find("BilledCost")
	return &format{format: "focus", row: func(c *cells) (row, error) {
		r := row{account: c.get(account), invoice: c.get(invoice), currency: c.get(currency),
			day: c.day(start)}
		r.provider = c.cloud(c.get(provider))
		if r.provider == "" {
			r.provider = c.cloud(c.get(issuer))
		}
		r.period = c.day(pstart)
		if r.period == "" {
			r.period = monthStart(r.day)
		}
		if strings.EqualFold(c.get(class), "Correction") {
			r.class = ClassCorrection
		}
		switch c.lower(c.get(category)) {
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
		r.resold(pub != "" && c.cloud(pub) == "")
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

func bindCUR(h csvhead.Header, name string, cols curColumns) *format {
	invoice, payer, pstart, start := h.Find(cols.invoice), h.Find(cols.payer), h.Find(cols.pstart), h.Find(cols.start)
	lineType, entity, currency, cost := h.Find(cols.lineType), h.Find(cols.entity), h.Find(cols.currency), h.Find(cols.cost)
	return &format{format: name, row: func(c *cells) (row, error) {
		r := row{provider: model.AWS, account: c.get(payer), invoice: c.get(invoice), currency: c.get(currency),
			day: c.day(start), period: c.day(pstart)}
		if r.period == "" {
			r.period = monthStart(r.day)
		}
		switch c.lower(c.get(lineType)) {
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

func bindAzure(h csvhead.Header) *format {
	account, invoice, section := h.Find("BillingAccountId"), h.Find("InvoiceId"), h.Find("InvoiceSectionId")
	pstart, date := h.Find("BillingPeriodStartDate"), h.Find("Date", "UsageDate")
	chargeType, publisher := h.Find("ChargeType"), h.Find("PublisherType")
	currency := h.Find("BillingCurrencyCode", "BillingCurrency", "Currency")
	cost := h.Find("CostInBillingCurrency", "Cost", "PreTaxCost")
	return &format{format: "azure", row: func(c *cells) (row, error) {
		r := row{provider: model.Azure, account: c.get(account), invoice: c.get(invoice), currency: c.get(currency),
			day: c.day(date), period: c.day(pstart)}
		if r.invoice == "" {
			r.invoice = c.get(section) // an EA export names the invoice section
		}
		if r.period == "" {
			r.period = monthStart(r.day)
		}
		switch c.lower(c.get(chargeType)) {
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

func bindGCP(h csvhead.Header) *format {
	account, month, start := h.Find("billing_account_id"), h.Find("invoice.month"), h.Find("usage_start_time")
	cost, credits, currency, costType := h.Find("cost"), h.Find("credits"), h.Find("currency"), h.Find("cost_type")
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
		switch c.lower(c.get(costType)) {
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

func bindOCI(h csvhead.Header) *format {
	tenant, start, correction := h.Find("lineItem/tenantId"), h.Find("lineItem/intervalUsageStart"), h.Find("lineItem/isCorrection")
	cost, currency := h.Find("cost/myCost"), h.Find("cost/currencyCode")
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
