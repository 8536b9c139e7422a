// Package anthropic is the Anthropic cost connector: the organization's
// daily costs from the Admin API's cost report (GET
// /v1/organizations/cost_report), grouped by workspace and description
// (model, token kind, tool), read with a read-only admin key
// (sk-ant-admin…). Anthropic has no inventory to list, so Inventory is
// empty.
package anthropic

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/jsonapi"
)

// Key is the provider key of Anthropic's costs.
const Key = model.Anthropic

// FieldAdminKey is the credential store field of the admin key, and
// EnvAdminKey the environment variable that wins over it.
const (
	FieldAdminKey = "admin_key"
	EnvAdminKey   = "ANTHROPIC_ADMIN_KEY"
)

// DefaultBaseURL is Anthropic's API; APIVersion the anthropic-version
// header the Admin API takes.
const (
	DefaultBaseURL = "https://api.anthropic.com"
	APIVersion     = "2023-06-01"
)

// costPath is the cost report; maxBuckets the most daily buckets it
// returns in one page.
const (
	costPath   = "/v1/organizations/cost_report"
	maxBuckets = 31
)

// workspacesPath lists the organization's workspaces, whose names the
// sub-accounts get (archived ones too: they may have costs).
const workspacesPath = "/v1/organizations/workspaces"

// ServiceCategory is the FOCUS service category of every line.
const ServiceCategory = jsonapi.ServiceCategory

// grant is what a refused key needs.
const grant = "use an Admin API key (sk-ant-admin…), which an organization admin creates in the Claude Console"

// Provider is one Anthropic organization, as its admin key sees it.
type Provider struct{ jsonapi.Connector }

// Factory builds the connector; it is registered for source "api".
// anthropic.endpoint, when set, replaces the vendor's API URL.
func Factory(cfg *config.Config, creds provider.Credentials) (provider.Provider, error) {
	return New(creds, jsonapi.FromConfig(cfg, Key)...), nil
}

// New returns the connector. The key is read at each call, from
// ANTHROPIC_ADMIN_KEY or the credential store.
func New(creds provider.Credentials, opts ...jsonapi.Option) *Provider {
	return &Provider{jsonapi.Connector{Vendor: Key, EnvKey: EnvAdminKey, FieldKey: FieldAdminKey, BaseURL: DefaultBaseURL,
		Auth: func(key string) http.Header {
			return http.Header{"X-Api-Key": {key}, "Anthropic-Version": {APIVersion}}
		}, Grant: grant, Creds: creds, Opts: opts,
		NamesPath: workspacesPath, NamesCursor: "after_id", NamesQuery: url.Values{"limit": {"1000"}, "include_archived": {"true"}}}}
}

// Check implements provider.Provider with the costs of yesterday.
func (p *Provider) Check(ctx context.Context) error {
	d := jsonapi.Yesterday()
	_, err := p.FetchCosts(ctx, d, d)
	return err
}

// reportPage is one page of the cost report.
type reportPage struct {
	jsonapi.Cursor
	Data []bucket `json:"data"`
}

// bucket is one day of costs.
type bucket struct {
	StartingAt string       `json:"starting_at"` // RFC 3339, inclusive
	EndingAt   string       `json:"ending_at"`   // RFC 3339, exclusive
	Results    []costResult `json:"results"`
}

// costResult is one cost item. amount is in the currency's lowest unit
// (cents), as a decimal string: "123.45" USD is $1.2345.
type costResult struct {
	Amount        jsonapi.Decimal `json:"amount"`
	Currency      string          `json:"currency"`
	WorkspaceID   *string         `json:"workspace_id"` // null: the default workspace
	Description   *string         `json:"description"`
	Model         *string         `json:"model"`
	CostType      *string         `json:"cost_type"`  // tokens, web_search, code_execution…
	TokenType     *string         `json:"token_type"` // uncached_input_tokens, output_tokens…
	ContextWindow *string         `json:"context_window"`
	ServiceTier   *string         `json:"service_tier"`
}

// FetchCosts implements provider.Provider: the days [from, to] in daily
// buckets grouped by workspace and description, every page of them.
// Amounts are read as exact decimals and converted from cents; billed,
// effective and list cost are all the amount (the report gives one
// figure). The token items and web searches carry their quantities from
// the messages usage report of the same days.
func (p *Provider) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	start, end, days, err := jsonapi.Span(Key, from, to)
	if err != nil {
		return model.Batch{}, err
	}
	c, err := p.Client()
	if err != nil {
		return model.Batch{}, err
	}
	idx, err := p.usage(ctx, c, start, end, days)
	if err != nil {
		return model.Batch{}, err
	}
	return jsonapi.FetchDaily(ctx, &p.Connector, costPath, from, to, func(start, end time.Time, days int) url.Values {
		return url.Values{
			"starting_at":  {start.Format(time.RFC3339)},
			"ending_at":    {end.Format(time.RFC3339)},
			"bucket_width": {"1d"},
			"group_by[]":   {"workspace_id", "description"},
			"limit":        {strconv.Itoa(min(days, maxBuckets))},
		}
	}, func(pg *reportPage) ([]jsonapi.Day, error) { return pg.days(idx) })
}

// days reads the page's buckets, with the quantities idx gives.
func (pg *reportPage) days(idx usageIndex) ([]jsonapi.Day, error) {
	out := make([]jsonapi.Day, 0, len(pg.Data))
	for _, b := range pg.Data {
		t, err := time.Parse(time.RFC3339, b.StartingAt)
		if err != nil {
			return nil, err
		}
		d := jsonapi.Day{Start: t}
		day := t.UTC().Format(model.DateLayout)
		for _, r := range b.Results {
			l, err := costLine(r)
			if err != nil {
				return nil, err
			}
			l.Quantity, l.Unit = idx.quantity(day, r)
			d.Lines = append(d.Lines, l)
		}
		out = append(out, d)
	}
	return out, nil
}

// costLine maps one cost item: the workspace is the sub-account (""
// for the default workspace), the model the service (else the
// description: "Web Search", "Code Execution Usage"…), and the
// description the usage, which keeps token kinds and tiers apart.
func costLine(r costResult) (model.CostLine, error) {
	l := model.CostLine{Provider: Key, ServiceCategory: ServiceCategory, ChargeCategory: "Usage",
		Service: "Anthropic", Currency: r.Currency}
	if l.Currency == "" {
		l.Currency = "USD"
	}
	if r.WorkspaceID != nil {
		l.SubAccount = *r.WorkspaceID
	}
	if r.Description != nil && *r.Description != "" {
		l.Usage = model.ClipDim(*r.Description, model.MaxUsageLen)
		l.Service = model.ClipDim(*r.Description, model.MaxNameLen)
	}
	if r.Model != nil && *r.Model != "" {
		l.Service = model.ClipDim(*r.Model, model.MaxNameLen)
	}
	amount, err := r.Amount.Cents()
	if err != nil {
		return l, err
	}
	l.Billed, l.Effective, l.List = amount, amount, amount
	return l, nil
}
