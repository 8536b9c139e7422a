package cli

import (
	"fmt"
	"github.com/costpilot/costpilot/backend/service"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

func init() { register((*app).metricsCmd) }

func (a *app) metricsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "metrics",
		Short: "Show performance metrics: requests, response time, errors, cache, memory, CPU",
		Long: `Show costpilot's performance metrics. Request counts, average response time
and error rate come from the dashboard's counters, persisted per UTC day in the database, so this
works with no server running; the cache hit rate counts every cache lookup persisted the same
way; memory and CPU are this process's share of the machine. Rates are 0 when nothing was
counted. -o json has GET /api/performance's six fields at the top level, plus since_start and days.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				r, err := svc.Metrics(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(r, func(w io.Writer) {
					tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
					fmt.Fprintf(tw, "total requests\t%d\n", r.TotalRequests)
					fmt.Fprintf(tw, "average response time\t%.1f ms\n", 1000*r.AverageResponseTime)
					fmt.Fprintf(tw, "error rate\t%s\n", pct(r.ErrorRate))
					fmt.Fprintf(tw, "cache hit rate\t%s\n", pct(r.CacheHitRate))
					fmt.Fprintf(tw, "memory usage\t%.0f MB, %s of the machine (this process)\n", float64(r.MemoryBytes)/1e6, pct(r.MemoryUsage))
					fmt.Fprintf(tw, "cpu usage\t%s of the machine (this process)\n", pct(r.CPUUsage))
					tw.Flush()
					if len(r.Days) == 0 {
						fmt.Fprintln(w, "\nno requests recorded yet (the dashboard records them)")
						return
					}
					fmt.Fprintln(w)
					tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
					fmt.Fprintln(tw, "day\trequests\terrors\tavg ms\tcache hits\tcache misses\t")
					for _, d := range r.Days {
						fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%d\t%d\t\n", d.Day, d.Requests, d.Errors, 1000*d.AverageResponseTime, d.CacheHits, d.CacheMisses)
					}
					tw.Flush()
				})
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}
