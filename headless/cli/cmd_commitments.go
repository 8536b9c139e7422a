package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).commitmentsCmd) }

func (a *app) commitmentsCmd() *cobra.Command {
	var req func() service.CommitmentRequest
	cmd := &cobra.Command{
		Use:   "commitments [--period KIND | --days N | --start YYYY-MM-DD --end YYYY-MM-DD]",
		Short: "Coverage, utilization and unused cost of reservations and savings plans, and what expires soon",
		Long: `Show, per provider and commitment type, over a calendar period (--period), the last N
days (default 30) or the inclusive dates --start..--end: coverage (the share of eligible
usage, at on-demand prices, that commitments covered), utilization (the share of the
purchased commitment used), the unused cost, the net savings and the effective savings rate;
then the commitments whose term ends within 90 days (marked when within 30). Figures come
from imported billing exports (AWS CUR, FOCUS, Azure amortized cost, Google Cloud billing
export), the demo and live syncs of AWS (Cost Explorer) and Google Cloud (BigQuery export).
Live Azure gives its reservations' utilization (reserved hours), unused cost and end of term,
but no on-demand price: its coverage, net savings and savings rate print "-" with the reason,
and its savings plans are not read. Live OCI, and a live sync that could not read them, say
"not reported" and why.`,
		Example: `  costpilot commitments --days 90
  costpilot commitments --period last_quarter
  costpilot commitments --start 2026-05-01 --end 2026-05-31 -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				p, err := svc.CommitmentPeriod(req())
				if err != nil {
					return err
				}
				rep, err := svc.Commitments(cmd.Context(), p)
				if err != nil {
					return err
				}
				return a.emit(rep, func(w io.Writer) { printCommitments(w, rep, a.width()) })
			})
		},
	}
	req = periodFlags(cmd)
	a.outputFlag(cmd)
	return cmd
}

// periodFlags adds --period, --days, --start and --end to cmd and returns
// what they ask for once parsed.
func periodFlags(cmd *cobra.Command) func() service.CommitmentRequest {
	var days int
	var period, start, end string
	f := cmd.Flags()
	f.StringVar(&period, "period", "", "a calendar period: "+oneOf(model.PeriodKinds))
	f.IntVar(&days, "days", 30, "the last N days (1-365)")
	f.StringVar(&start, "start", "", "first day, YYYY-MM-DD (with --end)")
	f.StringVar(&end, "end", "", "last day, YYYY-MM-DD, inclusive (with --start)")
	return func() service.CommitmentRequest {
		r := service.CommitmentRequest{Period: period, Start: start, End: end}
		if f.Changed("days") {
			r.Days = &days
		}
		return r
	}
}

// ratioText is a share, or a dash when it is undefined.
func ratioText(r *float64) string {
	if r == nil {
		return "-"
	}
	return pct(*r)
}

func printCommitments(w io.Writer, rep model.CommitmentReport, limit int) {
	fmt.Fprintf(w, "Commitments from %s to %s\n", rep.Period.StartDate, rep.Period.EndDate)
	if rep.Basis != nil && rep.Basis.Reason != "" {
		fmt.Fprintf(w, "(%s)\n", rep.Basis.Reason)
	}
	fmt.Fprintln(w)
	t := table{cols: []column{{name: "PROVIDER"}, {name: "TYPE", cut: cutEnd, min: 10}, {name: "COVERAGE", right: true},
		{name: "UTILIZATION", right: true}, {name: "UNUSED", right: true}, {name: "NET SAVINGS", right: true, optional: true},
		{name: "SAVINGS RATE", right: true, optional: true}}}
	for _, s := range rep.Providers {
		typ := s.Type
		if typ == "" {
			typ = "all"
		}
		if !s.Reported {
			t.add(string(s.Provider), typ, "not reported", "not reported", "-", "-", "-")
			continue
		}
		// Without an on-demand price the savings are unknown, not zero.
		savings := money(s.NetSavings, rep.Currency)
		if s.CoverageUnknown {
			savings = "-"
		}
		t.add(string(s.Provider), typ, ratioText(s.Coverage), ratioText(s.Utilization), money(s.UnusedCost, rep.Currency),
			savings, ratioText(s.EffectiveSavingsRate))
	}
	t.print(w, limit)
	// Why a provider is not (or only partly) reported.
	first := true
	for _, s := range rep.Providers {
		if s.Type == "" && s.Note != "" {
			if first {
				fmt.Fprintln(w)
				first = false
			}
			fmt.Fprintf(w, "%s: %s\n", s.Provider, s.Note)
		}
	}
	if len(rep.Expiring) == 0 {
		fmt.Fprintln(w, "\nNo commitment with a known end of term expires within 90 days.")
		return
	}
	fmt.Fprintln(w, "\nExpiring within 90 days:")
	e := table{cols: []column{{name: "PROVIDER"}, {name: "TYPE", cut: cutEnd, min: 10}, {name: "ENDS"}, {name: "DAYS", right: true},
		{name: "PER DAY", right: true}, {name: "ID", cut: cutEnd, min: 12, optional: true}}}
	for _, x := range rep.Expiring {
		days := fmt.Sprint(x.DaysLeft)
		if x.ExpiringWithin30 {
			days += " !"
		}
		e.add(string(x.Provider), x.Type, x.End, days, money(x.DailyCommitment, rep.Currency), x.ID)
	}
	e.print(w, limit)
}
