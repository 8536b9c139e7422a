package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func (a *app) initCmd() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a commented configuration file",
		Long: `Write a commented configuration file to --config (or the default path,
$XDG_CONFIG_HOME/costpilot/config.yaml). It enables all four providers on the demo source;
edit it to switch a provider to api or export (aws also athena). An existing file is kept unless --force.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := service.InitConfig(a.g.configPath, force)
			if err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	return cmd
}

func (a *app) validateConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate-config",
		Short: "Check the configuration and list every error with its field",
		Long: `Check the configuration file (see costpilot --help for how it is found). Prints
"configuration is valid", or every error with its field by dotted path (exit 2). Invalid YAML
is reported with its line number.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutput(); err != nil {
				return err
			}
			res, err := service.ValidateConfig(a.g.configPath)
			if err != nil {
				if e, ok := apperr.As(err); ok && e.Kind == apperr.Configuration && a.g.output == outputJSON {
					_ = a.emit(map[string]any{"valid": false, "errors": []map[string]any{{"field": "", "message": e.Text(), "line": e.Details["line"]}}, "path": res.Path}, nil)
				}
				return err
			}
			_ = a.emit(res, func(w io.Writer) {
				if res.Valid {
					fmt.Fprintln(w, "configuration is valid")
				}
			})
			if !res.Valid {
				if a.g.output != outputJSON {
					for _, e := range res.Errors {
						fmt.Fprintf(a.stderr, "%s: %s\n", e.Field, e.Message)
					}
				}
				return apperr.E(apperr.Configuration, "%d configuration error(s) in %s", len(res.Errors), displayPath(res.Path))
			}
			return nil
		},
	}
	a.outputFlag(cmd)
	return cmd
}

func displayPath(p string) string {
	if p == "" {
		return "the built-in defaults"
	}
	return p
}

func (a *app) statusCmd() *cobra.Command {
	var detailed bool
	cmd := &cobra.Command{
		Use:   "status [--detailed]",
		Short: "Show whether each enabled provider is connected",
		Long: `Show whether each enabled provider is connected (provider key to true/false, as GET /api/status).
--detailed adds the source, the error when not connected, and the stored history's extent.
Below the table, scheduled report deliveries that failed and wait for their retry are listed,
as on the dashboard's Status page (the JSON output keeps the API's shape: GET /api/schedules
has the deliveries).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				retries := func(w io.Writer) { printRetries(cmd.Context(), w, svc, a.width()) }
				if detailed {
					d, err := svc.ProviderDetails(cmd.Context())
					if err != nil {
						return err
					}
					return a.emit(d, func(w io.Writer) { printDetails(w, d, a.width()); retries(w) })
				}
				st, err := svc.ProviderStatus(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(st, func(w io.Writer) {
					for _, k := range providerOrder(st) {
						if v, ok := st[k]; ok {
							word := "connected"
							if !v {
								word = "NOT connected (costpilot status --detailed says why)"
							}
							fmt.Fprintf(w, "%-6s %s\n", k, word)
						}
					}
					retries(w)
				})
			})
		},
	}
	cmd.Flags().BoolVar(&detailed, "detailed", false, "show source, errors and history per provider")
	a.outputFlag(cmd)
	return cmd
}

// printDetails puts each provider's error, which can be long, below the
// table, wrapped to the width rather than cut.
func printDetails(w io.Writer, d []model.ProviderDetail, limit int) {
	t := table{cols: []column{{name: "PROVIDER"}, {name: "ENABLED"}, {name: "SOURCE"}, {name: "CONNECTED"},
		{name: "HISTORY"}, {name: "LINES", right: true}, {name: "LAST SYNC", optional: true}}}
	for _, p := range d {
		name, src := string(p.Provider), string(p.Source)
		if p.Imported {
			// Beyond the clouds: no connector, only imported FOCUS files.
			name, src = fmt.Sprintf("%s (%s)", p.Provider, p.Name), "imported files"
		}
		t.add(name, yesNo(p.Enabled), src, yesNo(p.Connected), span(p.FirstDay, p.LastDay),
			fmt.Sprint(p.Lines), stamp(p.LastSync))
	}
	t.print(w, limit)
	for _, p := range d {
		if p.Error == "" {
			continue
		}
		fmt.Fprintln(w)
		for _, l := range wrap(string(p.Provider)+": "+p.Error, limit, "  ") {
			fmt.Fprintln(w, l)
		}
	}
}

// printRetries lists the scheduled deliveries whose last attempt failed
// and that wait for a retry, each whole, wrapped to the width.
func printRetries(ctx context.Context, w io.Writer, svc *service.Service, limit int) {
	views, err := svc.Schedules(ctx)
	if err != nil {
		fmt.Fprintln(w)
		for _, l := range wrap("scheduled reports: cannot read their deliveries: "+err.Error(), limit, "  ") {
			fmt.Fprintln(w, l)
		}
		return
	}
	first := true
	for _, v := range views {
		if v.LastError == "" || v.NextRetry == "" {
			continue
		}
		if first {
			fmt.Fprintln(w)
			fmt.Fprintln(w, "Scheduled reports waiting to retry a failed delivery:")
			first = false
		}
		for _, l := range wrap(fmt.Sprintf("%s: %s; next try %s", v.Schedule.Name, v.LastError, v.NextRetry), limit, "    ") {
			fmt.Fprintln(w, "  "+l)
		}
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (a *app) healthCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "health",
		Short: "Check the database, cache, disk space and providers",
		Long: `Check that the database is writable, the cache usable, the data and output dirs have
disk space, each enabled provider answers, and how old the newest data is. Exits non-zero only
when something is unhealthy; warnings (such as stale data) exit 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				h := svc.CheckHealth(cmd.Context())
				if err := a.emit(h, func(w io.Writer) {
					t := table{noHeader: true, cols: []column{{name: "STATUS"}, {name: "CHECK"}, {name: "MESSAGE", cut: cutEnd, min: 20}}}
					for _, c := range h.Checks {
						t.add(c.Status, c.Name, c.Message)
					}
					t.print(w, a.width())
					fmt.Fprintln(w, h.Status)
				}); err != nil {
					return err
				}
				if h.Status == "unhealthy" {
					return apperr.E(apperr.Base, "unhealthy")
				}
				return nil
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}

func (a *app) infoCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "info",
		Short: "Show version, paths, providers and stored history",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				in, err := svc.Info(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(in, func(w io.Writer) {
					tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
					fmt.Fprintf(tw, "version\t%s\nconfig\t%s\ndata dir\t%s\ndatabase\t%s (schema %d)\nreports\t%s\ncurrency\t%s\n",
						in.Version, in.ConfigPath, in.DataDir, in.Database, in.Schema, in.OutputDir, in.Currency)
					tw.Flush()
					fmt.Fprintln(w)
					t := table{cols: []column{{name: "PROVIDER"}, {name: "ENABLED"}, {name: "SOURCE"}, {name: "HISTORY"}, {name: "LINES", right: true}}}
					for _, p := range in.Providers {
						t.add(string(p.Provider), yesNo(p.Enabled), string(p.Source), span(p.FirstDay, p.LastDay), fmt.Sprint(p.Lines))
					}
					t.print(w, a.width())
					keys := make([]string, 0, len(in.Features))
					for k := range in.Features {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					fmt.Fprint(w, "\nfeatures:")
					for _, k := range keys {
						fmt.Fprintf(w, " %s=%v", k, in.Features[k])
					}
					fmt.Fprintf(w, "\nconnectors: %v\n", in.Connectors)
				})
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(a.stdout, "costpilot", service.Version)
			return nil
		},
	}
}
