package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).anomaliesCmd) }

func (a *app) anomaliesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "anomalies",
		Short: "List cost spikes over the whole history, with what drove them",
		Long: `List every day whose cost stood far above the same weekday of the weeks before and after
it (level shifts such as launches or migrations are not spikes), for each provider's total and
each of its services, newest first, with the services that drove it. Acknowledge or ignore one
with a reason; ignoring with --pattern silences that provider and service from then on. The
newest days (with no weeks after them yet) are checked against the weeks before alone, as the
alerts are.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				l, err := svc.Anomalies(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(l, func(w io.Writer) { printAnomalies(w, l, a.width()) })
			})
		},
	}
	a.outputFlag(cmd)
	cmd.AddCommand(a.anomalyShowCmd(), a.anomalyDecideCmd("ack", service.AnomalyAcknowledged, "Acknowledge an anomaly: it stops alerting"),
		a.anomalyDecideCmd("ignore", service.AnomalyIgnored, "Ignore an anomaly (--pattern: and its provider and service from now on)"),
		a.anomalyDecideCmd("reopen", "open", "Take a decision about an anomaly back"))
	return cmd
}

func printAnomalies(w io.Writer, l service.AnomalyList, limit int) {
	if len(l.Anomalies) == 0 {
		fmt.Fprintf(w, "No anomalies from %s to %s.\n", l.From, l.To)
		return
	}
	// The id (provider:day, or provider:day:service) says where and when.
	t := table{cols: []column{{name: "ID (PROVIDER:DAY[:SERVICE])", cut: cutEnd, min: 24},
		{name: "ACTUAL", right: true}, {name: "USUAL", right: true}, {name: "DRIVEN BY", cut: cutEnd, min: 12, optional: true},
		{name: "DECISION", optional: true}}}
	for _, x := range l.Anomalies {
		by, dec := "", ""
		if len(x.Drivers) > 0 {
			by = x.Drivers[0].Service
		}
		switch {
		case x.Decision != nil:
			dec = x.Decision.Action
		case x.Suppressed:
			dec = "ignored (pattern)"
		}
		t.add(strings.TrimPrefix(x.ID, "anomaly:"), money(x.Actual, l.Currency), money(x.Expected, l.Currency), by, dec)
	}
	t.print(w, limit)
	fmt.Fprintf(w, "\n%d anomalies from %s to %s\n", len(l.Anomalies), l.From, l.To)
}

func (a *app) anomalyShowCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "An anomaly with the services and resources that drove it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				d, err := svc.Anomaly(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				return a.emit(d, func(w io.Writer) {
					x := d.Anomaly
					fmt.Fprintf(w, "%s  %s %s: %s against a usual %s\n", x.ID, x.Provider, x.Day, money(x.Actual, d.Currency), money(x.Expected, d.Currency))
					for _, dr := range x.Drivers {
						fmt.Fprintf(w, "  service  %s +%s (%.0f%% of the excess)\n", dr.Service, money(dr.Excess, d.Currency), 100*dr.Share)
					}
					for _, r := range d.Resources {
						fmt.Fprintf(w, "  resource %s +%s (%s against %s)\n", r.ResourceID, money(r.Excess, d.Currency), money(r.Actual, d.Currency), money(r.Expected, d.Currency))
					}
					if x.Decision != nil {
						fmt.Fprintf(w, "  %s by %s at %s: %s\n", x.Decision.Action, x.Decision.By, x.Decision.At, x.Decision.Reason)
					}
				})
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}

func (a *app) anomalyDecideCmd(name, action, short string) *cobra.Command {
	r := service.AnomalyDecisionRequest{Action: action}
	cmd := idCmd(a, name, short, func(ctx context.Context, svc *service.Service, id string) (service.AnomalyView, error) {
		return svc.DecideAnomaly(ctx, id, r, cliActor)
	}, func(w io.Writer, x service.AnomalyView) {
		state := "open"
		if x.Decision != nil {
			state = x.Decision.Action
		}
		fmt.Fprintf(w, "%s %s\n", x.ID, state)
	})
	if action != "open" {
		cmd.Flags().StringVar(&r.Reason, "reason", "", "why (required)")
		_ = cmd.MarkFlagRequired("reason")
	}
	if action == service.AnomalyIgnored {
		cmd.Flags().BoolVar(&r.Pattern, "pattern", false, "also silence this provider's anomalies of the same service from now on")
	}
	a.outputFlag(cmd)
	return cmd
}
