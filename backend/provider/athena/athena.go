// Package athena is the AWS connector of source athena: daily costs and
// commitment discounts aggregated by Amazon Athena where the billing
// export lives (a CUR 2.0 or FOCUS table of AWS Data Exports, or legacy
// CUR's Athena integration), so only daily aggregates leave AWS, as the
// Google Cloud connector does with BigQuery. Credentials, retries and
// errors are the AWS connector's (package aws), whose EC2 inventory it
// also reuses.
package athena

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/athena"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/aws"
)

// Defaults of the aws.athena keys left empty.
const (
	DefaultWorkgroup = "primary"
	DefaultCatalog   = "AwsDataCatalog"
)

// DefaultQueryTimeout bounds one query from start to its last page; a
// query still running then is stopped, so it costs nothing more.
const DefaultQueryTimeout = 10 * time.Minute

// Option tunes a Provider; the defaults suit real use.
type Option func(*options)

type options struct {
	aws          []aws.Option
	log          *slog.Logger
	poll         time.Duration // first wait between status checks; doubles up to 5 s
	queryTimeout time.Duration
}

// WithHTTPClient sets the HTTP client every AWS call goes through.
func WithHTTPClient(c *http.Client) Option {
	return func(o *options) { o.aws = append(o.aws, aws.WithHTTPClient(c)) }
}

// WithRetry sets the attempts per call and the cap of the backoff.
func WithRetry(attempts int, maxBackoff time.Duration) Option {
	return func(o *options) { o.aws = append(o.aws, aws.WithRetry(attempts, maxBackoff)) }
}

// WithLogger sets where the bytes each query scanned are logged.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithPolling sets the first wait between query status checks and how
// long a query may take before it is stopped.
func WithPolling(first, timeout time.Duration) Option {
	return func(o *options) { o.poll, o.queryTimeout = first, timeout }
}

// Provider reads one AWS billing export table through Athena.
type Provider struct {
	cfg config.AthenaConfig
	aws *aws.Provider
	opt options

	mu     sync.Mutex
	client *athena.Client
	table  *tableInfo // the table's columns, read once
}

// Factory builds the provider from the aws section; it is registered for
// source "athena".
func Factory(cfg *config.Config, creds provider.Credentials) (provider.Provider, error) {
	return New(cfg.AWS, creds)
}

// New returns the connector for the aws section and its athena keys.
// Nothing is called until the first method.
func New(cfg config.AWSConfig, creds provider.Credentials, opts ...Option) (*Provider, error) {
	o := options{log: slog.Default(), poll: 500 * time.Millisecond, queryTimeout: DefaultQueryTimeout}
	for _, f := range opts {
		f(&o)
	}
	a := cfg.Athena
	var missing []string
	if a.Database == "" {
		missing = append(missing, "aws.athena.database")
	}
	if a.Table == "" {
		missing = append(missing, "aws.athena.table")
	}
	if len(missing) > 0 {
		return nil, apperr.E(apperr.Configuration, "%s required for aws source athena", strings.Join(missing, " and ")+" is").
			WithProvider(string(model.AWS)).WithDetail("fields", missing)
	}
	if a.Workgroup == "" {
		a.Workgroup = DefaultWorkgroup
	}
	if a.Catalog == "" {
		a.Catalog = DefaultCatalog
	}
	if a.Format == "" {
		a.Format = config.AthenaCUR2
	}
	if !validName(a.Database) || !validName(a.Table) || !validName(a.Catalog) {
		// config.Validate says so first; this guards the quoted SQL names.
		return nil, apperr.E(apperr.Configuration, "aws.athena: database, table and catalog must be Glue names (letters, digits, _ and -)").
			WithProvider(string(model.AWS))
	}
	switch a.Format {
	case config.AthenaCUR2, config.AthenaFOCUS, config.AthenaLegacy:
	default:
		return nil, apperr.E(apperr.Configuration, "aws.athena.format must be cur2, focus or legacy, not %q", a.Format).
			WithProvider(string(model.AWS))
	}
	ap, err := aws.New(cfg, creds, o.aws...)
	if err != nil {
		return nil, err
	}
	return &Provider{cfg: a, aws: ap, opt: o}, nil
}

func validName(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for _, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (c < '0' || c > '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// Key implements provider.Provider.
func (p *Provider) Key() model.ProviderKey { return model.AWS }

// Source implements provider.Provider.
func (p *Provider) Source() model.SourceKind { return model.SourceAthena }

// Inventory implements provider.Provider with the AWS connector's EC2
// inventory and CloudWatch utilization: the billing export has no
// utilization.
func (p *Provider) Inventory(ctx context.Context) (model.Inventory, error) {
	return p.aws.Inventory(ctx)
}

// athenaClient returns the Athena client, built once from the shared SDK
// configuration; aws.athena.endpoint overrides the endpoint.
func (p *Provider) athenaClient(ctx context.Context) (*athena.Client, error) {
	p.mu.Lock()
	c := p.client
	p.mu.Unlock()
	if c != nil {
		return c, nil
	}
	sdk, err := p.aws.SDKConfig(ctx)
	if err != nil {
		return nil, err
	}
	c = athena.NewFromConfig(sdk, func(o *athena.Options) {
		if p.cfg.Endpoint != "" {
			o.BaseEndpoint = &p.cfg.Endpoint
		}
	})
	p.mu.Lock()
	defer p.mu.Unlock()
	p.client = c
	return c, nil
}

// Check implements provider.Provider: the table's metadata (credentials,
// the Glue table and its format's columns), then a query that reads no
// data (LIMIT 0 of one partition), which proves the workgroup and output
// location work, for the minimum Athena charge at most.
func (p *Provider) Check(ctx context.Context) error {
	t, err := p.tableInfo(ctx)
	if err != nil {
		return err
	}
	q := checkQuery(p.cfg, t)
	_, err = p.run(ctx, "Athena credential check", q.sql, q.params, nil, nil)
	return err
}
