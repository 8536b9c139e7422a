package cli

import (
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func (a *app) analyzeCmd() *cobra.Command {
	var days int
	var start, end, metric, provider, account, svcName, tag string
	var verbose bool
	cmd := &cobra.Command{
		Use:   "analyze [--days N | --start YYYY-MM-DD --end YYYY-MM-DD]",
		Short: "Analyze costs over a period across the enabled providers",
		Long: `Analyze costs over the last N days (default 30, ending now) or the inclusive dates
--start..--end (UTC): the total, each provider's total, service breakdown, top resources and
daily costs. -o json prints exactly the dashboard API's GET /api/costs answer; -o wide prints
whole resource ids.`,
		Example: `  costpilot analyze --days 90
  costpilot analyze --start 2026-01-01 --end 2026-01-31 --provider aws -o json
  costpilot analyze --tag team:data --metric effective --verbose`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				req := service.CostRequest{Start: start, End: end, Metric: metric, Provider: provider, Account: account,
					Service: svcName, Tag: tag}
				if cmd.Flags().Changed("days") {
					req.Days = &days
				}
				q, err := svc.CostQuery(req)
				if err != nil {
					return err
				}
				res, err := svc.AnalyzeCosts(cmd.Context(), q)
				if err != nil {
					return err
				}
				return a.emit(res, func(w io.Writer) { printAnalysis(w, res, verbose, a.width()) })
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&days, "days", 30, "analyze the last N days (1-365)")
	f.StringVar(&start, "start", "", "first day, YYYY-MM-DD (with --end)")
	f.StringVar(&end, "end", "", "last day, YYYY-MM-DD, inclusive (with --start)")
	f.StringVar(&metric, "metric", "", "cost metric: "+oneOf(model.CostMetrics)+" (default analysis.cost_metric)")
	f.StringVar(&provider, "provider", "", "only this provider: "+oneOf(model.AllProviders))
	f.StringVar(&account, "account", "", "only this billing account or sub-account")
	f.StringVar(&svcName, "service", "", "only this service")
	f.StringVar(&tag, "tag", "", "only resources with this tag, key:value")
	f.BoolVarP(&verbose, "verbose", "v", false, "also print daily costs and top resources")
	a.outputFlag(cmd)
	return cmd
}

func printAnalysis(w io.Writer, a model.CostAnalysis, verbose bool, limit int) {
	s := a.Summary
	cur := s.Currency
	fmt.Fprintf(w, "Costs %s (%s cost)\n", span(s.AnalysisPeriod.StartDate, s.AnalysisPeriod.EndDate), s.Metric)
	fmt.Fprintf(w, "Total: %s\n", money(s.TotalCost, cur))
	for c, r := range s.RatesUsed {
		fmt.Fprintf(w, "  converted %s at %g %s\n", c, r, cur)
	}
	for _, n := range s.Notices {
		for _, l := range wrap("Note: "+n.Message, limit, "  ") {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintln(w)
	t := table{cols: []column{{name: "PROVIDER"}, {name: "SOURCE"}, {name: "TOTAL", right: true}, {name: "SHARE", right: true}}}
	for _, k := range s.ProvidersAnalyzed {
		pc := a.Providers[k]
		share := 0.0
		if s.TotalCost != 0 {
			share = pc.TotalCost / s.TotalCost
		}
		t.add(string(k), string(pc.Source), money(pc.TotalCost, cur), pct(share))
	}
	t.print(w, limit)
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
}
