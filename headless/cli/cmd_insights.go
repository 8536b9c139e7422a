package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() {
	register((*app).recommendCmd)
	register((*app).forecastCmd)
	register((*app).allocateCmd)
	register((*app).optimizeCmd)
	register((*app).reportCmd)
	register((*app).runsCmd)
}

func (a *app) recommendCmd() *cobra.Command {
	var f service.RecommendationFilter
	cmd := &cobra.Command{
		Use:   "recommend",
		Short: "List optimization recommendations with monthly savings",
		Long: `List rightsizing, idle, autoscaling, cost allocation and commitment recommendations for
every enabled provider, from the stored inventory, utilization and the last 30 days of costs.
Savings are per month. Only open recommendations are listed and counted unless --state asks
for others: dismiss, snooze or mark one done with the subcommands below, by its ID; a done
recommendation shows what it saved since (its resource's daily cost before and after). The
table fits the terminal, leaving out descriptions when it is narrow; -o wide prints every
column whole; -o json prints exactly the dashboard API's GET /api/recommendations answer.
Below the table, a line per provider says how many compute resources with cost the rightsizing
and idle checks could not assess for want of utilization data, and their monthly cost (the
API's GET /api/recommendations/not-assessed).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				out, err := svc.Recommendations(cmd.Context(), f)
				if err != nil {
					return err
				}
				na, err := svc.NotAssessed(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(out, func(w io.Writer) {
					printRecommendations(w, out, svc.Config().Currency.Base, a.width())
					printNotAssessed(w, na, f, a.width())
				})
			})
		},
	}
	cmd.Flags().StringVar(&f.Type, "type", "", "only this type: "+oneOf(model.RecommendationTypes))
	cmd.Flags().StringVar(&f.Provider, "provider", "", "only this provider: "+providerChoices())
	cmd.Flags().StringVar(&f.Priority, "priority", "", "only this priority: "+oneOf(model.Priorities))
	cmd.Flags().StringVar(&f.State, "state", "", "only this state: "+oneOf(model.RecStates)+", or all (default open)")
	a.outputFlag(cmd)
	cmd.AddCommand(a.recStateCmd("dismiss", model.RecDismissed, "Dismiss a recommendation, with a reason"),
		a.recStateCmd("snooze", model.RecSnoozed, "Hide a recommendation until a day"),
		a.recStateCmd("done", model.RecDone, "Mark a recommendation done: its realized savings are measured from today"),
		a.recStateCmd("reopen", model.RecOpen, "Open a dismissed, snoozed or done recommendation again"),
		a.recShowCmd())
	return cmd
}

// idCmd is a subcommand that acts on one item by its ID through the
// Service and prints what it answered.
func idCmd[T any](a *app, use, short string, call func(ctx context.Context, svc *service.Service, id string) (T, error), print func(io.Writer, T)) *cobra.Command {
	return &cobra.Command{
		Use:   use + " ID",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				v, err := call(cmd.Context(), svc, args[0])
				if err != nil {
					return err
				}
				return a.emit(v, func(w io.Writer) { print(w, v) })
			})
		},
	}
}

func (a *app) recStateCmd(name string, state model.RecState, short string) *cobra.Command {
	c := service.StateChange{State: string(state)}
	cmd := idCmd(a, name, short, func(ctx context.Context, svc *service.Service, id string) (model.Recommendation, error) {
		return svc.SetRecommendationState(ctx, id, c, cliActor)
	}, func(w io.Writer, r model.Recommendation) {
		fmt.Fprintf(w, "%s %s (%s, %s): %s\n", r.ID, r.Lifecycle.State, r.Type, r.Provider, r.ResourceID)
	})
	switch state {
	case model.RecDismissed:
		cmd.Flags().StringVar(&c.Reason, "reason", "", "why it does not apply (required)")
		_ = cmd.MarkFlagRequired("reason")
	case model.RecSnoozed:
		cmd.Flags().StringVar(&c.Until, "until", "", "hide it through this day, YYYY-MM-DD (required)")
		_ = cmd.MarkFlagRequired("until")
	default:
		cmd.Flags().StringVar(&c.Reason, "reason", "", "a note for the audit log")
	}
	a.outputFlag(cmd)
	return cmd
}

func (a *app) recShowCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show a recommendation whole: details, state, realized savings, console link",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				d, err := svc.Recommendation(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				return a.emit(d, func(w io.Writer) { printRecommendation(w, d) })
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}

func printRecommendation(w io.Writer, d service.RecommendationDetail) {
	r := d.Recommendation
	fmt.Fprintf(w, "%s  %s %s, %s priority\n", r.ID, r.Provider, r.Type, r.Priority)
	fmt.Fprintf(w, "Resource:  %s\n", r.ResourceID)
	fmt.Fprintf(w, "Finding:   %s\n", r.Description)
	fmt.Fprintf(w, "Savings:   %s a month (confidence %.2f, effort %s)\n", money(r.PotentialSavings, d.Currency), r.Confidence, r.ImplementationEffort)
	if lc := r.Lifecycle; lc != nil {
		fmt.Fprintf(w, "State:     %s", lc.State)
		if lc.By != "" {
			fmt.Fprintf(w, " by %s at %s", lc.By, lc.At)
		}
		if lc.Reason != "" {
			fmt.Fprintf(w, " (%s)", lc.Reason)
		}
		if lc.Until != "" {
			fmt.Fprintf(w, " until %s", lc.Until)
		}
		fmt.Fprintln(w)
		if rs := lc.Realized; rs != nil {
			fmt.Fprintf(w, "Realized:  %s a month (daily %s over %d days before %s, %s over %d days since)\n",
				money(rs.Monthly, rs.Currency), money(rs.DailyBefore, rs.Currency), rs.DaysBefore, rs.DoneOn,
				money(rs.DailyAfter, rs.Currency), rs.DaysAfter)
		}
	}
	if d.ConsoleURL != "" {
		fmt.Fprintf(w, "Console:   %s\n", d.ConsoleURL)
	}
	keys := make([]string, 0, len(r.Details))
	for k := range r.Details {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %s: %v\n", k, r.Details[k])
	}
}

func printRecommendations(w io.Writer, recs []model.Recommendation, cur string, limit int) {
	var total float64
	t := table{cols: []column{
		{name: "ID", cut: cutHead, min: 8}, {name: "PRIORITY"}, {name: "TYPE"}, {name: "PROVIDER", optional: true},
		{name: "RESOURCE", cut: cutMiddle, min: 14},
		{name: "CHANGE", cut: cutChange, min: 14},
		{name: "SAVINGS/MO", right: true}, {name: "CONF", right: true, optional: true},
		{name: "DESCRIPTION", cut: cutEnd, min: 20, optional: true},
	}}
	for _, r := range recs {
		total += r.PotentialSavings
		change := ""
		if r.CurrentConfig != nil && r.RecommendedConfig != nil {
			change = r.CurrentConfig.InstanceType + changeArrow + r.RecommendedConfig.InstanceType
		}
		t.add(r.ID, string(r.Priority), string(r.Type), string(r.Provider), r.ResourceID, change,
			money(r.PotentialSavings, cur), fmt.Sprintf("%.2f", r.Confidence), r.Description)
	}
	t.print(w, limit)
	fmt.Fprintf(w, "\n%d recommendations, potential savings %s a month\n", len(recs), money(total, cur))
	printBases(w, recs, limit)
}

// printBases says, per distinct span, which days of cost history the
// recommendations were computed from when the data ends before yesterday.
func printBases(w io.Writer, recs []model.Recommendation, limit int) {
	var order []model.Basis
	providers := map[model.Basis][]string{}
	for _, r := range recs {
		b := r.Basis
		if b == nil || b.Reason == "" {
			continue
		}
		if _, ok := providers[*b]; !ok {
			order = append(order, *b)
		}
		if ps := providers[*b]; !slices.Contains(ps, string(r.Provider)) {
			providers[*b] = append(ps, string(r.Provider))
		}
	}
	for _, b := range order {
		printWrapped(w, fmt.Sprintf("Costs read from %s to %s (%s): %s", b.From, b.To, strings.Join(providers[b], ", "), b.Reason), limit)
	}
}

// printNotAssessed says, below the table, what the rightsizing and idle
// checks could not look at: for the providers the filter keeps, unless it
// asks only for kinds that need no utilization.
func printNotAssessed(w io.Writer, na []model.NotAssessed, f service.RecommendationFilter, limit int) {
	if f.Type != "" && f.Type != string(model.RecRightsizing) && f.Type != string(model.RecIdle) {
		return
	}
	for _, n := range na {
		if f.Provider == "" || f.Provider == string(n.Provider) {
			printWrapped(w, "note: "+n.Message, limit)
		}
	}
}

// cutHead keeps an id's first characters: commands take any unique
// prefix of at least 8.
func cutHead(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// changeArrow joins a recommendation's current and recommended configuration.
const changeArrow = " → "

// cutChange keeps the recommended side of "current → recommended" whole
// when it fits: that is what to change to.
func cutChange(s string, n int) string {
	from, to, ok := strings.Cut(s, changeArrow)
	if !ok {
		return cutEnd(s, n)
	}
	if room := n - width(changeArrow) - width(to); room >= 2 {
		return cutEnd(from, room) + changeArrow + to
	}
	return cutEnd("→ "+to, n)
}

func (a *app) forecastCmd() *cobra.Command {
	var days int
	var noRecs, evaluate bool
	var scope costFlags
	cmd := &cobra.Command{
		Use:   "forecast [--days N] [--service S]... [--group-by DIM]",
		Short: "Forecast costs for the next N days with a confidence interval",
		Long: `Forecast the next N days (default 30) per provider and in total, with the interval at
forecast.interval (default 95 %), each provider's trend and volatility, and the forecast after the
current recommendations are applied. Needs at least 28 days of history. The filter flags
(provider, account, service, region, tag key:value, ...) forecast only that view, as analyze does;
--group-by forecasts each of its largest groups and the rest; parts add up to the total.
-o json prints exactly the /api/forecast answer.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				if evaluate {
					ev, err := svc.EvaluateModel(cmd.Context(), days)
					if err != nil {
						return err
					}
					return a.emit(ev, func(w io.Writer) {
						fmt.Fprintf(w, "Backtest of the forecaster over %d origins, %d days ahead:\n", ev.Origins, ev.Horizon)
						fmt.Fprintf(w, "  MAE %.2f  MAPE %.1f%%  sMAPE %.1f%%  MASE %.3f\n", ev.MAE, ev.MAPE, ev.SMAPE, ev.MASE)
						fmt.Fprintf(w, "  interval coverage: 80%% → %.2f, 95%% → %.2f\n", ev.Coverage80, ev.Coverage95)
					})
				}
				incl := !noRecs
				cr, err := scope.request(cmd)
				if err != nil {
					return err
				}
				req := service.ForecastRequest{Days: &days, IncludeRecommendations: &incl, Filters: cr.Filters, GroupBy: scope.groupBy}
				fc, err := svc.ForecastView(cmd.Context(), req)
				if err != nil {
					return err
				}
				return a.emit(fc, func(w io.Writer) { printForecast(w, fc, a.width()) })
			})
		},
	}
	cmd.Flags().IntVar(&days, "days", 30, "days to forecast (1-365; the dashboard offers 30, 60, 90)")
	cmd.Flags().BoolVar(&noRecs, "no-recommendations", false, "skip the recommendations impact")
	cmd.Flags().BoolVar(&evaluate, "evaluate", false, "instead, backtest the forecaster on the history: MAE, MAPE, sMAPE, MASE, interval coverage")
	cmd.Flags().StringVar(&scope.groupBy, "group-by", "", "forecast each largest group of "+oneOf(model.Dimensions)+
		" or tag:KEY and the rest; the groups add up to the total")
	scope.registerFilters(cmd)
	a.outputFlag(cmd)
	return cmd
}

