package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).importCmd) }

func (a *app) importCmd() *cobra.Command {
	var format, provider string
	var dry bool
	cmd := &cobra.Command{
		Use:   "import FILE|DIR...",
		Short: "Import billing export files (FOCUS, AWS CUR, Azure, GCP, OCI) into the history",
		Long: `Import billing exports into the local history, detecting the format from the header:
FOCUS 1.0-1.4, AWS CUR (legacy and 2.0), Azure cost exports (EA and MCA, actual and amortized),
Google Cloud billing export (CSV or newline-delimited JSON), OCI cost reports; plain, .gz or
Parquet. A bad row stops the import with file:line: column: reason and the history is unchanged.

How files are grouped and what they replace follows how each cloud delivers:
  AWS CUR, Azure, Google Cloud  The files of one format in one folder given together are one
      delivery (clouds split an export into numbered parts): their rows are summed and replace,
      in one transaction, the billing periods and accounts they cover. Give every part of a
      period in one command (the folder or a shell glob); a part imported alone replaces the
      period with just that part.
  Manifests  An AWS CUR or Data Exports *-Manifest.json or an Azure manifest.json is one
      delivery with the files it lists.
  FOCUS  Replaces only the days its rows cover, so files cut by day add up.
  OCI  Each cost report covers a few hours and is never restated: it adds to the other reports
      of its days, and importing it again replaces only that report.
  Kubernetes  --format opencost (a saved OpenCost /allocation answer, step=1d), eks-split (the
      EKS split cost allocation rows of an AWS CUR 2.0 CSV or Parquet export) or gke (the GKE cost allocation rows
      of a Google Cloud billing export CSV) split the billed lines of the nodes
      they ran on by cluster, namespace, workload and pod; they add no cost, except allocations
      on nodes the bill lacks, kept at their own price and marked estimated. Each file replaces
      its clusters' days.
  Azure actual + amortized  The two exports of one scope and month complement each other, in
      either order: billed and list cost from the actual-cost export, effective cost from the
      amortized one (each alone gives all three).
A folder (a local copy of an export bucket, as aws s3 sync or azcopy leaves it) is walked: where
it holds manifests, the newest of each export and period is imported and older deliveries beside
it are left out. Importing again, or a newer delivery of the same period, replaces what it
restates: nothing is counted twice. Imported data shows for providers whose source is export
(or, with no config file, for any provider that has imported data). --dry-run shows each unit's
rows, period and totals, and the span it replaces with the stored totals before and after,
without writing.`,
		Example: `  costpilot import focus-2026-05.csv.gz
  costpilot import --dry-run cur/20260501-20260601/*/report-*.csv.gz -o json
  costpilot import --format azure --provider azure export.csv
  costpilot import ~/exports/cur-bucket
  costpilot import --format opencost allocation-2026-05.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.checkOutput(); err != nil {
				return err
			}
			return a.withService(cmd, func(svc *service.Service) error {
				if service.IsKubernetesFormat(format) {
					if dry || provider != "" {
						return usageError{"--dry-run and --provider do not apply to --format " + format}
					}
					res, err := svc.ImportKubernetes(cmd.Context(), args, format)
					if err != nil {
						return err
					}
					return a.emit(res, func(w io.Writer) { printKubernetesImport(w, res) })
				}
				opts := service.ImportOptions{Format: format, Provider: model.ProviderKey(provider), DryRun: dry}
				var bar *progressBar
				if a.terminal(a.stderr) {
					bar = &progressBar{line: a.line}
					opts.Progress = bar.update
				}
				res, err := svc.ImportFiles(cmd.Context(), args, opts)
				if bar != nil {
					bar.done(err == nil)
				}
				if err != nil {
					return err
				}
				for _, f := range res.Files {
					for _, w := range f.Warnings {
						fmt.Fprintln(a.stderr, "warning:", w)
					}
				}
				return a.emit(res, func(w io.Writer) { printImport(w, res, a.width()) })
			})
		},
	}
	cmd.Flags().StringVar(&format, "format", "auto", "export format: "+strings.Join(service.ImportFormats, ", ")+
		"; or Kubernetes allocations: "+strings.Join(service.KubernetesFormats, ", "))
	cmd.Flags().StringVar(&provider, "provider", "", "force the provider: "+providerChoices())
	cmd.Flags().BoolVar(&dry, "dry-run", false, "parse and summarize without writing")
	a.outputFlag(cmd)
	return cmd
}

func printImport(w io.Writer, res service.ImportResult, limit int) {
	verb := "imported"
	if res.DryRun {
		verb = "would import (dry run)"
	}
	for _, f := range res.Files {
		if f.Format == service.FormatContracts {
			fmt.Fprintf(w, "%s %s\n  %s: %d commitments of %s, %s (costpilot contracts lists them)\n", verb, f.Path, f.Format, f.Rows,
				strings.Join(model.Names(f.Providers), ", "), span(f.From, f.To))
			continue
		}
		fmt.Fprintf(w, "%s %s\n  %s, %d rows → %d daily lines, %s\n", verb, f.Path, f.Format, f.Rows, f.Lines, span(f.From, f.To))
		tb := table{indent: "  ", cols: []column{{name: "PROVIDER"}, {name: "CURRENCY"}, {name: "BILLED", right: true}, {name: "EFFECTIVE", right: true}}}
		for _, k := range f.Providers {
			for _, t := range f.Totals[k] {
				tb.add(string(k), t.Currency, money(t.Billed, t.Currency), money(t.Effective, t.Currency))
			}
		}
		tb.print(w, limit)
		for _, sp := range f.Replaces {
			accts := "all accounts"
			if len(sp.Accounts) > 0 {
				accts = "accounts " + strings.Join(sp.Accounts, ", ")
			}
			verb := map[string]string{"slice": "adds a report to", "actual": "adds the actual-cost half to",
				"amortized": "adds the amortized-cost half to"}[sp.Kind]
			if verb == "" {
				verb = "replaces"
			}
			if res.DryRun {
				verb = "would " + strings.Replace(strings.Replace(verb, "adds", "add", 1), "replaces", "replace", 1)
			}
			for _, l := range wrap(fmt.Sprintf("  %s %s %s (%s)", verb, sp.Provider, span(sp.From, sp.To), accts), limit, "    ") {
				fmt.Fprintln(w, l)
			}
			fmt.Fprintf(w, "    billed %s → %s\n", billedOf(sp.Before), billedOf(sp.After))
		}
	}
}

// billedOf prints billed totals of several currencies, "nothing" for none.
func billedOf(ts []service.ImportTotals) string {
	if len(ts) == 0 {
		return "nothing"
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = money(t.Billed, t.Currency)
	}
	return strings.Join(parts, " + ")
}
