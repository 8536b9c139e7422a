// Package oci is the live Oracle Cloud connector: daily costs from the
// Usage API (RequestSummarizedUsages), the compute instances, block volumes
// and reserved public IPs of every compartment, hourly utilization from
// Monitoring (SummarizeMetricsData), and an Identity GetUser credential
// check. Requests are signed by the official SDK (oci-go-sdk) with the API
// key of oci.* config fields, the keyring, or ~/.oci/config (OCI_CLI_CONFIG_FILE
// and OCI_CLI_PROFILE choose the file and profile).
package oci

import (
	"context"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/oracle/oci-go-sdk/v65/common"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// Credential field names looked up in provider.Credentials (the OS keyring).
const (
	FieldPrivateKey = "private_key" // the PEM itself, when no private_key_path is set
	FieldPassphrase = "private_key_passphrase"
)

// UtilizationDays is how far back hourly utilization is read.
const UtilizationDays = 14

// DefaultMaxAttempts is how many times a throttled or failed call is tried.
const DefaultMaxAttempts = 6

// Option tunes a Provider; the defaults suit real use.
type Option func(*options)

type options struct {
	httpClient  *http.Client
	now         func() time.Time
	maxAttempts uint
	maxBackoff  time.Duration
}

// WithHTTPClient sets the HTTP client every call goes through.
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.httpClient = c } }

// WithNow sets the clock (utilization windows end at now).
func WithNow(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithRetry sets the attempts per call and the cap of the exponential
// backoff between them.
func WithRetry(attempts int, maxBackoff time.Duration) Option {
	return func(o *options) { o.maxAttempts, o.maxBackoff = uint(max(attempts, 1)), maxBackoff }
}

// Provider is a live OCI tenancy.
type Provider struct {
	cfg   config.OCIConfig
	creds provider.Credentials
	opt   options

	mu sync.Mutex
	cp common.ConfigurationProvider
}

// Factory builds the provider from the oci section; it is registered for
// source "api".
func Factory(cfg *config.Config, creds provider.Credentials) (provider.Provider, error) {
	return New(cfg.OCI, creds)
}

// New returns the connector for the oci section.
func New(cfg config.OCIConfig, creds provider.Credentials, opts ...Option) (*Provider, error) {
	if creds == nil {
		creds = provider.NoCredentials{}
	}
	o := options{now: time.Now, maxAttempts: DefaultMaxAttempts, maxBackoff: 30 * time.Second}
	for _, f := range opts {
		f(&o)
	}
	return &Provider{cfg: cfg, creds: creds, opt: o}, nil
}

// Key implements provider.Provider.
func (p *Provider) Key() model.ProviderKey { return model.OCI }

// Source implements provider.Provider.
func (p *Provider) Source() model.SourceKind { return model.SourceAPI }

// configProvider resolves the signing identity once: the API key of the
// oci section (private key from private_key_path or the keyring), else the
// OCI CLI's config file and profile.
func (p *Provider) configProvider() (common.ConfigurationProvider, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cp != nil {
		return p.cp, nil
	}
	key := ""
	if p.cfg.PrivateKeyPath != "" {
		b, err := os.ReadFile(p.cfg.PrivateKeyPath)
		if err != nil {
			return nil, apperr.Wrap(apperr.Configuration, err, "oci.private_key_path: cannot read %s", p.cfg.PrivateKeyPath).
				WithProvider(string(model.OCI))
		}
		key = string(b)
	}
	var pass *string
	var kerr error
	if key == "" {
		key, kerr = p.creds.Get(model.OCI, FieldPrivateKey)
	}
	if kerr == nil {
		var v string
		if v, kerr = p.creds.Get(model.OCI, FieldPassphrase); v != "" {
			pass = &v
		}
	}
	if kerr != nil {
		return nil, apperr.Wrap(apperr.Security, kerr, "oci: cannot read the stored credentials").WithProvider(string(model.OCI))
	}
	c := p.cfg
	if c.TenancyID != "" && c.UserID != "" && c.Fingerprint != "" && key != "" {
		p.cp = common.NewRawConfigurationProvider(c.TenancyID, c.UserID, c.Region, c.Fingerprint, key, pass)
		return p.cp, nil
	}
	file, profile := os.Getenv("OCI_CLI_CONFIG_FILE"), os.Getenv("OCI_CLI_PROFILE")
	if file == "" && profile == "" {
		p.cp = common.DefaultConfigProvider()
	} else {
		if profile == "" {
			profile = "DEFAULT"
		}
		p.cp = common.CustomProfileConfigProvider(file, profile)
	}
	return p.cp, nil
}

// tenancy is the tenancy OCID: the config's, else the signing identity's.
func (p *Provider) tenancy(ctx context.Context) (string, error) {
	if p.cfg.TenancyID != "" {
		return p.cfg.TenancyID, nil
	}
	cp, err := p.configProvider()
	if err != nil {
		return "", err
	}
	t, err := cp.TenancyOCID()
	if err != nil {
		return "", p.fail(ctx, "read the OCI configuration", &credentialError{err})
	}
	return t, nil
}

// setup points a client at oci.endpoint (or oci.region, overriding the
// profile's) and
// installs the retry policy: the SDK's choice of what to retry (429, 5xx)
// with this package's attempts and backoff.
func (p *Provider) setup(c *common.BaseClient, setRegion func(string)) {
	if p.cfg.Endpoint != "" {
		c.Host = p.cfg.Endpoint
	} else if p.cfg.Region != "" {
		setRegion(p.cfg.Region)
	}
	if p.opt.httpClient != nil {
		c.HTTPClient = p.opt.httpClient
	}
	policy := common.NewRetryPolicyWithOptions(
		common.ReplaceWithValuesFromRetryPolicy(common.DefaultRetryPolicyWithoutEventualConsistency()),
		common.WithMaximumNumberAttempts(p.opt.maxAttempts),
		common.WithNextDuration(p.backoff),
	)
	// The circuit breaker would turn a throttled tenancy into local
	// failures that say nothing of the cause; the retries are enough.
	c.SetCustomClientConfiguration(common.CustomClientConfiguration{RetryPolicy: &policy})
}

// backoff doubles from one second up to the cap, with equal jitter so
// parallel syncs do not retry in step.
func (p *Provider) backoff(r common.OCIOperationResponse) time.Duration {
	d := min(time.Second<<min(r.AttemptNumber, 10), p.opt.maxBackoff)
	if d <= 1 {
		return d
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)))
}
