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
	var csvOut string
	cmd := &cobra.Command{
		Use:   "statements --rules NAME --period YYYY-MM [--by department|project] [--csv FILE]",
		Short: "Chargeback statements: a billing period's cost allocated by a saved rule set",
		Long: `Allocate a billing period's cost with a saved allocation rule set (allocate --save NAME)
and print one statement per department (or project, --by project). The statements add up to
the period's allocated total; what no rule placed is shown as unallocated. They read the
history as it is now: run again after importing a late correction to regenerate them.
--csv writes the statements as CSV, one row each ("-" for standard output).`,
		Example: `  costpilot statements --rules finance --period 2026-05
  costpilot statements --rules finance --period 2026-05 --by project --csv may.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
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
