package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).kubernetesCmd) }

func (a *app) kubernetesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kubernetes",
		Short: "Kubernetes cost allocation: clusters, workload efficiency, OpenCost sync",
		Long: `Kubernetes costs are a split of the billed lines of the nodes (and volumes) pods ran on, in
the proportions OpenCost, the EKS split cost allocation data or GKE cost allocation give: group
or filter any analysis by cluster, namespace, workload, pod or label:KEY (costpilot analyze
--group-by namespace). Import allocations with costpilot import --format opencost|eks-split|gke
FILE, or
pull them from the clusters of kubernetes.clusters with costpilot kubernetes sync.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(a.kubernetesStatusCmd(), a.kubernetesSyncCmd())
	return cmd
}

func (a *app) kubernetesStatusCmd() *cobra.Command {
	var days int
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the stored clusters and each workload's requests, usage and efficiency",
		Long: `Show the clusters with allocations (their days, nodes and volumes, how many matched a billed
resource, and node-days with no billed line, whose allocations are estimated at OpenCost's
price), and each workload's average requests and usage per day over the last N complete days,
with usage ÷ request where OpenCost gives both. -o json is GET /api/kubernetes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				ov, err := svc.KubernetesOverview(cmd.Context(), days)
				if err != nil {
					return err
				}
				return a.emit(ov, func(w io.Writer) { printKubernetes(w, ov, a.width()) })
			})
		},
	}
	cmd.Flags().IntVar(&days, "days", service.DefaultDays, "the last N complete days of workload efficiency")
	a.outputFlag(cmd)
	return cmd
}

func (a *app) kubernetesSyncCmd() *cobra.Command {
	var cluster string
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Pull allocations from the OpenCost of each cluster in kubernetes.clusters",
		Long: `Read each configured cluster's OpenCost /allocation API (step=1d, down to pods, idle by node)
from the last day synced (again: OpenCost restates the day in progress) to today, or over
kubernetes.days at first, and store the allocations as splits of the bill. A cluster that fails
is reported and the others go on; the command fails when any did.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				res, err := svc.SyncKubernetes(cmd.Context(), cluster)
				if err != nil {
					return err
				}
				if err := a.emit(res, func(w io.Writer) {
					if len(res) == 0 {
						fmt.Fprintln(w, "no clusters configured (kubernetes.clusters)")
					}
					for _, r := range res {
						if r.Error != "" {
							fmt.Fprintf(w, "%s: failed: %s\n", r.Cluster, r.Error)
							continue
						}
						fmt.Fprintf(w, "%s: %s, %d allocations on %d nodes and volumes (%d in the bill)\n",
							r.Cluster, span(r.From, r.To), r.Allocations, r.Assets, r.Matched)
					}
				}); err != nil {
					return err
				}
				for _, r := range res {
					if r.Error != "" {
						return fmt.Errorf("kubernetes sync of %s failed", r.Cluster)
					}
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&cluster, "cluster", "", "only this cluster (a name of kubernetes.clusters)")
	a.outputFlag(cmd)
	return cmd
}

func printKubernetesImport(w io.Writer, res service.KubernetesImport) {
	for _, f := range res.Files {
		fmt.Fprintf(w, "imported %s\n  %s, %d allocations, %s, on %d nodes and volumes (%d in the bill)\n",
			f.Path, f.Format, f.Allocations, span(f.From, f.To), f.Assets, f.Matched)
		if f.Matched < f.Assets {
			fmt.Fprintln(w, "  allocations on nodes not in the bill keep their own price, marked estimated")
		}
	}
}

func printKubernetes(w io.Writer, ov service.KubernetesOverview, limit int) {
	if len(ov.Clusters) == 0 {
		fmt.Fprintln(w, "no Kubernetes allocations stored (costpilot import --format opencost FILE, or kubernetes sync)")
		return
	}
	tb := table{cols: []column{{name: "CLUSTER"}, {name: "DAYS"}, {name: "ASSETS", right: true}, {name: "IN BILL", right: true},
		{name: "ESTIMATED DAYS", right: true}}}
	for _, c := range ov.Clusters {
		tb.add(c.Name, span(c.FirstDay, c.LastDay), fmt.Sprint(c.Assets), fmt.Sprint(c.Matched), fmt.Sprint(c.EstimatedDays))
	}
	tb.print(w, limit)
	if len(ov.Workloads) == 0 {
		return
	}
	fmt.Fprintf(w, "\nworkloads, %s (average per day)\n", span(ov.Start, ov.End))
	tb = table{cols: []column{{name: "CLUSTER"}, {name: "NAMESPACE"}, {name: "WORKLOAD"}, {name: "CPU REQ", right: true},
		{name: "CPU USED", right: true}, {name: "CPU EFF", right: true}, {name: "RAM REQ GiB", right: true}, {name: "RAM EFF", right: true}}}
	eff := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100**p)
	}
	for _, x := range ov.Workloads {
		tb.add(x.Cluster, x.Namespace, x.Workload, fmt.Sprintf("%.2f", x.CPURequestCores), fmt.Sprintf("%.2f", x.CPUUsageCores),
			eff(x.CPUEfficiency), fmt.Sprintf("%.2f", x.RAMRequestBytes/(1<<30)), eff(x.RAMEfficiency))
	}
	tb.print(w, limit)
}
