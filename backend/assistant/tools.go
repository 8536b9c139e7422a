package assistant

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/service"
)

// ForecastInput is forecast_costs' arguments.
type ForecastInput struct {
	Days int `json:"days,omitempty" jsonschema:"days ahead to forecast (7-365); default 30"`
}

// ForecastOutput is forecast_costs' answer: totals, no daily points.
type ForecastOutput struct {
	Days      int                            `json:"days"`
	Currency  string                         `json:"currency"`
	Total     float64                        `json:"total"`
	Lower     float64                        `json:"lower"`
	Upper     float64                        `json:"upper"`
	Level     float64                        `json:"confidence_level"`
	Providers map[string]float64             `json:"providers"`
	MonthEnd  *model.MonthEndForecast        `json:"month_end,omitempty"`
	Accuracy  *model.ForecastAccuracy        `json:"accuracy,omitempty"`
	Budgets   []model.BudgetForecast         `json:"budgets,omitempty"`
	Impact    *model.RecommendationsImpact   `json:"recommendations_impact,omitempty"`
	Trends    map[string]model.TrendAnalysis `json:"trends,omitempty"`
}

func (t *tools) forecast(ctx context.Context, _ *mcp.CallToolRequest, in ForecastInput) (*mcp.CallToolResult, ForecastOutput, error) {
	days := in.Days
	if days == 0 {
		days = service.DefaultDays
	}
	f, err := t.svc.ForecastCosts(ctx, days, true)
	if err != nil {
		return nil, ForecastOutput{}, err
	}
	out := ForecastOutput{Days: f.ForecastPeriod, Currency: f.Currency, Total: f.TotalForecast, Lower: f.ConfidenceInterval[0],
		Upper: f.ConfidenceInterval[1], Level: f.ConfidenceLevel, Providers: map[string]float64{}, MonthEnd: f.MonthEnd,
		Accuracy: f.Accuracy, Budgets: f.Budgets, Impact: f.RecommendationsImpact, Trends: map[string]model.TrendAnalysis{}}
	for k, p := range f.ProviderForecasts {
		out.Providers[string(k)] = p.TotalForecast
		out.Trends[string(k)] = p.TrendAnalysis
	}
	return nil, out, nil
}

// AllocateInput is allocate_costs' arguments.
type AllocateInput struct {
	Tags []string `json:"tags,omitempty" jsonschema:"tag keys that name the owner, in order of preference; default department, then team"`
	Top  int      `json:"top,omitempty" jsonschema:"how many owners to list (default 10, at most 50)"`
}

// AllocateOutput is allocate_costs' answer.
type AllocateOutput struct {
	Start       string  `json:"start"`
	End         string  `json:"end"`
	Currency    string  `json:"currency"`
	Owners      []Group `json:"owners"`
	OwnersRest  *Rest   `json:"owners_rest,omitempty"`
	Projects    []Group `json:"projects,omitempty"`
	ProjectRest *Rest   `json:"projects_rest,omitempty"`
	Unallocated float64 `json:"unallocated"`
}

func (t *tools) allocate(ctx context.Context, _ *mcp.CallToolRequest, in AllocateInput) (*mcp.CallToolResult, AllocateOutput, error) {
	tags := in.Tags
	if len(tags) == 0 {
		tags = []string{"department", "team"}
	}
	res, err := t.svc.AllocateCosts(ctx, model.AllocationRules{Method: "tag_based", Tags: tags})
	if err != nil {
		return nil, AllocateOutput{}, err
	}
	out := AllocateOutput{Start: res.Period.StartDate, End: res.Period.EndDate, Currency: res.Currency,
		Unallocated: res.AllocatedCosts.Unallocated}
	out.Owners, out.OwnersRest = topGroups(groupsOf(res.AllocatedCosts.ByDepartment), top(in.Top))
	out.Projects, out.ProjectRest = topGroups(groupsOf(res.AllocatedCosts.ByProject), top(in.Top))
	return nil, out, nil
}