func printForecast(w io.Writer, fc model.Forecast, limit int) {
	c := fc.Currency
	fmt.Fprintf(w, "Forecast for the next %d days: %s\n", fc.ForecastPeriod, money(fc.TotalForecast, c))
	if n := len(fc.DailyForecast); n > 0 {
		fmt.Fprintf(w, "  %s\n", span(fc.DailyForecast[0].Date, fc.DailyForecast[n-1].Date))
	}
	fmt.Fprintf(w, "  %.0f%% interval %s – %s\n\n", 100*fc.ConfidenceLevel, money(fc.ConfidenceInterval[0], c), money(fc.ConfidenceInterval[1], c))
	t := table{cols: []column{{name: "PROVIDER"}, {name: "FORECAST", right: true}, {name: "LOW", right: true},
		{name: "HIGH", right: true}, {name: "TREND"}, {name: "VOLATILITY", right: true}}}
	for _, k := range providerOrder(fc.ProviderForecasts) {
		p, ok := fc.ProviderForecasts[k]
		if !ok {
			continue
		}
		t.add(string(k), money(p.TotalForecast, c), money(p.ConfidenceInterval[0], c), money(p.ConfidenceInterval[1], c),
			string(p.TrendAnalysis.TrendDirection), fmt.Sprintf("%.3f", p.TrendAnalysis.Volatility))
	}
	t.print(w, limit)
	if len(fc.Groups) > 0 {
		g := table{cols: []column{{name: strings.ToUpper(string(fc.GroupBy))}, {name: "FORECAST", right: true},
			{name: "LOW", right: true}, {name: "HIGH", right: true}}}
		for _, gr := range fc.Groups {
			g.add(gr.Label, money(gr.TotalForecast, c), money(gr.ConfidenceInterval[0], c), money(gr.ConfidenceInterval[1], c))
		}
		fmt.Fprintln(w)
		g.print(w, limit)
		fmt.Fprintln(w, "  The groups add up to the total: the total is its own forecast, the groups' are scaled to it.")
	}
	if im := fc.RecommendationsImpact; im != nil {
		fmt.Fprintf(w, "\nWith the current recommendations: %s\n  saves %s, %.1f%%\n", money(im.OptimizedForecast, c),
			money(im.TotalSavings, c), im.SavingsPercentage)
	}
}

