package service

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/invoices"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// AuditInvoiceTotals is the audit event of invoice totals entered or
// imported.
const AuditInvoiceTotals = "invoice_totals"

// record stores the sums the parse collected, replacing what earlier
// imports stored for the same provider, account and period. A file whose
// sums cannot be read is a warning: the history import stands either way.
func (s *Service) recordInvoices(ctx context.Context, o *observed[*invoices.File]) ([]string, error) {
	sums := invoiceSums{}
	var warnings []string
	for i, f := range o.files {
		res, err := f.Result()
		if w := sums.add(o.names[i], res, err); w != "" {
			warnings = append(warnings, w)
		}
	}
	return warnings, s.storeInvoiceSums(ctx, sums)
}

// invoiceSums are the sums of an import's files by origin (empty or, for
// reports that add up, the file's name).
type invoiceSums map[string]map[invoices.Key]*invoices.Sum

// add adds a file's scan, or says in a warning why it has none.
func (b invoiceSums) add(file string, res invoices.Result, err error) string {
	if err != nil {
		return fmt.Sprintf("invoice sums not read: %s", apperr.Text(err))
	}
	origin := ""
	if res.PerFile {
		origin = filepath.Base(file)
	}
	sums := b[origin]
	if sums == nil {
		sums = map[invoices.Key]*invoices.Sum{}
		b[origin] = sums
	}
	invoices.Merge(sums, res.Sums)
	return ""
}

func (s *Service) storeInvoiceSums(ctx context.Context, b invoiceSums) error {
	if len(b) == 0 {
		return nil
	}
	lines := map[string][]invoices.Line{}
	for origin, sums := range b {
		for k, v := range sums {
			lines[origin] = append(lines[origin], invoices.Line{Key: k, Sum: *v})
		}
	}
	if err := s.store.ReplaceInvoiceLines(ctx, lines); err != nil {
		return apperr.Wrap(apperr.Base, err, "the history was imported, but its invoice sums could not be stored: import again")
	}
	return nil
}

// InvoiceRequest narrows GET /api/invoices: a provider, a billing
// account, and a billing period (YYYY-MM) or a span of them.
type InvoiceRequest struct {
	Provider string `json:"provider,omitempty"`
	Account  string `json:"account,omitempty"`
	Period   string `json:"period,omitempty"` // YYYY-MM; or From..To
	From     string `json:"from,omitempty"`
	To       string `json:"to,omitempty"`
}

// Invoices reconciles the billed cost of the imported exports, per
// invoice, with the invoice totals given: GET /api/invoices.
func (s *Service) Invoices(ctx context.Context, r InvoiceRequest) ([]model.Invoice, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	f, err := invoiceFilter(r)
	if err != nil {
		return nil, err
	}
	lines, err := s.store.InvoiceLines(ctx, f)
	if err != nil {
		return nil, err
	}
	stored, err := s.store.InvoiceTotals(ctx, f)
	if err != nil {
		return nil, err
	}
	totals := make([]invoices.Total, len(stored))
	for i, t := range stored {
		totals[i] = t.Total
	}
	return invoices.Reconcile(lines, totals), nil
}

func invoiceFilter(r InvoiceRequest) (store.InvoiceFilter, error) {
	f := store.InvoiceFilter{Provider: model.ProviderKey(r.Provider), Account: r.Account}
	if r.Provider != "" {
		if err := apperr.OneOf("provider", f.Provider, model.AllProviders); err != nil {
			return f, err
		}
	}
	if err := CheckLen("account", r.Account, MaxFilterLen); err != nil {
		return f, err
	}
	if r.Period != "" {
		if r.From != "" || r.To != "" {
			return f, apperr.E(apperr.Validation, "give either period or from and to, not both").WithDetail("field", "period")
		}
		d, err := periodDay(r.Period, "period")
		f.From, f.To = d, d
		return f, err
	}
	var err error
	if r.From != "" {
		if f.From, err = periodDay(r.From, "from"); err != nil {
			return f, err
		}
	}
	if r.To != "" {
		if f.To, err = periodDay(r.To, "to"); err != nil {
			return f, err
		}
	}
	return f, nil
}

// periodDay is the first day of a billing period given as YYYY-MM.
func periodDay(p, field string) (string, error) {
	t, err := time.Parse("2006-01", p)
	if err != nil {
		return "", apperr.E(apperr.Validation, "%s must be a billing period YYYY-MM, got %q", field, Bounded(p, 32)).WithDetail("field", field)
	}
	return t.Format(model.DateLayout), nil
}

