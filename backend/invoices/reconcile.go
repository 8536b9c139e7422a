package invoices

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/costpilot/costpilot/backend/model"
)

// Line is one stored sum.
type Line struct {
	Key
	Sum
}

// Total is an invoice total the user gave; Period is the billing
// period's first day.
type Total struct {
	Provider       model.ProviderKey
	BillingAccount string
	Period         string
	InvoiceID      string
	Currency       string
	Amount         model.Nanos
}

// Tolerance is how far apart a total and the billed cost may be and
// still match: a cent, the precision invoices are written in.
const Tolerance = model.Nanos(model.NanosPerUnit / 100)

type invoiceKey struct {
	provider                   model.ProviderKey
	account, period, invoiceID string
}

type invoice struct {
	key        invoiceKey
	currency   string
	billed     model.Nanos
	rows       int64
	parts      map[[2]string]*Sum // kind, class
	correction model.Nanos
	late       int64
	lateBilled model.Nanos
	total      *Total
}

// Reconcile groups the lines into invoices (provider, billing account,
// billing period, invoice id) and sets each against its total: a total
// without an invoice id stands for the period's only invoice of that
// account. Invoices come out by period (newest first), provider,
// account and id; totals that match no lines are listed as no_billed.
func Reconcile(lines []Line, totals []Total) []model.Invoice {
	byKey := map[invoiceKey]*invoice{}
	for _, l := range lines {
		k := invoiceKey{l.Provider, l.BillingAccount, l.Period, l.InvoiceID}
		inv := byKey[k]
		if inv == nil {
			inv = &invoice{key: k, currency: l.Currency, parts: map[[2]string]*Sum{}}
			byKey[k] = inv
		}
		p := inv.parts[[2]string{l.Kind, l.Class}]
		if p == nil {
			p = &Sum{}
			inv.parts[[2]string{l.Kind, l.Class}] = p
		}
		p.Billed += l.Billed
		p.Rows += l.Rows
		p.Late += l.Late
		p.LateBilled += l.LateBilled
		inv.billed += l.Billed
		inv.rows += l.Rows
		inv.late += l.Late
		inv.lateBilled += l.LateBilled
		if l.Class == ClassCorrection {
			inv.correction += l.Billed
		}
	}
	for i := range totals {
		t := &totals[i]
		k := invoiceKey{t.Provider, t.BillingAccount, t.Period, t.InvoiceID}
		inv := byKey[k]
		if inv == nil && t.InvoiceID == "" {
			inv = onlyInvoice(byKey, k)
		}
		if inv == nil {
			inv = &invoice{key: k, currency: t.Currency, parts: map[[2]string]*Sum{}}
			byKey[k] = inv
		}
		inv.total = t
	}
	out := make([]model.Invoice, 0, len(byKey))
	for _, inv := range byKey {
		out = append(out, inv.result())
	}
	slices.SortFunc(out, func(a, b model.Invoice) int {
		return cmp.Or(cmp.Compare(b.Period, a.Period), cmp.Compare(a.Provider, b.Provider),
			cmp.Compare(a.BillingAccount, b.BillingAccount), cmp.Compare(a.InvoiceID, b.InvoiceID))
	})
	return out
}

// onlyInvoice is the one invoice of k's provider, account and period,
// or nil when there are none or several.
func onlyInvoice(byKey map[invoiceKey]*invoice, k invoiceKey) *invoice {
	var found *invoice
	for ik, inv := range byKey {
		if ik.provider == k.provider && ik.account == k.account && ik.period == k.period {
			if found != nil {
				return nil
			}
			found = inv
		}
	}
	return found
}

func (inv *invoice) result() model.Invoice {
	r := model.Invoice{Provider: inv.key.provider, BillingAccount: inv.key.account, Period: periodMonth(inv.key.period),
		InvoiceID: inv.key.invoiceID, Currency: inv.currency, Billed: inv.billed.Float64(), BilledExact: inv.billed.String(),
		Rows: inv.rows, Parts: []model.InvoicePart{}, Corrections: inv.correction.Float64(), LateRows: inv.late,
		LateBilled: inv.lateBilled.Float64(), Status: model.InvoiceNoTotal}
	keys := make([][2]string, 0, len(inv.parts))
	for k := range inv.parts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, k := range keys {
		p := inv.parts[k]
		r.Parts = append(r.Parts, model.InvoicePart{Kind: k[0], ChargeClass: k[1], Billed: p.Billed.Float64(), Rows: p.Rows, LateRows: p.Late})
	}
	if inv.total == nil {
		return r
	}
	total, diff := inv.total.Amount.Float64(), (inv.total.Amount - inv.billed)
	d := diff.Float64()
	r.InvoiceTotal, r.Difference = &total, &d
	switch {
	case inv.rows == 0:
		r.Status = model.InvoiceNoBilled
		r.Explanation = "no imported rows for this invoice: import the period's billing export"
	case abs(diff) <= Tolerance:
		r.Status = model.InvoiceMatched
	default:
		r.Status = model.InvoiceDiffers
		r.Explanation = inv.explain(diff)
	}
	if inv.total.Currency != "" && inv.currency != "" && inv.total.Currency != inv.currency {
		r.Explanation = fmt.Sprintf("the invoice total is in %s, the export's billed cost in %s", inv.total.Currency, inv.currency)
	}
	return r
}

// explain names the part of the bill the difference equals: the part the
// invoice total leaves out (credits, tax, marketplace charges on an
// invoice of their own, corrections of a closed period).
func (inv *invoice) explain(diff model.Nanos) string {
	if inv.correction != 0 && abs(diff+inv.correction) <= Tolerance {
		return fmt.Sprintf("the difference equals the corrections of a closed period billed here (%s): the invoice total leaves them out", inv.correction)
	}
	if inv.lateBilled != 0 && abs(diff+inv.lateBilled) <= Tolerance {
		return fmt.Sprintf("the difference equals the charges of earlier periods billed here (%s, %d rows)", inv.lateBilled, inv.late)
	}
	byKind := map[string]model.Nanos{}
	for k, p := range inv.parts {
		byKind[k[0]] += p.Billed
	}
	kinds := []string{KindTax, KindCredit, KindRefund, KindMarketplace, KindPurchase, KindAdjustment, KindUsage}
	for _, k := range kinds {
		if s := byKind[k]; s != 0 && abs(diff+s) <= Tolerance {
			return fmt.Sprintf("the difference equals the %s charges (%s): the invoice total leaves them out", k, s)
		}
	}
	return fmt.Sprintf("the difference (%s) is not one kind of charge: compare the parts with the invoice's lines, and check the export holds the whole period", diff)
}

func periodMonth(day string) string {
	if len(day) >= 7 {
		return day[:7]
	}
	return day
}

func abs(n model.Nanos) model.Nanos {
	if n < 0 {
		return -n
	}
	return n
}
