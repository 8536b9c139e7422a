package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).statementsCmd) }

func (a *app) statementsCmd() *cobra.Command {
	var req service.StatementRequest
	var csvOut, format, outDir string
	cmd := &cobra.Command{
		Use:   "statements --rules NAME --period YYYY-MM [--by department|project] [--csv FILE | --format pdf [--out DIR]]",
		Short: "Chargeback statements: a billing period's cost allocated by a saved rule set",
		Long: `Allocate a billing period's cost with a saved allocation rule set (allocate --save NAME)
and print one statement per department (or project, --by project). The statements add up to
the period's allocated total; what no rule placed is shown as unallocated. They read the
history as it is now: run again after importing a late correction to regenerate them.
--csv writes the statements as CSV, one row each ("-" for standard output). --format pdf
writes one PDF per statement (the department or project, the period, its amount and share,
and the period's totals) into --out DIR, named statement-PERIOD-BY-NAME.pdf; an existing file
is never replaced (a second run writes NAME-2.pdf).`,
		Example: `  costpilot statements --rules finance --period 2026-05
  costpilot statements --rules finance --period 2026-05 --by project --csv may.csv
  costpilot statements --rules finance --period 2026-05 --format pdf --out statements/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch format {
			case "", "table":
			case "pdf":
				if csvOut != "" {
					return usageError{"--csv and --format pdf are alternatives: give one"}
				}
			default:
				return usageError{fmt.Sprintf("--format must be table or pdf, got %q", format)}
			}
			return a.withService(cmd, func(svc *service.Service) error {
				if format == "pdf" {
					set, paths, err := svc.WriteStatementPDFs(cmd.Context(), req, outDir)
					if err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "%d statements of %s, %s written to %s\n", len(paths), set.RuleSet, set.Period, outDir)
					for _, p := range paths {
						fmt.Fprintln(cmd.OutOrStdout(), "  "+p)
					}
					return nil
				}
				set, err := svc.Statements(cmd.Context(), req)
				if err != nil {
					return err
				}
				if csvOut != "" {
					return writeStatementsCSV(cmd, csvOut, set)
				}
				return a.emit(set, func(w io.Writer) { printStatements(w, set, a.width()) })
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.RuleSet, "rules", "", "the saved allocation rule set")
	f.StringVar(&req.Period, "period", "", "the billing period, YYYY-MM")
	f.StringVar(&req.By, "by", "department", "one statement per department or project")
	f.StringVar(&csvOut, "csv", "", "write the statements as CSV to FILE")
	f.StringVar(&format, "format", "table", "table, or pdf: one PDF per statement into --out")
	f.StringVar(&outDir, "out", ".", "the directory --format pdf writes into (created if missing)")
	a.outputFlag(cmd)
	return cmd
}

func writeStatementsCSV(cmd *cobra.Command, path string, set model.StatementSet) error {
	if path == "-" {
		return service.WriteStatementsCSV(cmd.OutOrStdout(), set)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return apperr.Wrap(apperr.Validation, err, "%s: cannot write: %v", path, err).WithDetail("file", path)
	}
	if err := service.WriteStatementsCSV(f, set); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d statements written to %s\n", len(set.Statements), path)
	return nil
}

func printStatements(w io.Writer, set model.StatementSet, limit int) {
	fmt.Fprintf(w, "Statements of %s by %s, %s (%s to %s)\n", set.RuleSet, set.By, set.Period, set.Start, set.End)
	t := table{cols: []column{{name: "NAME", cut: cutEnd, min: 12}, {name: "AMOUNT", right: true}, {name: "SHARE", right: true}}}
	for _, st := range set.Statements {
		t.add(st.Name, money(st.Amount, set.Currency), pct(st.Share))
	}
	t.print(w, limit)
	fmt.Fprintf(w, "Allocated: %s; unallocated %s; total %s\n", money(set.Allocated, set.Currency), money(set.Unallocated, set.Currency),
		money(set.Total, set.Currency))
}
