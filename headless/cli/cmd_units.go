package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).unitsCmd) }

func (a *app) unitsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "units list|import|sync|delete",
		Short: "Manage business metrics (orders, requests…) that costs are divided by",
		Long: `Business metrics are daily counts such as orders, requests or customers; analyze --per
METRIC (and per=METRIC in the API) divides the period's cost by them: the cost per unit,
in total and per day. A metric may be scoped to some costs (team=web, provider=aws): it
then divides only the costs with those values. units.sources in the config file pulls
metrics from Prometheus (units sync, and the dashboard every six hours).`,
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the stored business metrics",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				ms, err := svc.UnitMetrics(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(ms, func(w io.Writer) { printUnitMetrics(w, ms, a.width()) })
			})
		},
	}
	imp := &cobra.Command{
		Use:   "import FILE.csv",
		Short: "Import business metric values from CSV (date,metric,value and optional scope columns)",
		Long: `Import daily values of business metrics. The CSV has a header with date (YYYY-MM-DD),
metric and value columns; any other column scopes the metric: a dimension (provider,
billing_account, sub_account, service, service_category, region, resource,
charge_category, account) or a tag key (team, or tag:KEY). Every row of a metric gives
the same scope. Values replace those of the same metric and day; a bad row fails the
whole file, naming its line, and nothing is written. "-" reads standard input.`,
		Example: `  costpilot units import orders.csv
  printf 'date,metric,value,team\n2026-01-01,orders,1200,web\n' | costpilot units import -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			r := cmd.InOrStdin()
			if name != "-" {
				f, err := os.Open(name)
				if err != nil {
					return apperr.Wrap(apperr.Validation, err, "%s: cannot open: %v", name, err).WithDetail("file", name)
				}
				defer f.Close()
				r = f
			} else {
				name = "stdin"
			}
			return a.withService(cmd, func(svc *service.Service) error {
				res, err := svc.ImportUnits(cmd.Context(), name, r)
				if err != nil {
					return err
				}
				return a.emit(res, func(w io.Writer) {
					fmt.Fprintf(w, "imported %d values from %s\n", res.Rows, res.File)
					printUnitMetrics(w, res.Metrics, a.width())
				})
			})
		},
	}
	del := &cobra.Command{
		Use:   "delete METRIC",
		Short: "Delete a business metric and its values",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				if err := svc.DeleteUnitMetric(cmd.Context(), args[0]); err != nil {
					return err
				}
				return a.emit(map[string]string{"deleted": args[0]}, func(w io.Writer) { fmt.Fprintf(w, "deleted metric %q\n", args[0]) })
			})
		},
	}
	sync := &cobra.Command{
		Use:   "sync",
		Short: "Pull the units.sources metrics from Prometheus now",
		Long: `Pull every metric of units.sources: its PromQL query is evaluated with query_range at the
end of each UTC day over the source's last days (days, default 35) up to yesterday, the series
summed per day, and the values stored as an import's, replacing those of the same days. A
failing source is reported and does not stop the others; the command then exits non-zero.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				res, err := svc.SyncUnits(cmd.Context())
				if len(res.Sources) > 0 {
					if eerr := a.emit(res, func(w io.Writer) { printUnitsSync(w, res, a.width()) }); eerr != nil {
						return eerr
					}
				}
				return err
			})
		},
	}
	a.outputFlag(list)
	a.outputFlag(imp)
	a.outputFlag(sync)
	a.outputFlag(del)
	cmd.AddCommand(list, imp, sync, del)
	return cmd
}

func printUnitMetrics(w io.Writer, ms []model.UnitMetric, limit int) {
	if len(ms) == 0 {
		fmt.Fprintln(w, "no business metrics: costpilot units import FILE.csv")
		return
	}
	t := table{cols: []column{{name: "METRIC", cut: cutEnd, min: 8}, {name: "SCOPE", cut: cutEnd, min: 8}, {name: "FROM"}, {name: "TO"},
		{name: "DAYS", right: true}, {name: "TOTAL", right: true}}}
	for _, m := range ms {
		t.add(m.Name, model.FormatScope(m.Scope), m.FirstDay, m.LastDay, strconv.Itoa(m.Days), strconv.FormatFloat(m.Total, 'f', -1, 64))
	}
	t.print(w, limit)
}

func printUnitsSync(w io.Writer, res service.UnitsSync, limit int) {
	t := table{cols: []column{{name: "METRIC", cut: cutEnd, min: 10}, {name: "DAYS READ"}, {name: "VALUES", right: true},
		{name: "TOTAL", right: true}, {name: "ERROR", cut: cutEnd, optional: true}}}
	for _, s := range res.Sources {
		t.add(s.Metric, s.From+" – "+s.To, strconv.Itoa(s.Days), strconv.FormatFloat(s.Total, 'f', -1, 64), s.Error)
	}
	t.print(w, limit)
}
