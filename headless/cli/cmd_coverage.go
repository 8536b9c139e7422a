package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).coverageCmd) }

func (a *app) coverageCmd() *cobra.Command {
	var req func() service.CommitmentRequest
	cmd := &cobra.Command{
		Use:   "coverage [--period KIND | --days N | --start YYYY-MM-DD --end YYYY-MM-DD]",
		Short: "Tag coverage: how much usage spend carries an owner tag, per provider, account and owner",
		Long: `Measure, over a calendar period (--period), the last N days (default 30) or --start..--end,
how much usage spend carries an owner tag (team, owner, project or department: allocatable)
and how much does not (unallocated), in all, per provider, per account (most unallocated
first), per owner and per month; then the tagging worklist: per account, owner tags suggested
for its largest untagged resources (from resource names, tagged neighbours and the account's
dominant owner). The same as GET /api/allocation/coverage and the Allocation page. Tagging
saves nothing by itself, so this is a measure beside the recommendations, not one of them.`,
		Example: `  costpilot coverage
  costpilot coverage --period last_month -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				p, err := svc.CommitmentPeriod(req())
				if err != nil {
					return err
				}
				cov, err := svc.TagCoverage(cmd.Context(), p)
				if err != nil {
					return err
				}
				return a.emit(cov, func(w io.Writer) { printCoverage(w, cov, a.width()) })
			})
		},
	}
	req = periodFlags(cmd)
	a.outputFlag(cmd)
	return cmd
}

// printCoverage prints the totals, the providers, the accounts with the
// most unallocated spend and the start of the worklist.
func printCoverage(w io.Writer, c model.TagCoverage, limit int) {
	cur := func(x float64) string { return money(x, c.Currency) }
	fmt.Fprintf(w, "Tag coverage %s to %s: %s of %s usage spend allocatable (%.1f%%), %s unallocated\n\n",
		c.From, c.To, cur(c.Allocatable), cur(c.Total), c.AllocatableShare*100, cur(c.Unallocated))
	rows := func(title string, rs []model.CoverageRow, account bool) {
		t := table{cols: []column{{name: title}, {name: "SPEND", right: true}, {name: "UNALLOCATED", right: true},
			{name: "ALLOCATABLE %", right: true}, {name: "UNTAGGED RESOURCES", right: true, optional: true}}}
		for _, r := range rs {
			name := string(r.Provider)
			if account {
				name += " " + r.Account
			}
			t.add(name, cur(r.Total), cur(r.Unallocated), fmt.Sprintf("%.1f%%", r.AllocatableShare*100), fmt.Sprint(r.UntaggedResources))
		}
		t.print(w, limit)
	}
	rows("PROVIDER", c.Providers, false)
	const most = 10
	if len(c.Accounts) > 0 {
		fmt.Fprintf(w, "\nAccounts with the most unallocated spend (%d of %d):\n", min(most, len(c.Accounts)), c.AccountsTotal)
		rows("ACCOUNT", c.Accounts[:min(most, len(c.Accounts))], true)
	}
	if len(c.Worklist) > 0 {
		fmt.Fprintf(w, "\nWorklist (%d accounts; -o json has every suggestion):\n", c.WorklistTotal)
		for _, wk := range c.Worklist[:min(most, len(c.Worklist))] {
			fmt.Fprintf(w, "  %s %s: %s unallocated in %d untagged resources; suggestions cover %s\n",
				wk.Provider, wk.Account, cur(wk.UnallocatedCost), wk.UntaggedResources, cur(wk.SuggestedCost))
			for _, s := range wk.Suggestions[:min(3, len(wk.Suggestions))] {
				fmt.Fprintf(w, "    %s: %s (%s, %s)\n", s.ResourceID, tagList(s.Tags), s.Reason, cur(s.Cost))
			}
		}
	}
}

// tagList is tags as "k=v, k=v" in key order.
func tagList(tags map[string]string) string {
	keys := slices.Sorted(maps.Keys(tags))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + tags[k]
	}
	return strings.Join(parts, ", ")
}
