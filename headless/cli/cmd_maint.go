package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
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
	var provider, start, end string
	var days int
	var strict bool
	cmd := &cobra.Command{
		Use:   "sync [--provider KEY] [--days N | --start YYYY-MM-DD [--end YYYY-MM-DD]] [--strict]",
		Short: "Pull provider data into the history",
		Long: `Pull costs, inventory and utilization from each enabled provider into the local history:
the whole simulated history for demo providers; for export providers the new or changed files
of export_paths; for api providers (and the AI vendors openai and anthropic) the days not yet
stored plus the last three again (clouds restate recent days), reaching back --days on a first
sync (default 90); for each focus_sources item (without --provider or --start) its file, fetched
when it changed, imported when new (rows "focus:NAME"). --start (and --end, default yesterday) backfill exactly those days (UTC,
inclusive), stored or not; they replace what is stored there.

Reads (analyze, report, recommend…) only read what is stored and say how old it is; sync, the
dashboard's and the desktop app's start and their background refresh (every 30 seconds) bring
it up to date.

Each warning and failure is printed whole under the table (-o json lists them in warnings).
Exits 0 when costs synced (inventory or metrics failures are warnings), 1 when a provider's
costs failed, the other providers still syncing; with --strict also 1 when any part warned.`,
		Example: `  costpilot sync
  costpilot sync --provider azure --start 2026-01-01
  costpilot sync --start 2026-03-01 --end 2026-03-31 --strict -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			req := service.SyncRequest{Provider: model.ProviderKey(provider), Start: start, End: end}
			if cmd.Flags().Changed("days") {
				if start != "" || end != "" {
					return usageError{"give either --days or --start/--end, not both"}
				}
				req.Days = &days
			}
			if end != "" && start == "" {
				return usageError{"--end needs --start"}
			}
			return a.withService(cmd, func(svc *service.Service) error {
				res, syncErr := svc.RunSync(cmd.Context(), req)
				if res == nil && syncErr != nil {
					return syncErr
				}
				if err := a.emit(res, func(w io.Writer) { printSync(w, res, a.width()) }); err != nil {
					return err
				}
				if syncErr == nil && strict {
					return strictSync(res)
				}
				return syncErr
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&provider, "provider", "", "only this provider: "+oneOf(append(slices.Clone(model.AllProviders), model.Vendors...)))
	f.IntVar(&days, "days", service.DefaultSyncDays, "how far back a first sync reaches")
	f.StringVar(&start, "start", "", "backfill from this day, YYYY-MM-DD (not with --days)")
	f.StringVar(&end, "end", "", "backfill up to this day, YYYY-MM-DD, inclusive (with --start; default yesterday)")
	f.BoolVar(&strict, "strict", false, "exit 1 when any part of the sync warned, not only when costs failed")
	a.outputFlag(cmd)
	return cmd
}

// strictSync is --strict's verdict: an error naming the providers that
// warned, nil when none did. Skipped (export) providers are not synced by
// design, so they do not count.
func strictSync(res []service.SyncResult) error {
	var warned []string
	for _, r := range res {
		if r.Error != "" || (!r.Skipped && len(r.Warnings) > 0) {
			warned = append(warned, syncName(r))
		}
	}
	if len(warned) == 0 {
		return nil
	}
	return fmt.Errorf("sync --strict: %s warned", strings.Join(warned, ", "))
}

// syncName is the row name of a sync result: its provider, or its FOCUS
// source.
func syncName(r service.SyncResult) string {
	if r.FocusSource != "" {
		return "focus:" + r.FocusSource
	}
	return string(r.Provider)
}

// printSync prints a row per provider, then each failure, skip reason
// and warning whole, wrapped to limit columns (0: one line each).
func printSync(w io.Writer, res []service.SyncResult, limit int) {
	t := table{cols: []column{{name: "PROVIDER"}, {name: "SOURCE"}, {name: "DAYS"}, {name: "LINES", right: true},
		{name: "RESOURCES", right: true}, {name: "RESULT"}}}
	type note struct{ provider, kind, text string }
	var notes []note
	for _, r := range res {
		result := "ok"
		name := syncName(r)
		switch {
		case r.Error != "":
			result = "FAILED"
			notes = append(notes, note{name, "failed", r.Error})
		case r.Skipped && r.FocusSource != "":
			result = "not due"
		case r.Skipped:
			result = "skipped"
			notes = append(notes, note{name, "skipped", r.Warning})
		case len(r.Warnings) > 0:
			result = fmt.Sprintf("ok, %d warnings", len(r.Warnings))
			if len(r.Warnings) == 1 {
				result = "ok, 1 warning"
			}
			for _, wn := range r.Warnings {
				notes = append(notes, note{name, "warning", wn})
			}
		}
		t.add(name, string(r.Source), span(r.From, r.To), fmt.Sprint(r.Lines), fmt.Sprint(r.Resources), result)
	}
	t.print(w, limit)
	if len(notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, n := range notes {
		text := n.text
		if !strings.HasPrefix(text, n.provider+":") {
			text = n.provider + ": " + text
		}
		for _, l := range fold(n.kind+": "+text, limit, "  ") {
			fmt.Fprintln(w, l)
		}
	}
}

// fold is wrap that never cuts: a word longer than the room left (a
// resource id, a URL) is broken across lines, so every character shows.
func fold(s string, n int, indent string) []string {
	if n <= width(indent) {
		return []string{s}
	}
	var lines []string
	cur, empty := "", true
	flush := func() { lines, cur, empty = append(lines, cur), indent, true }
	for _, word := range strings.Fields(s) {
		if !empty && width(cur)+1+width(word) > n {
			flush()
		}
		if !empty {
			cur += " "
		}
		for r := []rune(word); ; {
			room := n - width(cur)
			if len(r) <= room {
				cur += string(r)
				break
			}
			cur += string(r[:room])
			flush()
			r = r[room:]
		}
		empty = false
	}
	return append(lines, cur)
}