func (a *app) allocateCmd() *cobra.Command {
	var rulesFile, save string
	cmd := &cobra.Command{
		Use:   "allocate --rules FILE",
		Short: "Allocate costs to departments and projects by rules",
		Long: `Allocate the costs of a period (default the last 30 days; or start/end in the rules) by a
rule file in YAML or JSON (the body of the dashboard API's POST /api/allocate) with these
fields: method (tag_based, account or regex), tags, departments, projects, plus accounts,
patterns, shared_split (even, proportional, fixed) and shared_percentages. --save NAME keeps the rule set for the dashboard.`,
		Example: `  cat > rules.yaml <<'EOF'
  method: tag_based
  tags: [department, team]
  departments: []        # empty: take them from the tag values
  projects: []
  EOF
  costpilot allocate --rules rules.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutput(); err != nil {
				return err
			}
			if rulesFile == "" {
				return usageError{"--rules FILE is required"}
			}
			data, err := os.ReadFile(rulesFile)
			if err != nil {
				return apperr.Wrap(apperr.Validation, err, "%s: cannot read the rules file", rulesFile)
			}
			return a.withService(cmd, func(svc *service.Service) error {
				rules, err := service.ParseAllocationRules(data, rulesFile)
				if err != nil {
					return err
				}
				if save != "" {
					if _, err := svc.SaveRuleSet(cmd.Context(), save, rules); err != nil {
						return err
					}
				}
				res, err := svc.AllocateCosts(cmd.Context(), rules)
				if err != nil {
					return err
				}
				return a.emit(res, func(w io.Writer) { printAllocation(w, res, a.width()) })
			})
		},
	}
	cmd.Flags().StringVar(&rulesFile, "rules", "", "rule file, YAML or JSON")
	cmd.Flags().StringVar(&save, "save", "", "also save the rule set under this name")
	a.outputFlag(cmd)
	return cmd
}

func printAllocation(w io.Writer, res model.AllocationResult, limit int) {
	c := res.Currency
	ac := res.AllocatedCosts
	fmt.Fprintf(w, "Allocation %s\nTotal %s, unallocated %s\n\n", span(res.Period.StartDate, res.Period.EndDate), money(ac.Total, c), money(ac.Unallocated, c))
	for _, sec := range []struct {
		name string
		m    map[string]float64
	}{{"DEPARTMENT", ac.ByDepartment}, {"PROJECT", ac.ByProject}} {
		if len(sec.m) == 0 {
			continue
		}
		keys := make([]string, 0, len(sec.m))
		for k := range sec.m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return sec.m[keys[i]] > sec.m[keys[j]] })
		t := table{cols: []column{{name: sec.name, cut: cutEnd, min: 16}, {name: "COST", right: true}, {name: "SHARE", right: true}}}
		for _, k := range keys {
			share := 0.0
			if ac.Total != 0 {
				share = sec.m[k] / ac.Total
			}
			t.add(k, money(sec.m[k], c), pct(share))
		}
		t.print(w, limit)
		fmt.Fprintln(w)
	}
}

func (a *app) optimizeCmd() *cobra.Command {
	var noReport, noSave bool
	cmd := &cobra.Command{
		Use:   "optimize [--no-report] [--no-save]",
		Short: "Run the whole pipeline: analysis, recommendations, report, saved results",
		Long: `Run analysis over the last 30 days, generate recommendations, write a comprehensive HTML
report (unless --no-report) and save the results with the run (unless --no-save; see
costpilot runs). Prints the optimization result (as POST /api/optimize); the report path is the last line.
With -o json, report_path is the report's full path (the API gives the name it serves).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				res, err := svc.OptimizeAll(cmd.Context(), !noReport, !noSave)
				if err != nil {
					return err
				}
				if res, err = withFullReportPath(res); err != nil {
					return err
				}
				return a.emit(res, func(w io.Writer) {
					cur := svc.Config().Currency.Base
					fmt.Fprintf(w, "Providers: %v\nRecommendations: %d\nPotential savings: %s a month\n", res.Summary.ProvidersAnalyzed,
						res.Summary.TotalRecommendations, money(res.Summary.TotalPotentialSavings, cur))
					if res.RunID != 0 {
						fmt.Fprintf(w, "Saved as run %d\n", res.RunID)
					}
					if res.Path != "" {
						fmt.Fprintln(w, res.Path)
					}
				})
			})
		},
	}
	cmd.Flags().BoolVar(&noReport, "no-report", false, "do not write a report")
	cmd.Flags().BoolVar(&noSave, "no-save", false, "do not save the results and the run")
	a.outputFlag(cmd)
	return cmd
}

