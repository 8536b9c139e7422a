package cli

import (
	"fmt"
	"io"
	"os/user"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).viewsCmd) }

func (a *app) viewsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "views list|save|delete",
		Short: "Manage saved views (a named period, metric, grouping and filters)",
		Long: `Saved views are shared by every user of the data dir: the dashboard lists them in its
sidebar, and analyze --view NAME and report --view NAME use them.`,
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the saved views",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				views, err := svc.Views(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(views, func(w io.Writer) { printViews(w, views, a.width()) })
			})
		},
	}
	var cf costFlags
	var replace bool
	save := &cobra.Command{
		Use:   "save NAME [--period KIND | --days N | --start D --end D] [--group-by DIM] [filters]",
		Short: "Save a view; --replace changes an existing one",
		Example: `  costpilot views save "Platform by service" --period last_month --group-by service --tag team:platform
  costpilot views save "Compute regions" --days 90 --granularity week --group-by region --replace`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := cf.request(cmd)
			if err != nil {
				return err
			}
			spec := model.ViewSpec{Period: model.PeriodKind(req.Period), Start: req.Start, End: req.End,
				Granularity: model.Granularity(req.Granularity), Metric: model.CostMetric(req.Metric),
				GroupBy: model.Dimension(req.GroupBy), Filters: req.Filters}
			if req.Days != nil {
				spec.Days = *req.Days
			}
			return a.withService(cmd, func(svc *service.Service) error {
				v, err := svc.SaveView(cmd.Context(), args[0], spec, cliUser(), replace)
				if err != nil {
					return err
				}
				return a.emit(v, func(w io.Writer) { fmt.Fprintf(w, "saved view %q: %s\n", v.Name, describeView(v.Spec)) })
			})
		},
	}
	cf.register(save, false)
	save.Flags().BoolVar(&replace, "replace", false, "replace the view of that name")
	del := &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete a saved view",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				if err := svc.DeleteView(cmd.Context(), args[0]); err != nil {
					return err
				}
				return a.emit(map[string]string{"deleted": args[0]}, func(w io.Writer) { fmt.Fprintf(w, "deleted view %q\n", args[0]) })
			})
		},
	}
	for _, c := range []*cobra.Command{list, del} {
		a.outputFlag(c)
	}
	a.outputFlag(save)
	cmd.AddCommand(list, save, del)
	return cmd
}

// cliUser is who saves a view from the command line.
func cliUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return "cli:" + u.Username
	}
	return cliActor
}

func printViews(w io.Writer, views []model.SavedView, limit int) {
	if len(views) == 0 {
		fmt.Fprintln(w, "No saved views: costpilot views save NAME --period last_month --group-by service")
		return
	}
	t := table{cols: []column{{name: "NAME", cut: cutEnd, min: 12}, {name: "VIEW", cut: cutEnd, min: 20}, {name: "BY"}, {name: "UPDATED"}}}
	for _, v := range views {
		t.add(v.Name, describeView(v.Spec), v.CreatedBy, stamp(v.UpdatedAt))
	}
	t.print(w, limit)
}

// describeView says what a view shows in one line.
func describeView(s model.ViewSpec) string {
	var parts []string
	switch {
	case s.Start != "":
		parts = append(parts, s.Start+".."+s.End)
	case s.Period != "" && s.Period != model.PeriodDays:
		parts = append(parts, string(s.Period))
	case s.Days != 0:
		parts = append(parts, fmt.Sprintf("%d days", s.Days))
	default:
		parts = append(parts, fmt.Sprintf("%d days", service.DefaultDays))
	}
	if s.Granularity != "" {
		parts = append(parts, "by "+string(s.Granularity))
	}
	if s.Metric != "" {
		parts = append(parts, string(s.Metric))
	}
	if s.GroupBy != "" {
		parts = append(parts, "grouped by "+string(s.GroupBy))
	}
	keys := make([]string, 0, len(s.Filters))
	for k := range s.Filters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+strings.Join(s.Filters[k], "|"))
	}
	return strings.Join(parts, ", ")
}
