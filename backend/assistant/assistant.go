// Package assistant serves costpilot to AI assistants over the Model
// Context Protocol: tools for the read operations (costs with every
// period, grouping and filter, recommendations, forecast, allocation,
// provider status, budgets, anomalies, commitments), resources for saved
// views and reports, and, only when allowed, tools that change state. Every
// answer is compact (the top N and a total of the rest), so a model reads
// kilobytes, not the megabytes the full API answers can be. The tools call
// the Service, so roles and rules apply as at every other front door.
package assistant

import (
	"context"
	"fmt"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// Options configure the server.
type Options struct {
	// Version is costpilot's version, told to clients.
	Version string
	// AllowWrites adds the tools that change state (mcp.allow_writes).
	AllowWrites bool
	// Actor names who acts in the audit log for a context (the CLI's local
	// user, the dashboard's signed-in user).
	Actor func(context.Context) string
}

// Limits of an answer.
const (
	defaultTop = 10
	maxTop     = 50
)

// instructions tell a model what the server is for and how to use it.
const instructions = `costpilot holds the cost history of AWS, Azure, Google Cloud and Oracle Cloud (live APIs,
billing exports or demo data), and of the providers imported from FOCUS files (AI vendors such as
anthropic or openai, SaaS), keyed like the clouds. Start with analyze_costs: choose a period (a calendar kind like
last_month, or days, or start and end) and a group_by dimension to see what drove a change;
narrow with filters, then drill down (filter on the group, group by the next dimension:
provider -> service -> resource). Money is in the answer's currency; change_pct compares with the
previous span of equal length or calendar unit. list_recommendations lists savings, forecast_costs
the outlook, list_anomalies unusual days with the services that drove them, ai_costs the AI model
spend with its cost per million tokens.`

// New returns the MCP server of a Service.
func New(svc *service.Service, o Options) *mcp.Server {
	if o.Actor == nil {
		o.Actor = func(context.Context) string { return "assistant" }
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "costpilot", Title: "costpilot cloud costs", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	t := &tools{svc: svc, o: o}
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "analyze_costs", Annotations: readOnly, Description: `Total cost of a period and
how it splits by a dimension, against the previous span of the same length (or calendar unit).
Use group_by to explain a total (provider, billing_account, sub_account, service,
service_category, region, resource, charge_category, or tag:KEY; Kubernetes: cluster, namespace,
workload, pod or label:KEY, splits of the billed node lines with (idle) for unused node shares)
and the filters to narrow it.
Returns the total, its change, each provider's total and the top groups with the rest summed.`}, t.analyze)
	mcp.AddTool(s, &mcp.Tool{Name: "list_recommendations", Annotations: readOnly, Description: `Savings
recommendations (rightsizing, idle resources, autoscaling, cost allocation, commitments), largest
monthly savings first, with their state (open by default; dismissed, snoozed, done or all).`}, t.recommendations)
	mcp.AddTool(s, &mcp.Tool{Name: "forecast_costs", Annotations: readOnly, Description: `Forecast of the
total cost of the next N days (default 30) with its 95 % band, per provider, the month-end
forecast, the model's measured accuracy and the budgets it will cross.`}, t.forecast)
	mcp.AddTool(s, &mcp.Tool{Name: "allocate_costs", Annotations: readOnly, Description: `Splits the costs of the
last 30 days among teams or departments by tags (the first tag key a line has decides), with the
unallocated rest.`}, t.allocate)
	mcp.AddTool(s, &mcp.Tool{Name: "provider_status", Annotations: readOnly, Description: `Each cloud provider:
enabled or not, where its data comes from (api, export, demo), whether it is connected, its last
sync and error, and the days its history covers. Use it when numbers look missing or old.`}, t.status)
	mcp.AddTool(s, &mcp.Tool{Name: "list_budgets", Annotations: readOnly, Description: `Budgets with their
amount, spend so far in the current period, the forecast to the period's end and the thresholds
crossed.`}, t.budgets)
	mcp.AddTool(s, &mcp.Tool{Name: "list_anomalies", Annotations: readOnly, Description: `Days whose cost stood
far above the usual for that weekday, per provider and per service, newest first, with the
services that drove them and whether someone acknowledged or ignored them.`}, t.anomalies)
	mcp.AddTool(s, &mcp.Tool{Name: "get_commitments", Annotations: readOnly, Description: `Reservations, savings
plans and committed use discounts: coverage of eligible usage, utilization of what was bought,
unused cost, net savings, and the commitments expiring within 90 days.`}, t.commitments)
	mcp.AddTool(s, &mcp.Tool{Name: "ai_costs", Annotations: readOnly, Description: `AI model usage of a period (Bedrock,
Azure OpenAI, Vertex AI lines of the cloud bills, and AI vendors' FOCUS files) per provider,
model and project, with the tokens, the cost per million tokens, the token kinds (input,
output, cached_input, cache_write) and the share of input tokens read from a cache.`}, t.aiCosts)
	if o.AllowWrites {
		mcp.AddTool(s, &mcp.Tool{Name: "set_recommendation_state", Description: `Changes a recommendation's
state: dismissed (with a reason), snoozed until a day (YYYY-MM-DD), done, or open again.
Recorded in the audit log.`}, t.setState)
		mcp.AddTool(s, &mcp.Tool{Name: "generate_report", Description: `Writes a cost report (comprehensive,
summary or recommendations; html, pdf or json) of a period to the report folder and returns its
name.`}, t.report)
	}
	addResources(s, svc)
	return s
}

