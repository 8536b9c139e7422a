package cli

import (
	"fmt"
	"github.com/costpilot/costpilot/backend/service"
	"io"

	"github.com/spf13/cobra"
)

func init() { register((*app).alertsCmd) }

func (a *app) alertsCmd() *cobra.Command {
	var send bool
	cmd := &cobra.Command{
		Use:   "alerts",
		Short: "List alerts: budgets, forecasts over budget, cost anomalies, failing providers, stale data",
		Long: `List the current alerts: budgets whose spend this period reached a threshold
(alerts.thresholds, default 80 and 100 percent), budgets the forecast says will, cost anomalies
(a day far above the same weekday's median over the last eight weeks) with the services that
drove them, failing providers and stale data. Each alert has a stable id.

With --send, alerts not delivered before are posted to alerts.webhook_url as Slack-compatible
JSON, when dashboard.features.notifications is on; each alert is delivered once, and failed
deliveries are retried on the next run (cron-friendly). Exit 1 when a delivery failed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				if send {
					res, err := svc.SendAlerts(cmd.Context())
					if res.Sent != nil {
						if e := a.emit(res, func(w io.Writer) {
							if !res.Enabled {
								fmt.Fprintln(w, "notifications are off: set dashboard.features.notifications and alerts.webhook_url")
								return
							}
							fmt.Fprintf(w, "%d alerts: %d sent, %d already delivered, %d failed\n", res.Alerts, len(res.Sent), res.Skipped, len(res.Failed))
						}); e != nil {
							return e
						}
					}
					return err
				}
				alerts, err := svc.Alerts(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(alerts, func(w io.Writer) {
					if len(alerts) == 0 {
						fmt.Fprintln(w, "no alerts")
						return
					}
					for _, al := range alerts {
						for _, l := range wrap(al.Severity+"  "+al.Kind+"  "+al.Message, a.width(), "  ") {
							fmt.Fprintln(w, l)
						}
						fmt.Fprintf(w, "  id %s\n", al.ID)
					}
				})
			})
		},
	}
	cmd.Flags().BoolVar(&send, "send", false, "post new alerts to alerts.webhook_url (when notifications are on)")
	a.outputFlag(cmd)
	return cmd
}
