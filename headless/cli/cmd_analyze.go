package cli

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"github.com/costpilot/costpilot/backend/service"
)

// costFlags are the flags of a cost query, shared by analyze and views
// save.
type costFlags struct {
	days                                   int
	start, end, metric, period, gran, view string
	groupBy, per                           string
	provider, account, service, tag        []string
	filter                                 []string
}

func (c *costFlags) register(cmd *cobra.Command, withView bool) {
	f := cmd.Flags()
	c.registerScope(cmd)
	f.StringVar(&c.gran, "granularity", "", "series buckets: "+oneOf(model.Granularities)+" (default day)")
	f.StringVar(&c.metric, "metric", "", "cost metric: "+oneOf(model.CostMetrics)+" (default analysis.cost_metric)")
	f.StringVar(&c.groupBy, "group-by", "", "group by "+oneOf(model.Dimensions)+", tag:KEY, or Kubernetes "+
		oneOf(model.K8sDimensions)+" or label:KEY (pod label)")
	if withView {
		f.StringVar(&c.view, "view", "", "start from the saved view NAME (costpilot views list); other flags change it")
	}
}

// registerScope registers the flags that choose which lines a query
// reads: its period and filters.
func (c *costFlags) registerScope(cmd *cobra.Command) {
	f := cmd.Flags()
	f.IntVar(&c.days, "days", service.DefaultDays, "the last N complete days (1-365)")
	f.StringVar(&c.start, "start", "", "first day, YYYY-MM-DD (with --end)")
	f.StringVar(&c.end, "end", "", "last day, YYYY-MM-DD, inclusive (with --start); a later day than today is cut at today")
	f.StringVar(&c.period, "period", "", "a calendar period: "+oneOf(model.PeriodKinds))
	c.registerFilters(cmd)
}

// registerFilters registers the flags that filter which lines a query
// reads.
func (c *costFlags) registerFilters(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringArrayVar(&c.provider, "provider", nil, "only this provider (repeatable): "+providerChoices())
	f.StringArrayVar(&c.account, "account", nil, "only this billing account or sub-account (repeatable)")
	f.StringArrayVar(&c.service, "service", nil, "only this service (repeatable)")
	f.StringArrayVar(&c.tag, "tag", nil, "only lines with this tag, key:value, ignoring case; key:"+model.NoValue+" for untagged (repeatable)")
	f.StringArrayVar(&c.filter, "filter", nil, "only lines where DIMENSION=VALUE, e.g. region=us-east-1, namespace=shop, label=team:web (repeatable; "+model.NoValue+" for none)")
}

// request builds the Service's CostRequest; the Service checks it.
func (c *costFlags) request(cmd *cobra.Command) (service.CostRequest, error) {
	r := service.CostRequest{Start: c.start, End: c.end, Metric: c.metric, Period: c.period, Granularity: c.gran,
		GroupBy: c.groupBy, View: c.view, Per: c.per}
	if cmd.Flags().Changed("days") {
		r.Days = &c.days
	}
	add := func(name string, vals []string) {
		if len(vals) == 0 {
			return
		}
		if r.Filters == nil {
			r.Filters = map[string][]string{}
		}
		r.Filters[name] = append(r.Filters[name], vals...)
	}
	add("provider", c.provider)
	add("account", c.account)
	add("service", c.service)
	add("tag", c.tag)
	for _, f := range c.filter {
		dim, val, ok := strings.Cut(f, "=")
		if !ok || dim == "" {
			return r, usageError{fmt.Sprintf("--filter must be DIMENSION=VALUE, got %q", f)}
		}
		add(dim, []string{val})
	}
	return r, nil
}

func (a *app) analyzeCmd() *cobra.Command {
	var cf costFlags
	var verbose bool
	cmd := &cobra.Command{
		Use:   "analyze [--days N | --period KIND | --start YYYY-MM-DD --end YYYY-MM-DD | --view NAME]",
		Short: "Analyze costs over a period across the enabled providers",
		Long: `Analyze costs over the last N complete days (default 30, ending yesterday), a calendar
period (--period: month to date, last month, this or last quarter, year to date, last 12
months) or the inclusive dates --start..--end (UTC): the total and each provider's, against
the previous span of the same length or calendar unit, service breakdown, top resources and
daily costs; --group-by adds the cost of each group. -o json prints exactly the dashboard
API's GET /api/costs answer; -o wide prints whole resource ids.`,
		Example: `  costpilot analyze --days 90
  costpilot analyze --period last_month --group-by region
  costpilot analyze --start 2026-01-01 --end 2026-01-31 --provider aws -o json
  costpilot analyze --tag team:data --tag team:web --metric effective --verbose
  costpilot analyze --view "Platform by service"
  costpilot analyze --period last_month --per orders`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req, err := cf.request(cmd)
			if err != nil {
				return err
			}
			return a.withService(cmd, func(svc *service.Service) error {
				res, err := svc.Costs(cmd.Context(), req)
				if err != nil {
					return err
				}
				return a.emit(res, func(w io.Writer) { printAnalysis(w, res, verbose, a.width()) })
			})
		},
	}
	cf.register(cmd, true)
	cmd.Flags().StringVar(&cf.per, "per", "", "also divide the cost by the business metric METRIC (costpilot units list): cost per unit in total and per day")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also print daily costs and top resources")
	a.outputFlag(cmd)
	return cmd
}

// change describes current against previous; no percentage without a
// previous cost to compare with.
func change(cur, prev float64) string {
	if prev == 0 {
		if cur == 0 {
			return "–"
		}
		return "new"
	}
	return fmt.Sprintf("%+.1f%%", 100*(cur-prev)/math.Abs(prev))
}

