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
Parquet. The files of one format given together are one delivery (clouds split an export into
numbered parts): their rows are summed and replace, in one transaction, the billing period and
accounts they cover together, so give every part of a period in one command (a shell glob does);
a part imported alone replaces the period with just that part. A manifest (AWS CUR and Data
Exports *-Manifest.json, Azure manifest.json) is one delivery with the files it lists. A folder
(a local copy of an export bucket, as aws s3 sync or azcopy leaves it) is walked: where it holds
manifests, the newest of each export and period is imported and older deliveries beside it are
left out; without manifests its files are imported as above. Re-importing, or importing a
newer export of the same period, replaces it: nothing is counted twice. A bad row stops the
import with file:line: column: reason and the history is unchanged. Imported data shows for
providers whose source is export (or, with no config file, for any provider that has imported
data). --dry-run shows rows, period, providers and totals without writing.`,
		Example: `  costpilot import focus-2026-05.csv.gz
  costpilot import --dry-run cur/20260501-20260601/*/report-*.csv.gz -o json
  costpilot import --format azure --provider azure export.csv
  costpilot import ~/exports/cur-bucket`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.checkOutput(); err != nil {
				return err
			}
			return a.withService(cmd, func(svc *service.Service) error {
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
	cmd.Flags().StringVar(&format, "format", "auto", "export format: "+strings.Join(service.ImportFormats, ", "))
	cmd.Flags().StringVar(&provider, "provider", "", "force the provider: "+oneOf(model.AllProviders))
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
		fmt.Fprintf(w, "%s %s\n  %s, %d rows → %d daily lines, %s\n", verb, f.Path, f.Format, f.Rows, f.Lines, span(f.From, f.To))
		tb := table{indent: "  ", cols: []column{{name: "PROVIDER"}, {name: "CURRENCY"}, {name: "BILLED", right: true}, {name: "EFFECTIVE", right: true}}}
		for _, k := range f.Providers {
			for _, t := range f.Totals[k] {
				tb.add(string(k), t.Currency, money(t.Billed, t.Currency), money(t.Effective, t.Currency))
			}
		}
		tb.print(w, limit)
		verb := "replaces"
		if res.DryRun {
			verb = "would replace"
		}
		for _, sp := range f.Replaces {
			accts := "all accounts"
			if len(sp.Accounts) > 0 {
				accts = "accounts " + strings.Join(sp.Accounts, ", ")
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
