package cli

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

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
daily costs. -o json prints exactly the /api/costs answer (docs/api.md).`,
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
				return a.emit(res, func(w io.Writer) { printAnalysis(w, res, verbose) })
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&days, "days", 30, "analyze the last N days (1-365)")
	f.StringVar(&start, "start", "", "first day, YYYY-MM-DD (with --end)")
	f.StringVar(&end, "end", "", "last day, YYYY-MM-DD, inclusive (with --start)")
	f.StringVar(&metric, "metric", "", "cost metric: billed, effective (amortized) or list (default from config)")
	f.StringVar(&provider, "provider", "", "only this provider: aws, azure, gcp or oci")
	f.StringVar(&account, "account", "", "only this billing account or sub-account")
	f.StringVar(&svcName, "service", "", "only this service")
	f.StringVar(&tag, "tag", "", "only resources with this tag, key:value")
	f.BoolVarP(&verbose, "verbose", "v", false, "also print daily costs and top resources")
	a.outputFlag(cmd)
	return cmd
}

func printAnalysis(w io.Writer, a model.CostAnalysis, verbose bool) {
	s := a.Summary
	cur := s.Currency
	fmt.Fprintf(w, "Costs %s to %s (%s cost)\n", s.AnalysisPeriod.StartDate, s.AnalysisPeriod.EndDate, s.Metric)
	fmt.Fprintf(w, "Total: %s\n", money(s.TotalCost, cur))
	for c, r := range s.RatesUsed {
		fmt.Fprintf(w, "  converted %s at %g %s\n", c, r, cur)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "PROVIDER\tSOURCE\tTOTAL\tSHARE\t")
	for _, k := range s.ProvidersAnalyzed {
		pc := a.Providers[k]
		share := 0.0
		if s.TotalCost != 0 {
			share = pc.TotalCost / s.TotalCost
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", k, pc.Source, money(pc.TotalCost, cur), pct(share))
	}
	tw.Flush()
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
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		limit := 8
		if verbose {
			limit = len(list)
		}
		for i, e := range list {
			if i >= limit {
				fmt.Fprintf(tw, "  … %d more (--verbose)\t\n", len(list)-limit)
				break
			}
			fmt.Fprintf(tw, "  %s\t%s\n", truncate(e.k, 50), money(e.v, cur))
		}
		tw.Flush()
		if !verbose {
			continue
		}
		fmt.Fprintf(w, "%s top resources (%d with cost)\n", k, pc.ResourceCount)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for i, r := range pc.Resources {
			if i >= 15 {
				break
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", truncate(r.ResourceID, 60), r.ResourceType, r.Region, money(r.Cost, cur))
		}
		tw.Flush()
		fmt.Fprintf(w, "%s daily costs\n", k)
		for _, d := range pc.DailyCosts {
			fmt.Fprintf(w, "  %s  %s\n", d.Date, money(d.Cost, cur))
		}
	}
}