func printAnalysis(w io.Writer, a model.CostAnalysis, verbose bool, limit int) {
	s := a.Summary
	cur := s.Currency
	what := span(s.AnalysisPeriod.StartDate, s.AnalysisPeriod.EndDate)
	if s.Period != nil && s.Period.Kind != model.PeriodCustom {
		what = s.Period.Label + ", " + what
	}
	fmt.Fprintf(w, "Costs %s (%s cost)\n", what, s.Metric)
	fmt.Fprintf(w, "Total: %s\n", money(s.TotalCost, cur))
	if p := s.Previous; p != nil {
		fmt.Fprintf(w, "Previous %s: %s (%s)\n", span(p.Start, p.End), money(p.TotalCost, cur), change(s.TotalCost, p.TotalCost))
	}
	if pu := s.PerUnit; pu != nil {
		fmt.Fprintf(w, "Per %s: %s (%s of %s in %s / %g units)\n", pu.Metric, perUnitText(pu.CostPerUnit, cur),
			money(pu.Cost, cur), s.Metric, model.FormatScope(pu.Scope), pu.Units)
	}
	for c, r := range s.RatesUsed {
		fmt.Fprintf(w, "  converted %s at %g %s\n", c, r, cur)
	}
	for _, n := range s.Notices {
		for _, l := range wrap("Note: "+n.Message, limit, "  ") {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintln(w)
	// Reads never refresh: the table says how far each provider's data goes.
	through := map[model.ProviderKey]string{}
	for _, d := range s.DataAge {
		through[d.Provider] = cmp.Or(d.LastDay, "no data")
	}
	t := table{cols: []column{{name: "PROVIDER"}, {name: "SOURCE"}, {name: "DATA THROUGH"}, {name: "TOTAL", right: true}, {name: "SHARE", right: true}}}
	for _, k := range s.ProvidersAnalyzed {
		pc := a.Providers[k]
		share := 0.0
		if s.TotalCost != 0 {
			share = pc.TotalCost / s.TotalCost
		}
		t.add(string(k), string(pc.Source), through[k], money(pc.TotalCost, cur), pct(share))
	}
	t.print(w, limit)
	if len(s.Groups) > 0 {
		fmt.Fprintf(w, "\nBy %s\n", s.GroupBy)
		t := table{indent: "  ", cols: []column{{name: "GROUP", cut: cutMiddle, min: 16}, {name: "COST", right: true},
			{name: "PREVIOUS", right: true}, {name: "CHANGE", right: true}}}
		shown := 15
		if verbose {
			shown = len(s.Groups)
		}
		for i, g := range s.Groups {
			if i >= shown {
				break
			}
			t.add(g.Label, money(g.Cost, cur), money(g.PreviousCost, cur), change(g.Cost, g.PreviousCost))
		}
		t.print(w, limit)
		if len(s.Groups) > shown {
			fmt.Fprintf(w, "  … %d more (--verbose)\n", len(s.Groups)-shown)
		}
	}
	for _, k := range s.ProvidersAnalyzed {
		pc := a.Providers[k]
		fmt.Fprintf(w, "\n%s services\n", k)
		type kv struct {
			k string
			v float64
		}
		var list []kv
		for n, v := range pc.ServiceBreakdown {
			list = append(list, kv{n, v})
		}
		sort.Slice(list, func(i, j int) bool { return list[i].v > list[j].v })
		shown := 8
		if verbose {
			shown = len(list)
		}
		t := table{indent: "  ", noHeader: true, cols: []column{{name: "SERVICE", cut: cutEnd, min: 16}, {name: "COST", right: true}}}
		for i, e := range list {
			if i >= shown {
				break
			}
			t.add(e.k, money(e.v, cur))
		}
		t.print(w, limit)
		if len(list) > shown {
			fmt.Fprintf(w, "  … %d more (--verbose)\n", len(list)-shown)
		}
		if !verbose {
			continue
		}
		fmt.Fprintf(w, "%s top resources (%d with cost)\n", k, pc.ResourceCount)
		t = table{indent: "  ", cols: []column{{name: "RESOURCE", cut: cutMiddle, min: 16}, {name: "TYPE", cut: cutEnd, min: 8},
			{name: "REGION", cut: cutEnd, min: 8}, {name: "COST", right: true}}}
		for i, r := range pc.Resources {
			if i >= 15 {
				break
			}
			t.add(r.ResourceID, r.ResourceType, r.Region, money(r.Cost, cur))
		}
		t.print(w, limit)
		fmt.Fprintf(w, "%s daily costs\n", k)
		t = table{indent: "  ", noHeader: true, cols: []column{{name: "DAY"}, {name: "COST", right: true}}}
		for _, d := range pc.DailyCosts {
			t.add(d.Date, money(d.Cost, cur))
		}
		t.print(w, limit)
	}
	if pu := s.PerUnit; pu != nil && verbose {
		fmt.Fprintf(w, "\nCost per %s by day\n", pu.Metric)
		t := table{indent: "  ", cols: []column{{name: "DAY"}, {name: "COST", right: true}, {name: "UNITS", right: true}, {name: "PER UNIT", right: true}}}
		for _, d := range pu.DailyCosts {
			t.add(d.Date, money(d.Cost, cur), strconv.FormatFloat(d.Units, 'f', -1, 64), perUnitText(d.CostPerUnit, cur))
		}
		t.print(w, limit)
	}
}

// perUnitText is a cost per unit, "n/a" where there were no units.
func perUnitText(v *float64, cur string) string {
	if v == nil {
		return "n/a (no units)"
	}
	return moneyfmt.Rate(*v, cur)
}
