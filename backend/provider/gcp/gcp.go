// Package gcp is the live Google Cloud connector: daily costs from the
// Cloud Billing export in BigQuery (standard, detailed or FOCUS), the
// Compute Engine inventory (instances, disks, external addresses), hourly
// utilization from Cloud Monitoring, and a credential check (a token and a
// BigQuery dry-run of the cost query). It uses Google's REST clients
// (google.golang.org/api), which are much lighter than the gRPC-based
// cloud.google.com/go libraries and need no protobuf stubs; Application
// Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's login, the
// metadata server) work as users expect.
package gcp

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"time"

	"google.golang.org/api/option"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// FieldCredentialsJSON is the provider.Credentials (OS keyring) field that
// may hold a credentials JSON document (a service account key).
const FieldCredentialsJSON = "credentials_json"

// UtilizationDays is how far back hourly utilization is read.
const UtilizationDays = 14

// DefaultMaxAttempts is how many times a throttled or failed call is tried.
const DefaultMaxAttempts = 5

// readOnlyScope covers BigQuery jobs, Compute and Monitoring reads.
const readOnlyScope = "https://www.googleapis.com/auth/cloud-platform.read-only"

// bigqueryScope is needed to run query jobs (read-only does not allow jobs.insert).
const bigqueryScope = "https://www.googleapis.com/auth/bigquery"

// Option tunes a Provider; the defaults suit real use.
type Option func(*options)

type options struct {
	client      []option.ClientOption
	now         func() time.Time
	maxAttempts int
	baseDelay   time.Duration
	maxDelay    time.Duration
}

// WithClientOptions adds google.golang.org/api client options (endpoints,
// an HTTP client, option.WithoutAuthentication for a test server).
func WithClientOptions(o ...option.ClientOption) Option {
	return func(x *options) { x.client = append(x.client, o...) }
}

// WithNow sets the clock (utilization windows end at now).
func WithNow(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithRetry sets the attempts per call and the backoff's base and cap.
func WithRetry(attempts int, base, maxDelay time.Duration) Option {
	return func(o *options) { o.maxAttempts, o.baseDelay, o.maxDelay = attempts, base, maxDelay }
}

// Provider is a live Google Cloud billing account (through its BigQuery
// export) and the project of gcp.project_id.
type Provider struct {
	cfg   config.GCPConfig
	creds provider.Credentials
	opt   options

	mu        sync.Mutex
	auth      []option.ClientOption // resolved once
	format    exportFormat          // detected from the table's schema once
	hasCAL    bool                  // the export has cost_at_list
	ingestion bool                  // partitioned by ingestion time
}

// Factory builds the provider from the gcp section; it is registered for
// source "api".
func Factory(cfg *config.Config, creds provider.Credentials) (provider.Provider, error) {
	return New(cfg.GCP, creds)
}

// New returns the connector for the gcp section.
func New(cfg config.GCPConfig, creds provider.Credentials, opts ...Option) (*Provider, error) {
	if creds == nil {
		creds = provider.NoCredentials{}
	}
	o := options{now: time.Now, maxAttempts: DefaultMaxAttempts, baseDelay: time.Second, maxDelay: time.Minute}
	for _, f := range opts {
		f(&o)
	}
	var missing []string
	if cfg.ProjectID == "" {
		missing = append(missing, "gcp.project_id")
	}
	if cfg.BillingTable == "" {
		missing = append(missing, "gcp.billing_table")
	}
	if len(missing) > 0 {
		return nil, apperr.E(apperr.Configuration, "%s required for gcp source api", strings.Join(missing, " and ")+" is").
			WithProvider(string(model.GCP)).WithDetail("fields", missing)
	}
	if _, _, _, err := splitTable(cfg.BillingTable, cfg.ProjectID); err != nil {
		return nil, err
	}
	return &Provider{cfg: cfg, creds: creds, opt: o}, nil
}

// Key implements provider.Provider.
func (p *Provider) Key() model.ProviderKey { return model.GCP }

// Source implements provider.Provider.
func (p *Provider) Source() model.SourceKind { return model.SourceAPI }

// clientOptions resolves credentials once: gcp.credentials_file, then a
// credentials JSON in the keyring, else Application Default Credentials.
// endpoint is the service's path under gcp.endpoint (a proxy or emulator
// that mirrors Google's URL layout).
func (p *Provider) clientOptions(endpoint string) ([]option.ClientOption, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.auth == nil {
		auth := []option.ClientOption{option.WithScopes(bigqueryScope, readOnlyScope)}
		switch {
		case p.cfg.CredentialsFile != "":
			b, err := os.ReadFile(p.cfg.CredentialsFile)
			if err != nil {
				return nil, apperr.Wrap(apperr.Configuration, err, "gcp.credentials_file: cannot read %s", p.cfg.CredentialsFile).
					WithProvider(string(model.GCP))
			}
			t, err := credentialsType(b)
			if err != nil {
				return nil, err
			}
			auth = append(auth, option.WithAuthCredentialsFile(t, p.cfg.CredentialsFile))
		default:
			js, err := p.creds.Get(model.GCP, FieldCredentialsJSON)
			if err != nil {
				return nil, apperr.Wrap(apperr.Security, err, "gcp: cannot read the stored credentials").WithProvider(string(model.GCP))
			}
			if js != "" {
				t, err := credentialsType([]byte(js))
				if err != nil {
					return nil, err
				}
				auth = append(auth, option.WithAuthCredentialsJSON(t, []byte(js)))
			}
		}
		p.auth = append(auth, p.opt.client...)
	}
	out := append([]option.ClientOption(nil), p.auth...)
	if p.cfg.Endpoint != "" {
		out = append(out, option.WithEndpoint(strings.TrimRight(p.cfg.Endpoint, "/")+endpoint))
	}
	return out, nil
}

// credentialsType reads the "type" of a credentials JSON document; the
// type is checked so a user file cannot pass for another kind.
func credentialsType(b []byte) (option.CredentialsType, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return "", apperr.Wrap(apperr.Configuration, err, "gcp: the credentials are not a JSON document").WithProvider(string(model.GCP))
	}
	switch head.Type {
	case "service_account":
		return option.ServiceAccount, nil
	case "authorized_user":
		return option.AuthorizedUser, nil
	case "external_account":
		return option.ExternalAccount, nil
	case "impersonated_service_account":
		return option.ImpersonatedServiceAccount, nil
	}
	return "", apperr.E(apperr.Configuration, "gcp: unsupported credentials type %q", head.Type).WithProvider(string(model.GCP))
}

// splitTable reads project.dataset.table (the project defaults to the
// configured one).
func splitTable(t, defaultProject string) (project, dataset, table string, err error) {
	parts := strings.Split(strings.Trim(t, "`"), ".")
	switch len(parts) {
	case 2:
		project, dataset, table = defaultProject, parts[0], parts[1]
	case 3:
		project, dataset, table = parts[0], parts[1], parts[2]
	}
	if table == "" || dataset == "" || project == "" || strings.ContainsAny(t, " ;\n'\"") {
		return "", "", "", apperr.E(apperr.Configuration, "gcp.billing_table must be project.dataset.table, got %q", t).
			WithProvider(string(model.GCP))
	}
	return project, dataset, table, nil
}
