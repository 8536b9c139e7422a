// Package openai is the OpenAI cost connector: the organization's daily
// costs from the Costs API (GET /v1/organization/costs), grouped by
// project and line item, read with a read-only admin key. OpenAI has no
// inventory to list, so Inventory is empty.
package openai

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/jsonapi"
)

// Key is the provider key of OpenAI's costs.
const Key = model.OpenAI

// FieldAdminKey is the credential store field of the admin key, and
// EnvAdminKey the environment variable that wins over it.
const (
	FieldAdminKey = "admin_key"
	EnvAdminKey   = "OPENAI_ADMIN_KEY"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com"

// costsPath is the Costs API; maxBuckets is the most daily buckets it
// returns in one page.
const (
	costsPath  = "/v1/organization/costs"
	maxBuckets = 180
)

// projectsPath lists the organization's projects, whose names the
// sub-accounts get (archived ones too: they may have costs).
const projectsPath = "/v1/organization/projects"

// ServiceCategory is the FOCUS service category of every line.
const ServiceCategory = jsonapi.ServiceCategory

// grant is what a refused key needs.
const grant = "use an admin key (sk-admin-…) of an organization owner, created under Organization settings > Admin keys"

// Provider is one OpenAI organization, as its admin key sees it.
type Provider struct{ jsonapi.Connector }

// Factory builds the connector; it is registered for source "api".
// openai.endpoint, when set, replaces the vendor's API URL.
func Factory(cfg *config.Config, creds provider.Credentials) (provider.Provider, error) {
	return New(creds, jsonapi.FromConfig(cfg, Key)...), nil
}

// New returns the connector. The key is read at each call, from
// OPENAI_ADMIN_KEY or the credential store.
func New(creds provider.Credentials, opts ...jsonapi.Option) *Provider {
	return &Provider{jsonapi.Connector{Vendor: Key, EnvKey: EnvAdminKey, FieldKey: FieldAdminKey, BaseURL: DefaultBaseURL,
		Auth:  func(key string) http.Header { return http.Header{"Authorization": {"Bearer " + key}} },
		Grant: grant, Creds: creds, Opts: opts,
		NamesPath: projectsPath, NamesCursor: "after", NamesQuery: url.Values{"limit": {"100"}, "include_archived": {"true"}}}}
}

// Check implements provider.Provider with the costs of yesterday.
func (p *Provider) Check(ctx context.Context) error {
	d := jsonapi.Yesterday()
	_, err := p.FetchCosts(ctx, d, d)
	return err
}

// costsPage is one page of the Costs API's answer.
type costsPage struct {
	jsonapi.Cursor
	Object string   `json:"object"` // "page"
	Data   []bucket `json:"data"`
}

// bucket is one day of costs. OpenAI's reference names the list
// "result" while its answers and examples carry "results"; both are read.
type bucket struct {
	StartTime int64        `json:"start_time"` // Unix seconds, inclusive
	EndTime   int64        `json:"end_time"`   // Unix seconds, exclusive
	Results   []costResult `json:"results"`
	Result    []costResult `json:"result"`
}

// costResult is an organization.costs.result.
type costResult struct {
	Object string `json:"object"`
	Amount *struct {
		Value    jsonapi.Decimal `json:"value"`
		Currency string          `json:"currency"` // lowercase ISO 4217
	} `json:"amount"`
	LineItem  *string `json:"line_item"`
	ProjectID *string `json:"project_id"`
}

// FetchCosts implements provider.Provider: the days [from, to] in daily
// buckets grouped by project and line item, every page of them. The
// amounts are read as exact decimals; billed, effective and list cost are
// all the amount (the API gives one figure, after discounts).
func (p *Provider) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	return jsonapi.FetchDaily[costsPage](ctx, &p.Connector, costsPath, from, to, func(start, end time.Time, days int) url.Values {
		return url.Values{
			"start_time":   {strconv.FormatInt(start.Unix(), 10)},
			"end_time":     {strconv.FormatInt(end.Unix(), 10)},
			"bucket_width": {"1d"},
			"group_by":     {"project_id", "line_item"},
			"limit":        {strconv.Itoa(min(days, maxBuckets))},
		}
	}, (*costsPage).days)
}

// days reads the page's buckets.
func (pg *costsPage) days() ([]jsonapi.Day, error) {
	out := make([]jsonapi.Day, 0, len(pg.Data))
	for _, b := range pg.Data {
		d := jsonapi.Day{Start: time.Unix(b.StartTime, 0)}
		for _, rs := range [][]costResult{b.Results, b.Result} {
			for _, r := range rs {
				l, err := costLine(r)
				if err != nil {
					return nil, err
				}
				d.Lines = append(d.Lines, l)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// costLine maps one result: the project is the sub-account; a line item
// "<model>, <kind>" (gpt-4o-2024-08-06, input) is the model as service,
// any other line item is the service itself; the whole line item is the
// usage.
func costLine(r costResult) (model.CostLine, error) {
	l := model.CostLine{Provider: Key, ServiceCategory: ServiceCategory, ChargeCategory: "Usage", Service: "OpenAI"}
	if r.ProjectID != nil {
		l.SubAccount = *r.ProjectID
	}
	if r.LineItem != nil && *r.LineItem != "" {
		item := *r.LineItem
		l.Usage = model.ClipDim(item, model.MaxUsageLen)
		l.Service = item
		if m, _, ok := strings.Cut(item, ", "); ok && m != "" {
			l.Service = m
		}
		l.Service = model.ClipDim(l.Service, model.MaxNameLen)
	}
	if r.Amount == nil {
		return l, nil
	}
	amount, err := r.Amount.Value.Nanos()
	if err != nil {
		return l, err
	}
	l.Currency = strings.ToUpper(r.Amount.Currency)
	if l.Currency == "" {
		l.Currency = "USD"
	}
	l.Billed, l.Effective, l.List = amount, amount, amount
	return l, nil
}