func (a *app) reportCmd() *cobra.Command {
	var typ, format, period, start, end, view string
	var providers []string
	cmd := &cobra.Command{
		Use:   "report --type comprehensive|summary|recommendations --format html|pdf|json",
		Short: "Write a report to the output dir and print its path",
		Long: `Write a report to output_dir (default <data dir>/reports), named after its type, period,
providers and time (costpilot-summary-2026-10-01_2026-10-31-aws-20261127T101500Z.pdf), and print
its absolute path as the last line.

The period is the last 30 complete days unless --period names a calendar one (last_month,
last_quarter, mtd, qtd, ytd, last_12_months) or --start and --end a range of days; --provider
narrows it to some providers and --view follows a saved view's period and filters.

Every section is of the report's period (budgets as of its last day); a period that is over has
no forecast. PDF and HTML open with an executive summary: the total and its change against the
previous period (per day when the two differ in length), the forecast to the period's end,
budgets against actual spend, the services and accounts whose cost per day rose most, and the
open and realized savings. The details follow.
They list the 25 largest recommendations; when there are more, every one goes into a CSV beside
the report (named as it, ending -recommendations.csv), printed before the report's path. JSON
holds all the data and the summary's figures.`,
		Example: `  costpilot report --type summary --format pdf --period last_month
  costpilot report --format pdf --start 2026-04-01 --end 2026-06-30 --provider aws --provider gcp`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				req := model.ReportRequest{Type: model.ReportType(typ), Format: model.ReportFormat(format),
					Period: model.PeriodKind(period), Start: start, End: end, View: view}
				for _, p := range providers {
					req.Providers = append(req.Providers, model.ProviderKey(p))
				}
				res, err := svc.GenerateReport(cmd.Context(), req)
				if err != nil {
					return err
				}
				for _, p := range res.AttachmentPaths {
					fmt.Fprintln(a.stdout, p)
				}
				fmt.Fprintln(a.stdout, res.Path)
				return nil
			})
		},
	}
	def := service.ReportDefaults(model.ReportRequest{})
	cmd.Flags().StringVar(&typ, "type", "", "report type: "+oneOf(model.ReportTypes)+" (default "+string(def.Type)+")")
	cmd.Flags().StringVar(&format, "format", "", "file format: "+oneOf(model.ReportFormats)+" (default "+string(def.Format)+")")
	cmd.Flags().StringVar(&period, "period", "", "the period of the costs: "+oneOf(model.PeriodKinds)+" (default the last 30 days)")
	cmd.Flags().StringVar(&start, "start", "", "first day of a custom period, YYYY-MM-DD (with --end)")
	cmd.Flags().StringVar(&end, "end", "", "last day of a custom period, YYYY-MM-DD (with --start)")
	cmd.Flags().StringArrayVar(&providers, "provider", nil, "only this provider (repeatable): "+providerChoices())
	cmd.Flags().StringVar(&view, "view", "", "follow the saved view NAME (its period and filters)")
	return cmd
}

func (a *app) runsCmd() *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List saved pipeline runs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				runs, err := svc.Runs(cmd.Context(), limit)
				if err != nil {
					return err
				}
				return a.emit(runs, func(w io.Writer) {
					t := table{cols: []column{{name: "ID", right: true}, {name: "KIND"}, {name: "STARTED"}, {name: "FINISHED"},
						{name: "STATUS"}, {name: "SUMMARY", cut: cutEnd, min: 20, optional: true}}}
					for _, r := range runs {
						t.add(fmt.Sprint(r.ID), r.Kind, stamp(r.StartedAt), stamp(r.FinishedAt), r.Status, string(r.Summary))
					}
					t.print(w, a.width())
				})
			})
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, fmt.Sprintf("how many runs, 1-%d (default %d)", service.MaxRuns, service.DefaultRuns))
	a.outputFlag(cmd)
	return cmd
}

// printWrapped prints a sentence whole, wrapped to the width.
func printWrapped(w io.Writer, s string, limit int) {
	for _, l := range wrap(s, limit, "  ") {
		fmt.Fprintln(w, l)
	}
}
