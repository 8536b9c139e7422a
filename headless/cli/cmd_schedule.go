package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).scheduleCmd) }

func (a *app) scheduleCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schedule",
		Short: "List, set, delete and run scheduled reports",
		Long: `Scheduled reports are made at an hour (UTC) every day, week or month and delivered by email
through reports.smtp (the password from COSTPILOT_SMTP_PASSWORD or COSTPILOT_SMTP_PASSWORD_FILE,
or the desktop app's credential store) and/or to alerts.webhook_url as a message with the headline numbers. Each schedule and period is
delivered once, whichever process gets there first; a failure is retried with backoff. The
dashboard and the desktop app deliver them while they run; "schedule run" does it once (from cron,
for example). Schedules in the config file are listed beside those made here, in the dashboard or
through the API; only the latter are changed here.`,
	}
	cmd.AddCommand(a.scheduleListCmd(), a.scheduleSetCmd(), a.scheduleDeleteCmd(), a.scheduleRunCmd())
	return cmd
}

func (a *app) scheduleListCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Every schedule with its next occurrence and how its deliveries stand",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				vs, err := svc.Schedules(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(vs, func(w io.Writer) { printSchedules(w, vs, a.width()) })
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}

func printSchedules(w io.Writer, vs []service.ScheduleView, limit int) {
	if len(vs) == 0 {
		fmt.Fprintln(w, "No scheduled reports: add one with costpilot schedule set NAME --frequency monthly --to ADDRESS.")
		return
	}
	t := table{cols: []column{{name: "NAME", cut: cutEnd, min: 10}, {name: "WHEN"}, {name: "REPORT"}, {name: "NEXT"},
		{name: "LAST DELIVERED"}, {name: "SOURCE", optional: true}}}
	var errs []string
	for _, v := range vs {
		sc := v.Schedule
		when := string(sc.Frequency)
		switch sc.Frequency {
		case config.Weekly:
			when += " " + sc.Weekday
		case config.Monthly:
			when += fmt.Sprintf(" day %d", sc.Day)
		}
		when += fmt.Sprintf(" %02d:00Z", sc.Hour)
		last := "never"
		if d := v.LastDelivered; d != nil {
			last = d.FinishedAt + " " + d.Channel
		}
		t.add(sc.Name, when, fmt.Sprintf("%s %s %s", sc.Type, sc.Format, sc.Period), v.NextDue, last, v.Source)
		if v.LastError != "" {
			errs = append(errs, sc.Name+": "+v.LastError)
		}
	}
	t.print(w, limit)
	for _, e := range errs {
		fmt.Fprintln(w, e)
	}
}

func (a *app) scheduleSetCmd() *cobra.Command {
	var sc config.Schedule
	var freq, typ, format, period string
	cmd := &cobra.Command{
		Use:   "set NAME",
		Short: "Create a schedule, or change the one of that name made outside the config file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sc.Name = args[0]
			sc.Frequency, sc.Type, sc.Format, sc.Period = config.Frequency(freq), model.ReportType(typ), model.ReportFormat(format), model.PeriodKind(period)
			return a.withService(cmd, func(svc *service.Service) error {
				var id int64
				existing, err := svc.Schedules(cmd.Context())
				if err != nil {
					return err
				}
				for _, e := range existing {
					if e.Source == service.ScheduleFromDashboard && e.Schedule.Name == sc.Name {
						id = e.ID
					}
				}
				v, err := svc.SaveSchedule(cmd.Context(), id, sc, cliActor)
				if err != nil {
					return err
				}
				return a.emit(v, func(w io.Writer) { printSchedules(w, []service.ScheduleView{v}, a.width()) })
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&freq, "frequency", "", "daily, weekly or monthly (required)")
	f.StringVar(&sc.Weekday, "weekday", "", "weekly: the day, monday..sunday (default monday)")
	f.IntVar(&sc.Day, "day", 0, "monthly: the day of the month, 1..28 (default 1)")
	f.IntVar(&sc.Hour, "hour", 6, "the hour it is due at, 0..23 UTC")
	f.StringVar(&typ, "type", "", "the report: "+oneOf(model.ReportTypes)+" (default summary)")
	f.StringVar(&format, "format", "", "the format: "+oneOf(model.ReportFormats)+" (default pdf)")
	f.StringVar(&period, "period", "", "the costs of: "+oneOf(config.SchedulePeriods)+" (default last_month when monthly, else days: the last 30)")
	f.StringSliceVar(&sc.Recipients, "to", nil, "email addresses, repeated or comma-separated")
	f.BoolVar(&sc.Webhook, "webhook", false, "also post the headline numbers to alerts.webhook_url")
	_ = cmd.MarkFlagRequired("frequency")
	a.outputFlag(cmd)
	return cmd
}

func (a *app) scheduleDeleteCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete a schedule made outside the config file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				vs, err := svc.Schedules(cmd.Context())
				if err != nil {
					return err
				}
				for _, v := range vs {
					if v.Schedule.Name != args[0] {
						continue
					}
					if v.Source != service.ScheduleFromDashboard {
						return apperr.E(apperr.Validation, "schedule %q is in the config file: remove it there", args[0])
					}
					if err := svc.DeleteSchedule(cmd.Context(), v.ID, cliActor); err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "deleted schedule %q\n", args[0])
					return nil
				}
				return apperr.E(apperr.NotFound, "no schedule named %q", args[0])
			})
		},
	}
}

func (a *app) scheduleRunCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Deliver the scheduled reports that are due, and retry failed ones whose time has come",
		Long: `Deliver every schedule's newest occurrence that is due and not yet delivered, and retry the failed
deliveries whose retry time has come. What another process delivered is not sent again. Exits 1
when a delivery failed (it is retried later).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				run, err := svc.DeliverSchedules(cmd.Context())
				if err != nil {
					return err
				}
				if err := a.emit(run, func(w io.Writer) {
					switch {
					case len(run.Delivered) == 0 && len(run.Failed) == 0:
						fmt.Fprintln(w, "nothing due")
					case len(run.Delivered) > 0:
						fmt.Fprintln(w, "delivered: "+strings.Join(run.Delivered, ", "))
					}
					for _, e := range run.Errors {
						fmt.Fprintln(w, "failed: "+e)
					}
				}); err != nil {
					return err
				}
				if len(run.Failed) > 0 {
					return apperr.E(apperr.Base, "%d scheduled deliveries failed; they are retried later", len(run.Failed))
				}
				return nil
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}
