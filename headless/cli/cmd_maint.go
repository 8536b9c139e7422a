package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func (a *app) cleanupCmd() *cobra.Command {
	var all, cacheOnly bool
	cmd := &cobra.Command{
		Use:   "cleanup [--cache] [--all]",
		Short: "Empty the cache, or also remove saved results and reports",
		Long: `--cache empties the cache without asking (a running dashboard also drops the answers it
keeps in memory). --all also removes saved runs, saved results and the reports costpilot wrote
in the output dir, after confirmation (--yes skips it; without a terminal, --yes is required).
Cost history and users are never touched.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !all && !cacheOnly {
				return usageError{"say what to clean: --cache, or --all"}
			}
			if all && !a.g.yes {
				ok, err := a.confirm("Remove saved runs, results and reports?")
				if err != nil {
					return err
				}
				if !ok {
					fmt.Fprintln(a.stderr, "nothing removed")
					return nil
				}
			}
			return a.withService(cmd, func(svc *service.Service) error {
				res, err := svc.ClearCache(cmd.Context())
				if err != nil {
					return err
				}
				if all {
					r2, err := svc.DeleteResults(cmd.Context())
					if err != nil {
						return err
					}
					res.Results, res.Reports = r2.Results, r2.Reports
				}
				fmt.Fprintf(a.stdout, "removed %d cache entries", res.CacheEntries)
				if all {
					fmt.Fprintf(a.stdout, ", %d saved results, %d reports", res.Results, res.Reports)
				}
				fmt.Fprintln(a.stdout)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&cacheOnly, "cache", false, "empty the cache")
	cmd.Flags().BoolVar(&all, "all", false, "also remove saved results and reports")
	cmd.Flags().BoolVarP(&a.g.yes, "yes", "y", false, "answer yes to the confirmation")
	return cmd
}

// confirm asks on the terminal; without one it refuses: nothing prompts
// unless stdin is a terminal (docs/architecture.md, "CLI").
func (a *app) confirm(q string) (bool, error) {
	f, ok := a.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, usageError{"confirmation needed and stdin is not a terminal: add --yes"}
	}
	fmt.Fprintf(a.stderr, "%s [y/N] ", q)
	line, _ := bufio.NewReader(f).ReadString('\n')
	ans := strings.ToLower(strings.TrimSpace(line))
	return ans == "y" || ans == "yes", nil
}

func (a *app) syncCmd() *cobra.Command {
	var provider string
	var days int
	cmd := &cobra.Command{
		Use:   "sync [--provider KEY] [--days N]",
		Short: "Pull provider data into the history",
		Long: `Pull costs, inventory and utilization from each enabled provider into the local history:
the whole simulated history for demo providers; for api providers the days not yet stored plus
the last three again (clouds restate recent days), reaching back --days on a first sync
(default 90). Exits 0 when costs synced (inventory or metrics failures are warnings), 1 when a
provider's costs failed; the other providers still sync.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				res, syncErr := svc.Sync(cmd.Context(), model.ProviderKey(provider), days)
				if res == nil && syncErr != nil {
					return syncErr
				}
				if err := a.emit(res, func(w io.Writer) { printSync(w, res, a.width()) }); err != nil {
					return err
				}
				return syncErr
			})
		},
	}
	cmd.Flags().StringVar(&provider, "provider", "", "only this provider: "+oneOf(model.AllProviders))
	cmd.Flags().IntVar(&days, "days", service.DefaultSyncDays, "how far back a first sync reaches")
	a.outputFlag(cmd)
	return cmd
}

func printSync(w io.Writer, res []service.SyncResult, limit int) {
	t := table{cols: []column{{name: "PROVIDER"}, {name: "SOURCE"}, {name: "DAYS"}, {name: "LINES", right: true},
		{name: "RESOURCES", right: true}, {name: "RESULT", cut: cutEnd, min: 12}}}
	for _, r := range res {
		result := "ok"
		switch {
		case r.Error != "":
			result = "FAILED: " + r.Error
		case r.Skipped:
			result = "skipped: " + r.Warning
		case r.Warning != "":
			result = "ok, warning: " + r.Warning
		}
		t.add(string(r.Provider), string(r.Source), span(r.From, r.To), fmt.Sprint(r.Lines), fmt.Sprint(r.Resources), result)
	}
	t.print(w, limit)
}
