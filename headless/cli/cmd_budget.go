package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).budgetCmd) }

func (a *app) budgetCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "budget",
		Short: "List, set and delete budgets",
		Long: `Budgets measure the spend of their current month or quarter against an amount, with the
forecast to the period's end. Budgets from the config file are listed beside those made here,
in the dashboard or through the API; only the latter are changed here. A budget set with
--per METRIC (a business metric of costpilot units) limits the cost per unit instead: its
amount, actual and forecast are the cost per unit of its scope over its period.`,
	}
	cmd.AddCommand(a.budgetListCmd(), a.budgetSetCmd(), a.budgetDeleteCmd())
	return cmd
}

func (a *app) budgetListCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Every budget with its spend, forecast and the thresholds crossed",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				bs, err := svc.Budgets(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(bs, func(w io.Writer) { printBudgets(w, bs, a.width()) })
			})
		},
	}
	a.outputFlag(cmd)
	return cmd
}

func printBudgets(w io.Writer, bs []service.BudgetView, limit int) {
	if len(bs) == 0 {
		fmt.Fprintln(w, "No budgets: add one with costpilot budget set NAME --amount N.")
		return
	}
	t := table{cols: []column{{name: "NAME", cut: cutEnd, min: 10}, {name: "PERIOD"}, {name: "BUDGET", right: true},
		{name: "ACTUAL", right: true}, {name: "FORECAST", right: true}, {name: "CROSSED", right: true}, {name: "SOURCE", optional: true}}}
	for _, b := range bs {
		st := b.Status
		if !b.Measured {
			t.add(budgetLabel(st.Budget), st.Budget.Period, money(st.Budget.Amount, ""), "—", "—", b.Unmeasured, b.Source)
			continue
		}
		fc := "—"
		if st.HasForecast {
			fc = money(st.Projected, st.Currency)
		}
		crossed := "—"
		if st.ActualThreshold > 0 || st.ForecastThreshold > 0 {
			crossed = fmt.Sprintf("%g%%, forecast %g%%", st.ActualThreshold, st.ForecastThreshold)
		}
		if st.Budget.Per != "" {
			fc = "—"
			if st.HasForecast {
				fc = moneyfmt.Rate(st.Projected, st.Currency)
			}
			t.add(budgetLabel(st.Budget), st.Period, moneyfmt.Rate(st.Budget.Amount, st.Currency), moneyfmt.Rate(st.Actual, st.Currency), fc, crossed, b.Source)
			continue
		}
		t.add(st.Budget.Name, st.Period, money(st.Budget.Amount, st.Currency), money(st.Actual, st.Currency), fc, crossed, b.Source)
	}
	t.print(w, limit)
}

// budgetLabel is a budget's name, with the metric of a budget on cost
// per unit.
func budgetLabel(b config.Budget) string {
	if b.Per == "" {
		return b.Name
	}
	return b.Name + " (per " + b.Per + ")"
}

func (a *app) budgetSetCmd() *cobra.Command {
	var b config.Budget
	var provider string
	cmd := &cobra.Command{
		Use:   "set NAME",
		Short: "Create a budget, or change the one of that name made outside the config file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b.Name = args[0]
			if provider != "" {
				if !model.ProviderKey(provider).Valid() {
					return usageError{fmt.Sprintf("--provider must be %s, got %q", providerChoices(), provider)}
				}
				b.Scope.Provider = model.ProviderKey(provider)
			}
			return a.withService(cmd, func(svc *service.Service) error {
				var id int64
				existing, err := svc.Budgets(cmd.Context())
				if err != nil {
					return err
				}
				for _, e := range existing {
					if e.Source == service.BudgetFromDashboard && e.Status.Budget.Name == b.Name {
						id = e.ID
					}
				}
				v, err := svc.SaveBudget(cmd.Context(), id, b, cliActor)
				if err != nil {
					return err
				}
				return a.emit(v, func(w io.Writer) { printBudgets(w, []service.BudgetView{v}, a.width()) })
			})
		},
	}
	cmd.Flags().Float64Var(&b.Amount, "amount", 0, "the budget for each period (required)")
	cmd.Flags().StringVar(&b.Period, "period", "monthly", "monthly or quarterly")
	cmd.Flags().StringVar(&provider, "provider", "", "only this provider: "+providerChoices())
	cmd.Flags().StringVar(&b.Scope.Account, "account", "", "only this billing account or sub-account")
	cmd.Flags().StringVar(&b.Scope.Service, "service", "", "only this service")
	cmd.Flags().StringVar(&b.Scope.Category, "category", "", `only this service category ("AI and Machine Learning")`)
	cmd.Flags().StringVar(&b.Scope.Tag, "tag", "", "only lines with this tag, key:value")
	cmd.Flags().StringVar(&b.Scope.Cluster, "cluster", "", "only this Kubernetes cluster's pods' shares of their nodes")
	cmd.Flags().StringVar(&b.Scope.Namespace, "namespace", "", "only this Kubernetes namespace's pods' shares of their nodes")
	cmd.Flags().StringVar(&b.Per, "per", "", "a business metric (costpilot units): the amount is then a limit on the cost per unit")
	_ = cmd.MarkFlagRequired("amount")
	a.outputFlag(cmd)
	return cmd
}

func (a *app) budgetDeleteCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete a budget made outside the config file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				bs, err := svc.Budgets(cmd.Context())
				if err != nil {
					return err
				}
				for _, b := range bs {
					if b.Status.Budget.Name != args[0] {
						continue
					}
					if b.Source != service.BudgetFromDashboard {
						return apperr.E(apperr.Validation, "budget %q is in the config file: remove it there", args[0])
					}
					if err := svc.DeleteBudget(cmd.Context(), b.ID, cliActor); err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "deleted budget %q\n", args[0])
					return nil
				}
				return apperr.E(apperr.NotFound, "no budget named %q", args[0])
			})
		},
	}
}