// tools are the tool handlers.
type tools struct {
	svc *service.Service
	o   Options
}

// top bounds a requested number of items.
func top(n int) int {
	if n <= 0 {
		return defaultTop
	}
	return min(n, maxTop)
}

// CostInput is analyze_costs' arguments.
type CostInput struct {
	Period          string   `json:"period,omitempty" jsonschema:"a calendar period: mtd, last_month, qtd, last_quarter, ytd, last_12_months; leave empty to use days or start/end"`
	Days            int      `json:"days,omitempty" jsonschema:"the last N complete days (1-365); default 30"`
	Start           string   `json:"start,omitempty" jsonschema:"first day YYYY-MM-DD, with end"`
	End             string   `json:"end,omitempty" jsonschema:"last day YYYY-MM-DD inclusive, with start"`
	GroupBy         string   `json:"group_by,omitempty" jsonschema:"provider, billing_account, sub_account, service, service_category, region, resource, charge_category, tag:KEY, or Kubernetes cluster, namespace, workload, pod, label:KEY"`
	Metric          string   `json:"metric,omitempty" jsonschema:"billed (invoiced), effective (amortized, after commitments) or list; default the configured one"`
	Provider        []string `json:"provider,omitempty" jsonschema:"keep these providers: aws, azure, gcp, oci or an imported provider's key (anthropic...)"`
	Account         []string `json:"account,omitempty" jsonschema:"keep these billing accounts or sub-accounts (ids)"`
	Service         []string `json:"service,omitempty" jsonschema:"keep these services (names as the groups show them)"`
	Region          []string `json:"region,omitempty" jsonschema:"keep these regions"`
	Resource        []string `json:"resource,omitempty" jsonschema:"keep these resource ids"`
	ServiceCategory []string `json:"service_category,omitempty" jsonschema:"keep these FOCUS service categories (Compute, Storage, Databases...)"`
	Tag             []string `json:"tag,omitempty" jsonschema:"keep lines with one of these tags, key:value (ignoring case); key:(none) for untagged"`
	Cluster         []string `json:"cluster,omitempty" jsonschema:"keep these Kubernetes clusters' shares of their nodes"`
	Namespace       []string `json:"namespace,omitempty" jsonschema:"keep these Kubernetes namespaces' shares of their nodes; (idle) for unused node shares, (none) for lines outside Kubernetes"`
	Workload        []string `json:"workload,omitempty" jsonschema:"keep these Kubernetes workloads (controllers)"`
	Label           []string `json:"label,omitempty" jsonschema:"keep pods with one of these labels, key:value"`
	View            string   `json:"view,omitempty" jsonschema:"start from this saved view (see the costpilot://views resource)"`
	Top             int      `json:"top,omitempty" jsonschema:"how many groups to list (default 10, at most 50); the rest are summed"`
}

// Group is one group of a cost answer.
type Group struct {
	Key       string   `json:"key"`
	Label     string   `json:"label,omitempty"`
	Cost      float64  `json:"cost"`
	Previous  float64  `json:"previous_cost"`
	ChangePct *float64 `json:"change_pct,omitempty"`
}

// Rest sums what a list leaves out.
type Rest struct {
	Count int     `json:"count"`
	Cost  float64 `json:"cost"`
}

// CostOutput is analyze_costs' answer.
type CostOutput struct {
	Start         string             `json:"start"`
	End           string             `json:"end"`
	Period        string             `json:"period,omitempty"`
	Currency      string             `json:"currency"`
	Metric        string             `json:"metric"`
	Total         float64            `json:"total"`
	PreviousStart string             `json:"previous_start,omitempty"`
	PreviousEnd   string             `json:"previous_end,omitempty"`
	PreviousTotal *float64           `json:"previous_total,omitempty"`
	ChangePct     *float64           `json:"change_pct,omitempty"`
	Providers     map[string]float64 `json:"providers"`
	GroupBy       string             `json:"group_by,omitempty"`
	Groups        []Group            `json:"groups,omitempty"`
	Rest          *Rest              `json:"rest,omitempty"`
	Notices       []string           `json:"notices,omitempty"`
}

func change(cur, prev float64) *float64 {
	if prev == 0 {
		return nil
	}
	v := round2((cur - prev) / prev * 100)
	return &v
}

