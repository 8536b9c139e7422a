package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/costpilot/costpilot/backend/invoices"
	"github.com/costpilot/costpilot/backend/model"
)

// ReplaceInvoiceLines stores the invoice sums of an import, by origin
// (empty for exports that restate whole periods, a file name for reports
// that add up): each provider, billing account and billing period the
// lines hold loses its rows of the same origin first, so importing a
// file again changes nothing. One transaction.
func (s *Store) ReplaceInvoiceLines(ctx context.Context, byOrigin map[string][]invoices.Line) error {
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		for origin, lines := range byOrigin {
			type span struct {
				p               model.ProviderKey
				account, period string
			}
			cleared := map[span]bool{}
			for _, l := range lines {
				sp := span{l.Provider, l.BillingAccount, l.Period}
				if cleared[sp] {
					continue
				}
				cleared[sp] = true
				if _, err := tx.ExecContext(ctx, `DELETE FROM invoice_lines WHERE provider = ? AND billing_account = ? AND period = ? AND origin = ?`,
					string(sp.p), sp.account, sp.period, origin); err != nil {
					return err
				}
			}
			if err := putInvoiceLines(ctx, tx, origin, lines); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: replace invoice lines: %w", err)
	}
	return nil
}

func putInvoiceLines(ctx context.Context, tx *sql.Tx, origin string, lines []invoices.Line) error {
	st, err := tx.PrepareContext(ctx, `INSERT INTO invoice_lines(origin, provider, billing_account, period, invoice_id, charge_class, kind,
		currency, billed, rows, late, late_billed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, l := range lines {
		if _, err := st.ExecContext(ctx, origin, string(l.Provider), l.BillingAccount, l.Period, l.InvoiceID, l.Class, l.Kind,
			l.Currency, int64(l.Billed), l.Rows, l.Late, int64(l.LateBilled)); err != nil {
			return err
		}
	}
	return st.Close()
}

// InvoiceFilter narrows invoice reads: "" matches any provider or
// account; From and To bound the billing periods' first days.
type InvoiceFilter struct {
	Provider model.ProviderKey
	Account  string
	From, To string
}

// InvoiceLines returns the stored sums in the filter, every origin added.
func (s *Store) InvoiceLines(ctx context.Context, f InvoiceFilter) ([]invoices.Line, error) {
	const q = `SELECT provider, billing_account, period, invoice_id, charge_class, kind, currency,
		SUM(billed), SUM(rows), SUM(late), SUM(late_billed) FROM invoice_lines
		WHERE (? = '' OR provider = ?) AND (? = '' OR billing_account = ?) AND period BETWEEN ? AND ?
		GROUP BY provider, billing_account, period, invoice_id, charge_class, kind, currency`
	var out []invoices.Line
	err := s.query(ctx, q, f.args(), func(rows *sql.Rows) error {
		var l invoices.Line
		var p string
		if err := rows.Scan(&p, &l.BillingAccount, &l.Period, &l.InvoiceID, &l.Class, &l.Kind, &l.Currency,
			&l.Billed, &l.Rows, &l.Late, &l.LateBilled); err != nil {
			return err
		}
		l.Provider = model.ProviderKey(p)
		out = append(out, l)
		return nil
	})
	return out, err
}

func (f InvoiceFilter) args() []any {
	to := f.To
	if to == "" {
		to = "9999-12-31"
	}
	return []any{string(f.Provider), string(f.Provider), f.Account, f.Account, f.From, to}
}

// StoredInvoiceTotal is an invoice total with who gave it and when.
type StoredInvoiceTotal struct {
	invoices.Total
	ChangedBy, ChangedAt string
}

// SaveInvoiceTotals stores invoice totals, replacing those of the same
// invoice, with the audit line, in one transaction.
func (s *Store) SaveInvoiceTotals(ctx context.Context, totals []StoredInvoiceTotal, audit AuditEvent) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, t := range totals {
			if _, err := tx.ExecContext(ctx, `INSERT INTO invoice_totals(provider, billing_account, period, invoice_id, currency, total,
				changed_by, changed_at) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(provider, billing_account, period, invoice_id) DO UPDATE SET
				currency = excluded.currency, total = excluded.total, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
				string(t.Provider), t.BillingAccount, t.Period, t.InvoiceID, t.Currency, int64(t.Amount), t.ChangedBy, t.ChangedAt); err != nil {
				return err
			}
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		return fmt.Errorf("store: save invoice totals: %w", err)
	}
	return nil
}

// InvoiceTotals returns the invoice totals in the filter.
func (s *Store) InvoiceTotals(ctx context.Context, f InvoiceFilter) ([]StoredInvoiceTotal, error) {
	const q = `SELECT provider, billing_account, period, invoice_id, currency, total, changed_by, changed_at FROM invoice_totals
		WHERE (? = '' OR provider = ?) AND (? = '' OR billing_account = ?) AND period BETWEEN ? AND ?`
	var out []StoredInvoiceTotal
	err := s.query(ctx, q, f.args(), func(rows *sql.Rows) error {
		var t StoredInvoiceTotal
		var p string
		if err := rows.Scan(&p, &t.BillingAccount, &t.Period, &t.InvoiceID, &t.Currency, &t.Amount, &t.ChangedBy, &t.ChangedAt); err != nil {
			return err
		}
		t.Provider = model.ProviderKey(p)
		out = append(out, t)
		return nil
	})
	return out, err
}
