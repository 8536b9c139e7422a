package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).aiCmd) }

func (a *app) aiCmd() *cobra.Command {
	var c costFlags
	var metric string
	cmd := &cobra.Command{
		Use:   "ai [--days N | --period KIND | --start YYYY-MM-DD --end YYYY-MM-DD] [filters]",
		Short: "AI model spend and cost per million tokens, by provider, model and project",
		Long: `Show the AI model usage of the period: the lines the bills name as tokens of a model
(Amazon Bedrock usage types, Azure OpenAI meters, Vertex AI SKUs, and the FOCUS files of AI
vendors such as Anthropic or OpenAI), per provider, model and project (the sub-account: an
OpenAI project, an Anthropic workspace, an AWS account, a Google Cloud project, an Azure
subscription), with the tokens, the cost per million tokens and the token kinds (input,
output, cached input, cache write). The filters are those of costpilot analyze; -o json
prints what GET /api/ai/costs returns.`,
		Example: `  costpilot ai --days 30
  costpilot ai --period last_month --provider anthropic
  costpilot ai --period this_month -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := c.request(cmd)
			if err != nil {
				return err
			}
			r.Metric = metric
			return a.withService(cmd, func(svc *service.Service) error {
				res, err := svc.AICosts(cmd.Context(), r)
				if err != nil {
					return err
				}
				return a.emit(res, func(w io.Writer) { printAICosts(w, res, a.width()) })
			})
		},
	}
	c.registerScope(cmd)
	cmd.Flags().StringVar(&metric, "metric", "", "cost metric: "+oneOf(model.CostMetrics)+" (default analysis.cost_metric)")
	a.outputFlag(cmd)
	return cmd
}

// perMillionText is a cost per million tokens, or a dash without tokens.
func perMillionText(v *float64, currency string) string {
	if v == nil {
		return "-"
	}
	return money(*v, currency)
}

func printAICosts(w io.Writer, r model.AICosts, limit int) {
	fmt.Fprintf(w, "AI model usage from %s to %s: %s", r.From, r.To, money(r.TotalCost, r.Currency))
	if r.CostPerMillionTokens != nil {
		fmt.Fprintf(w, ", %s tokens at %s per million", tokenCount(r.Tokens), money(*r.CostPerMillionTokens, r.Currency))
	}
	if r.CachedInputShare != nil {
		fmt.Fprintf(w, ", %s of input tokens from a cache", pct(*r.CachedInputShare))
	}
	fmt.Fprintln(w)
	if len(r.Models) == 0 {
		fmt.Fprintln(w, "\nNo AI model usage in the period (no line names tokens of a model).")
		return
	}
	fmt.Fprintln(w)
	t := table{cols: []column{{name: "PROVIDER"}, {name: "MODEL", cut: cutEnd, min: 12}, {name: "PROJECT", cut: cutMiddle, min: 8, optional: true},
		{name: "KIND"}, {name: "COST", right: true}, {name: "TOKENS", right: true}, {name: "PER 1M TOKENS", right: true}}}
	for _, m := range r.Models {
		name := m.ProviderName
		if name == "" {
			name = string(m.Provider)
		}
		t.add(name, m.Model, m.Project, "all", money(m.Cost, r.Currency), tokenCount(m.Tokens), perMillionText(m.CostPerMillionTokens, r.Currency))
		for _, k := range m.Kinds {
			t.add("", "", "", k.Kind, money(k.Cost, r.Currency), tokenCount(k.Tokens), perMillionText(k.CostPerMillionTokens, r.Currency))
		}
	}
	t.print(w, limit)
}

// tokenCount is a count of tokens, whole, its thousands grouped.
func tokenCount(n float64) string {
	s := strconv.FormatFloat(n, 'f', 0, 64)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