// round2 keeps two decimals: a model needs no nano-units.
func round2(v float64) float64 {
	return float64(int64(v*100+sign(v)*0.5)) / 100
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

func (t *tools) analyze(ctx context.Context, _ *mcp.CallToolRequest, in CostInput) (*mcp.CallToolResult, CostOutput, error) {
	r := service.CostRequest{Period: in.Period, Start: in.Start, End: in.End, GroupBy: in.GroupBy, Metric: in.Metric, View: in.View}
	if in.Days != 0 {
		r.Days = &in.Days
	}
	for name, vals := range map[string][]string{"provider": in.Provider, "account": in.Account, "service": in.Service,
		"region": in.Region, "resource": in.Resource, "service_category": in.ServiceCategory, "tag": in.Tag,
		"cluster": in.Cluster, "namespace": in.Namespace, "workload": in.Workload, "label": in.Label} {
		if len(vals) > 0 {
			if r.Filters == nil {
				r.Filters = map[string][]string{}
			}
			r.Filters[name] = vals
		}
	}
	a, err := t.svc.Costs(ctx, r)
	if err != nil {
		return nil, CostOutput{}, err
	}
	s := a.Summary
	out := CostOutput{Start: s.AnalysisPeriod.StartDate, End: s.AnalysisPeriod.EndDate, Currency: s.Currency,
		Metric: string(s.Metric), Total: s.TotalCost, Providers: map[string]float64{}, GroupBy: string(s.GroupBy)}
	if s.Period != nil {
		out.Period = s.Period.Label
	}
	if p := s.Previous; p != nil {
		out.PreviousStart, out.PreviousEnd = p.Start, p.End
		prev := p.TotalCost
		out.PreviousTotal, out.ChangePct = &prev, change(s.TotalCost, prev)
	}
	for k, pc := range a.Providers {
		out.Providers[string(k)] = pc.TotalCost
	}
	n := top(in.Top)
	for i, g := range s.Groups {
		if i < n && g.Other == 0 {
			out.Groups = append(out.Groups, Group{Key: g.Key, Label: g.Label, Cost: g.Cost, Previous: g.PreviousCost,
				ChangePct: change(g.Cost, g.PreviousCost)})
			continue
		}
		addRest(&out.Rest, max(g.Other, 1), g.Cost)
	}
	for _, no := range s.Notices {
		out.Notices = append(out.Notices, no.Message)
	}
	return nil, out, nil
}

// RecInput is list_recommendations' arguments.
type RecInput struct {
	State    string `json:"state,omitempty" jsonschema:"open (default), dismissed, snoozed, done or all"`
	Type     string `json:"type,omitempty" jsonschema:"rightsizing, idle, autoscaling, cost_allocation, commitment, configuration or k8s_requests"`
	Provider string `json:"provider,omitempty" jsonschema:"aws, azure, gcp, oci or an imported provider's key"`
	Priority string `json:"priority,omitempty" jsonschema:"high, medium or low"`
	Top      int    `json:"top,omitempty" jsonschema:"how many to list (default 10, at most 50)"`
}

// Rec is one recommendation, briefly.
type Rec struct {
	ID             string  `json:"id"`
	Type           string  `json:"type"`
	Provider       string  `json:"provider"`
	ResourceID     string  `json:"resource_id,omitempty"`
	Description    string  `json:"description"`
	MonthlySavings float64 `json:"monthly_savings"`
	Priority       string  `json:"priority"`
	State          string  `json:"state"`
}

// RecOutput is list_recommendations' answer.
type RecOutput struct {
	Count          int     `json:"count"`
	MonthlySavings float64 `json:"monthly_savings"`
	Items          []Rec   `json:"items"`
	Rest           *Rest   `json:"rest,omitempty"`
}

func (t *tools) recommendations(ctx context.Context, _ *mcp.CallToolRequest, in RecInput) (*mcp.CallToolResult, RecOutput, error) {
	recs, err := t.svc.Recommendations(ctx, service.RecommendationFilter{State: in.State, Type: in.Type, Provider: in.Provider, Priority: in.Priority})
	if err != nil {
		return nil, RecOutput{}, err
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].PotentialSavings > recs[j].PotentialSavings })
	out := RecOutput{Count: len(recs), Items: []Rec{}}
	n := top(in.Top)
	for i, r := range recs {
		out.MonthlySavings += r.PotentialSavings
		if i >= n {
			addRest(&out.Rest, 1, r.PotentialSavings)
			continue
		}
		out.Items = append(out.Items, recOf(r))
	}
	out.MonthlySavings = round2(out.MonthlySavings)
	if out.Rest != nil {
		out.Rest.Cost = round2(out.Rest.Cost)
	}
	return nil, out, nil
}

// addRest counts items a list leaves out into *r, made on the first.
func addRest(r **Rest, count int, cost float64) {
	if *r == nil {
		*r = &Rest{}
	}
	(*r).Count += count
	(*r).Cost += cost
}

// recOf is a recommendation, briefly.
func recOf(r model.Recommendation) Rec {
	state := string(model.RecOpen)
	if r.Lifecycle != nil {
		state = string(r.Lifecycle.State)
	}
	return Rec{ID: r.ID, Type: string(r.Type), Provider: string(r.Provider), ResourceID: r.ResourceID,
		Description: r.Description, MonthlySavings: r.PotentialSavings, Priority: string(r.Priority), State: state}
}

// errText makes a tool's refusal a sentence for the model.
func errText(format string, a ...any) error { return fmt.Errorf(format, a...) }
