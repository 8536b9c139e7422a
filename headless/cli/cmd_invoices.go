package cli

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).invoicesCmd) }

func (a *app) invoicesCmd() *cobra.Command {
	var req service.InvoiceRequest
	cmd := &cobra.Command{
		Use:   "invoices [--provider P] [--account A] [--period YYYY-MM | --from YYYY-MM --to YYYY-MM]",
		Short: "Reconcile the imported billed cost with invoice totals, per invoice",
		Long: `Each imported billing export's billed cost is summed per provider, billing account, billing
period and invoice id (FOCUS InvoiceId, CUR bill/InvoiceId, Azure InvoiceId or
InvoiceSectionId, the Google Cloud invoice month; OCI reports have none), by kind of charge
(usage, credit, tax, refund, marketplace, purchase, adjustment) and charge class
(corrections of a closed period). With the invoice's own total (invoices set or import),
each invoice is matched (within a cent) or its difference is named: the part of the bill it
equals, such as tax left out of the total or a correction billed after the period closed.`,
		Example: `  costpilot invoices --period 2026-05
  costpilot invoices set --provider aws --account 123456789012 --period 2026-05 --total 10432.17
  costpilot invoices import totals.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				invs, err := svc.Invoices(cmd.Context(), req)
				if err != nil {
					return err
				}
				return a.emit(invs, func(w io.Writer) { printInvoices(w, invs, a.width()) })
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Provider, "provider", "", "only this provider: "+oneOf(model.AllProviders))
	f.StringVar(&req.Account, "account", "", "only this billing account")
	f.StringVar(&req.Period, "period", "", "only this billing period, YYYY-MM")
	f.StringVar(&req.From, "from", "", "first billing period, YYYY-MM")
	f.StringVar(&req.To, "to", "", "last billing period, YYYY-MM")
	a.outputFlag(cmd)

	var t model.InvoiceTotal
	var provider string
	set := &cobra.Command{
		Use:   "set --provider P --account A --period YYYY-MM --total X [--invoice ID] [--currency C]",
		Short: "Enter an invoice's total",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t.Provider = model.ProviderKey(provider)
			return a.withService(cmd, func(svc *service.Service) error {
				invs, err := svc.SetInvoiceTotals(cmd.Context(), []model.InvoiceTotal{t})
				if err != nil {
					return err
				}
				return a.emit(invs, func(w io.Writer) { printInvoices(w, invs, a.width()) })
			})
		},
	}
	sf := set.Flags()
	sf.StringVar(&provider, "provider", "", "the invoice's provider: "+oneOf(model.AllProviders))
	sf.StringVar(&t.BillingAccount, "account", "", "the billing account invoiced")
	sf.StringVar(&t.Period, "period", "", "the billing period, YYYY-MM")
	sf.StringVar(&t.TotalExact, "total", "", "the invoice's total, as a decimal number")
	sf.StringVar(&t.InvoiceID, "invoice", "", "the invoice id, where the export names invoices")
	sf.StringVar(&t.Currency, "currency", "", "the invoice's currency (ISO 4217)")
	a.outputFlag(set)

	imp := &cobra.Command{
		Use:   "import FILE.csv",
		Short: "Import invoice totals from CSV (provider,billing_account,period,total[,invoice_id,currency])",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return apperr.Wrap(apperr.Validation, err, "%s: cannot open: %v", args[0], err).WithDetail("file", args[0])
			}
			defer f.Close()
			return a.withService(cmd, func(svc *service.Service) error {
				invs, err := svc.ImportInvoiceTotals(cmd.Context(), args[0], f)
				if err != nil {
					return err
				}
				return a.emit(invs, func(w io.Writer) { printInvoices(w, invs, a.width()) })
			})
		},
	}
	a.outputFlag(imp)
	cmd.AddCommand(set, imp)
	return cmd
}

func printInvoices(w io.Writer, invs []model.Invoice, limit int) {
	if len(invs) == 0 {
		fmt.Fprintln(w, "no invoices: import billing exports (costpilot import) to reconcile them")
		return
	}
	t := table{cols: []column{{name: "PERIOD"}, {name: "PROVIDER"}, {name: "ACCOUNT", cut: cutMiddle, min: 12}, {name: "INVOICE", cut: cutMiddle, min: 8},
		{name: "BILLED", right: true}, {name: "INVOICE TOTAL", right: true}, {name: "DIFFERENCE", right: true}, {name: "STATUS"}}}
	for _, inv := range invs {
		total, diff := "–", "–"
		if inv.InvoiceTotal != nil {
			total, diff = money(*inv.InvoiceTotal, inv.Currency), money(*inv.Difference, inv.Currency)
		}
		t.add(inv.Period, string(inv.Provider), inv.BillingAccount, cmp.Or(inv.InvoiceID, "(none)"), money(inv.Billed, inv.Currency), total, diff, string(inv.Status))
	}
	t.print(w, limit)
	for _, inv := range invs {
		var parts []string
		for _, p := range inv.Parts {
			label := p.Kind
			if p.ChargeClass != "" {
				label += " (" + p.ChargeClass + ")"
			}
			parts = append(parts, label+" "+money(p.Billed, inv.Currency))
		}
		fmt.Fprintf(w, "\n%s %s %s %s: %s\n", inv.Period, inv.Provider, inv.BillingAccount, cmp.Or(inv.InvoiceID, "(no invoice id)"), strings.Join(parts, ", "))
		if inv.LateRows > 0 {
			fmt.Fprintf(w, "  %s rows charged before the period (%s), corrections %s\n", strconv.FormatInt(inv.LateRows, 10),
				money(inv.LateBilled, inv.Currency), money(inv.Corrections, inv.Currency))
		}
		if inv.Explanation != "" {
			for _, l := range wrap(inv.Explanation, limit, "  ") {
				fmt.Fprintln(w, l)
			}
		}
	}
}