// StatusOutput is provider_status' answer.
type StatusOutput struct {
	Providers []model.ProviderDetail `json:"providers"`
}

func (t *tools) status(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, StatusOutput, error) {
	ps, err := t.svc.ProviderDetails(ctx)
	return nil, StatusOutput{Providers: ps}, err
}

// BudgetsOutput is list_budgets' answer.
type BudgetsOutput struct {
	Budgets []monitor.BudgetStatus `json:"budgets"`
}

func (t *tools) budgets(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, BudgetsOutput, error) {
	bs, err := t.svc.Budgets(ctx)
	if err != nil {
		return nil, BudgetsOutput{}, err
	}
	out := BudgetsOutput{Budgets: []monitor.BudgetStatus{}}
	for _, b := range bs {
		if b.Measured {
			out.Budgets = append(out.Budgets, b.Status)
		}
	}
	return nil, out, nil
}

// AnomalyInput is list_anomalies' arguments.
type AnomalyInput struct {
	Provider string `json:"provider,omitempty" jsonschema:"only this provider: aws, azure, gcp, oci or an imported provider's key (anthropic...)"`
	Scope    string `json:"scope,omitempty" jsonschema:"provider (a cloud's whole day) or service; default both"`
	Top      int    `json:"top,omitempty" jsonschema:"how many to list, newest first (default 10, at most 50)"`
}

// AnomalyOutput is list_anomalies' answer: no daily series.
type AnomalyOutput struct {
	Currency  string                `json:"currency"`
	From      string                `json:"from"`
	To        string                `json:"to"`
	Count     int                   `json:"count"`
	Anomalies []service.AnomalyView `json:"anomalies"`
}

func (t *tools) anomalies(ctx context.Context, _ *mcp.CallToolRequest, in AnomalyInput) (*mcp.CallToolResult, AnomalyOutput, error) {
	l, err := t.svc.Anomalies(ctx)
	if err != nil {
		return nil, AnomalyOutput{}, err
	}
	out := AnomalyOutput{Currency: l.Currency, From: l.From, To: l.To, Anomalies: []service.AnomalyView{}}
	n := top(in.Top)
	for _, a := range l.Anomalies {
		if (in.Provider != "" && string(a.Provider) != in.Provider) || (in.Scope != "" && a.Scope != in.Scope) {
			continue
		}
		out.Count++
		if len(out.Anomalies) < n {
			out.Anomalies = append(out.Anomalies, a)
		}
	}
	return nil, out, nil
}

// CommitmentInput is get_commitments' arguments.
type CommitmentInput struct {
	Period string `json:"period,omitempty" jsonschema:"a calendar period: mtd, last_month, qtd, last_quarter, ytd, last_12_months"`
	Days   int    `json:"days,omitempty" jsonschema:"the last N days (1-365); default 30"`
	Start  string `json:"start,omitempty" jsonschema:"first day YYYY-MM-DD, with end"`
	End    string `json:"end,omitempty" jsonschema:"last day YYYY-MM-DD inclusive, with start"`
}

func (t *tools) commitments(ctx context.Context, _ *mcp.CallToolRequest, in CommitmentInput) (*mcp.CallToolResult, model.CommitmentReport, error) {
	r := service.CommitmentRequest{Period: in.Period, Start: in.Start, End: in.End}
	if in.Days != 0 {
		r.Days = &in.Days
	}
	p, err := t.svc.CommitmentPeriod(r)
	if err != nil {
		return nil, model.CommitmentReport{}, err
	}
	rep, err := t.svc.Commitments(ctx, p)
	return nil, rep, err
}

// StateInput is set_recommendation_state's arguments.
type StateInput struct {
	ID     string `json:"id" jsonschema:"the recommendation's id, as list_recommendations gives it"`
	State  string `json:"state" jsonschema:"open, dismissed, snoozed or done"`
	Reason string `json:"reason,omitempty" jsonschema:"why (required to dismiss)"`
	Until  string `json:"until,omitempty" jsonschema:"snoozed: the last day it stays hidden, YYYY-MM-DD"`
}

