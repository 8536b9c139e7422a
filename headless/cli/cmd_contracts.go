package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).contractsCmd) }

func (a *app) contractsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "contracts",
		Short: "FOCUS contract commitments and how far the charges applied to each have come",
		Long: `A FOCUS 1.3 Contract Commitment dataset (imported with costpilot import, which knows it
by its columns) says what was committed: an amount of spend or of usage over a period. The
ContractApplied column of FOCUS cost rows says how much of each charge counted towards which
commitment. Each commitment is listed with what was applied within its period, as a share of
what was committed, that share projected to the period's end at the pace so far, and a
status: upcoming, on_track, at_risk (short at the end at this pace), met, short (ended short)
or no_charges.`,
		Example: `  costpilot import contract-commitments.csv focus-costs.csv
  costpilot contracts -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				cs, err := svc.Contracts(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(cs, func(w io.Writer) { printContracts(w, cs, a.width()) })
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}

func printContracts(w io.Writer, cs []model.ContractCommitment, limit int) {
	if len(cs) == 0 {
		fmt.Fprintln(w, "no contract commitments: import a FOCUS contract commitment dataset (costpilot import FILE)")
		return
	}
	t := table{cols: []column{{name: "PROVIDER"}, {name: "COMMITMENT", cut: cutMiddle, min: 10}, {name: "PERIOD"},
		{name: "COMMITTED", right: true}, {name: "APPLIED", right: true}, {name: "SHARE", right: true},
		{name: "ELAPSED", right: true}, {name: "STATUS"}}}
	for _, c := range cs {
		committed, applied := money(c.Committed, c.Currency), money(c.Applied, c.Currency)
		if c.Category == "Usage" && c.CommittedQuantity != nil {
			committed = strconv.FormatFloat(*c.CommittedQuantity, 'f', -1, 64) + " " + c.Unit
			applied = strconv.FormatFloat(c.AppliedQuantity, 'f', -1, 64) + " " + c.Unit
		}
		t.add(string(c.Provider), c.ID, c.Start+" – "+c.End, committed, applied, pct(c.Share), pct(c.Elapsed), c.Status)
	}
	t.print(w, limit)
}