// SetInvoiceTotals stores what invoices say (a total per provider,
// billing account, period and optional invoice id), replacing earlier
// totals of the same invoice, and returns the invoices as reconciled.
func (s *Service) SetInvoiceTotals(ctx context.Context, totals []model.InvoiceTotal) ([]model.Invoice, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return nil, err
	}
	if len(totals) == 0 {
		return nil, apperr.E(apperr.Validation, "no invoice totals given").WithDetail("field", "totals")
	}
	p, _ := PrincipalFrom(ctx)
	ev := s.auditBy(p, AuditInvoiceTotals, map[string]any{"count": len(totals)})
	in := make([]store.StoredInvoiceTotal, len(totals))
	for i, t := range totals {
		it, err := checkInvoiceTotal(t, fmt.Sprintf("totals[%d].", i))
		if err != nil {
			return nil, err
		}
		in[i] = store.StoredInvoiceTotal{Total: it, ChangedBy: Bounded(p.Name(), maxAuditLen), ChangedAt: ev.Time}
	}
	if err := s.store.SaveInvoiceTotals(ctx, in, ev); err != nil {
		return nil, err
	}
	var out []model.Invoice
	for _, t := range in {
		invs, err := s.Invoices(ctx, InvoiceRequest{Provider: string(t.Provider), Account: t.BillingAccount, Period: t.Period[:7]})
		if err != nil {
			return nil, err
		}
		for _, inv := range invs {
			if t.InvoiceID == "" || inv.InvoiceID == t.InvoiceID {
				out = append(out, inv)
			}
		}
	}
	return out, nil
}

func checkInvoiceTotal(t model.InvoiceTotal, prefix string) (invoices.Total, error) {
	out := invoices.Total{Provider: t.Provider, BillingAccount: strings.TrimSpace(t.BillingAccount), InvoiceID: strings.TrimSpace(t.InvoiceID),
		Currency: strings.ToUpper(strings.TrimSpace(t.Currency))}
	if err := apperr.OneOf(prefix+"provider", t.Provider, model.AllProviders); err != nil {
		return out, err
	}
	if out.BillingAccount == "" {
		return out, apperr.E(apperr.Validation, "%sbilling_account is required", prefix).WithDetail("field", prefix+"billing_account")
	}
	for field, v := range map[string]string{"billing_account": out.BillingAccount, "invoice_id": out.InvoiceID, "currency": out.Currency} {
		if err := CheckLen(prefix+field, v, MaxFilterLen); err != nil {
			return out, err
		}
	}
	var err error
	if out.Period, err = periodDay(strings.TrimSpace(t.Period), prefix+"period"); err != nil {
		return out, err
	}
	out.Amount = model.NanosFromFloat(t.Total)
	if t.TotalExact != "" {
		if out.Amount, err = model.ParseNanos(strings.TrimSpace(t.TotalExact)); err != nil {
			return out, apperr.E(apperr.Validation, "%stotal must be a number, got %q", prefix, Bounded(t.TotalExact, 32)).WithDetail("field", prefix+"total")
		}
	}
	return out, nil
}

// MaxInvoiceTotalsBytes bounds an invoice totals file.
const MaxInvoiceTotalsBytes = 4 << 20

// ImportInvoiceTotals reads invoice totals from CSV (provider,
// billing_account, period, total, and optional invoice_id and currency
// columns) and stores them all or none; a bad row fails naming its line.
func (s *Service) ImportInvoiceTotals(ctx context.Context, name string, r io.Reader) ([]model.Invoice, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxInvoiceTotalsBytes+1))
	if err != nil {
		return nil, apperr.Wrap(apperr.Validation, err, "%s: cannot read", name)
	}
	if len(data) > MaxInvoiceTotalsBytes {
		return nil, apperr.E(apperr.Validation, "%s: larger than %d bytes", name, MaxInvoiceTotalsBytes).WithDetail("file", name)
	}
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	recs, err := cr.ReadAll()
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, apperr.E(apperr.Validation, "%s:%d: %v", name, pe.Line, pe.Err).WithDetail("file", name).WithDetail("line", pe.Line)
	}
	if err != nil || len(recs) < 2 {
		return nil, apperr.E(apperr.Validation, "%s: a header (provider,billing_account,period,total[,invoice_id,currency]) and rows are needed", name).WithDetail("file", name)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, need := range []string{"provider", "billing_account", "period", "total"} {
		if _, ok := col[need]; !ok {
			return nil, apperr.E(apperr.Validation, "%s:1: the header has no %s column", name, need).WithDetail("file", name).WithDetail("line", 1).WithDetail("column", need)
		}
	}
	get := func(rec []string, c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	totals := make([]model.InvoiceTotal, 0, len(recs)-1)
	for i, rec := range recs[1:] {
		t := model.InvoiceTotal{Provider: model.ProviderKey(get(rec, "provider")), BillingAccount: get(rec, "billing_account"),
			Period: get(rec, "period"), InvoiceID: get(rec, "invoice_id"), Currency: get(rec, "currency"), TotalExact: get(rec, "total")}
		if t.TotalExact == "" {
			t.TotalExact = "x" // refused below, naming the line
		}
		if _, err := checkInvoiceTotal(t, ""); err != nil {
			line := i + 2
			e := apperr.E(apperr.Validation, "%s:%d: %s", name, line, apperr.Text(err)).WithDetail("file", name).WithDetail("line", line)
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Details["field"] != nil {
				e = e.WithDetail("column", ae.Details["field"])
			}
			return nil, e
		}
		totals = append(totals, t)
	}
	return s.SetInvoiceTotals(ctx, totals)
}