func (t *tools) setState(ctx context.Context, _ *mcp.CallToolRequest, in StateInput) (*mcp.CallToolResult, Rec, error) {
	r, err := t.svc.SetRecommendationState(ctx, in.ID, service.StateChange{State: in.State, Reason: in.Reason, Until: in.Until}, t.o.Actor(ctx))
	if err != nil {
		return nil, Rec{}, err
	}
	return nil, recOf(r), nil
}

// ReportInput is generate_report's arguments.
type ReportInput struct {
	Type   string `json:"type,omitempty" jsonschema:"comprehensive, summary (default) or recommendations"`
	Format string `json:"format,omitempty" jsonschema:"html, pdf (default) or json"`
	Period string `json:"period,omitempty" jsonschema:"a calendar period: mtd, last_month, qtd, last_quarter, ytd, last_12_months; default the last 30 days"`
	View   string `json:"view,omitempty" jsonschema:"a saved view to follow instead"`
}

// ReportOutput names the report written.
type ReportOutput struct {
	Name string `json:"name"`
	URI  string `json:"uri"`
}

func (t *tools) report(ctx context.Context, _ *mcp.CallToolRequest, in ReportInput) (*mcp.CallToolResult, ReportOutput, error) {
	if in.Type == "" {
		in.Type = string(model.ReportSummary)
	}
	if in.Format == "" {
		in.Format = string(model.FormatPDF)
	}
	res, err := t.svc.GenerateReport(ctx, model.ReportRequest{Type: model.ReportType(in.Type), Format: model.ReportFormat(in.Format),
		Period: model.PeriodKind(in.Period), View: in.View})
	if err != nil {
		return nil, ReportOutput{}, err
	}
	return nil, ReportOutput{Name: res.ReportPath, URI: reportURI(res.ReportPath)}, nil
}

// topGroups sorts groups by cost, keeps n and sums the rest.
func topGroups(gs []Group, n int) ([]Group, *Rest) {
	sortGroups(gs)
	if len(gs) <= n {
		return gs, nil
	}
	var rest *Rest
	for _, g := range gs[n:] {
		addRest(&rest, 1, g.Cost)
	}
	rest.Cost = round2(rest.Cost)
	return gs[:n], rest
}

// AIInput is ai_costs' arguments.
type AIInput struct {
	Period   string   `json:"period,omitempty" jsonschema:"a calendar period: mtd, last_month, qtd, last_quarter, ytd, last_12_months; leave empty to use days or start/end"`
	Days     int      `json:"days,omitempty" jsonschema:"the last N complete days (1-365); default 30"`
	Start    string   `json:"start,omitempty" jsonschema:"first day YYYY-MM-DD, with end"`
	End      string   `json:"end,omitempty" jsonschema:"last day YYYY-MM-DD inclusive, with start"`
	Metric   string   `json:"metric,omitempty" jsonschema:"billed, effective or list; default the configured one"`
	Provider []string `json:"provider,omitempty" jsonschema:"keep these providers: aws, azure, gcp, oci or an imported provider's key (anthropic...)"`
	Account  []string `json:"account,omitempty" jsonschema:"keep these billing accounts or sub-accounts (projects, workspaces)"`
}

func (t *tools) aiCosts(ctx context.Context, _ *mcp.CallToolRequest, in AIInput) (*mcp.CallToolResult, model.AICosts, error) {
	r := service.CostRequest{Period: in.Period, Start: in.Start, End: in.End, Metric: in.Metric}
	if in.Days != 0 {
		r.Days = &in.Days
	}
	for name, vals := range map[string][]string{"provider": in.Provider, "account": in.Account} {
		if len(vals) > 0 {
			if r.Filters == nil {
				r.Filters = map[string][]string{}
			}
			r.Filters[name] = vals
		}
	}
	res, err := t.svc.AICosts(ctx, r)
	return nil, res, err
}
