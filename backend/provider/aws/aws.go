// Package aws is the live AWS connector: daily costs from Cost Explorer,
// the EC2 inventory (instances, EBS volumes, Elastic IPs) of each configured
// region, hourly utilization from CloudWatch, and an STS credential check.
// It talks to AWS only through the official SDK (aws-sdk-go-v2), so the
// credential chain (AWS_PROFILE, AWS_ACCESS_KEY_ID, SSO, instance roles) and
// endpoint overrides (AWS_ENDPOINT_URL_*) work as users expect.
package aws

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/security"
)

// Credential field names looked up in provider.Credentials (the OS keyring).
const (
	FieldAccessKeyID     = "access_key_id"
	FieldSecretAccessKey = "secret_access_key"
	FieldSessionToken    = "session_token"
)

// DefaultMaxAttempts is how many times a throttled or failed call is tried.
// Cost Explorer charges per request, so retries stay few but patient.
const DefaultMaxAttempts = 6

// UtilizationDays is how far back hourly utilization is read.
const UtilizationDays = 14

// Option tunes a Provider; the defaults suit real use.
type Option func(*options)

type options struct {
	httpClient  *http.Client
	now         func() time.Time
	maxAttempts int
	maxBackoff  time.Duration
}

// WithHTTPClient sets the HTTP client every AWS call goes through.
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.httpClient = c } }

// WithNow sets the clock (utilization windows end at now).
func WithNow(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithRetry sets the attempts per call and the cap of the exponential
// backoff between them.
func WithRetry(attempts int, maxBackoff time.Duration) Option {
	return func(o *options) { o.maxAttempts, o.maxBackoff = attempts, maxBackoff }
}

// Provider is a live AWS account (with its linked accounts when the
// credentials belong to the payer).
type Provider struct {
	cfg   config.AWSConfig
	creds provider.Credentials
	opt   options

	mu      sync.Mutex
	sdk     *aws.Config // loaded on first use, with the caller's context
	secret  []string    // values scrubbed from error messages
	account string      // the credentials' account, once known
}

// Factory builds the provider from the aws section; it is registered for
// source "api".
func Factory(cfg *config.Config, creds provider.Credentials) (provider.Provider, error) {
	return New(cfg.AWS, creds)
}

// New returns the connector for the aws section. Nothing is called until
// the first method; credentials resolve then.
func New(cfg config.AWSConfig, creds provider.Credentials, opts ...Option) (*Provider, error) {
	if creds == nil {
		creds = provider.NoCredentials{}
	}
	o := options{now: time.Now, maxAttempts: DefaultMaxAttempts}
	for _, f := range opts {
		f(&o)
	}
	if cfg.Region == "" && len(cfg.Regions) == 0 {
		return nil, apperr.E(apperr.Configuration, "aws.region is required when aws.enabled is true").WithProvider(string(model.AWS))
	}
	return &Provider{cfg: cfg, creds: creds, opt: o}, nil
}

// Key implements provider.Provider.
func (p *Provider) Key() model.ProviderKey { return model.AWS }

// Source implements provider.Provider.
func (p *Provider) Source() model.SourceKind { return model.SourceAPI }

// regions lists the regions whose inventory is read.
func (p *Provider) regions() []string {
	if len(p.cfg.Regions) > 0 {
		return p.cfg.Regions
	}
	return []string{p.cfg.Region}
}

// config loads the SDK configuration once. Explicit keys (config fields,
// then the keyring) win; otherwise the SDK's default chain decides, with
// aws.profile as its profile.
func (p *Provider) config(ctx context.Context) (aws.Config, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sdk != nil {
		return *p.sdk, nil
	}
	region := p.cfg.Region
	if region == "" {
		region = p.cfg.Regions[0]
	}
	lo := []func(*awsconfig.LoadOptions) error{
		awsconfig.WithRegion(region),
		awsconfig.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(so *retry.StandardOptions) {
				so.MaxAttempts = p.opt.maxAttempts
				if p.opt.maxBackoff > 0 {
					so.MaxBackoff = p.opt.maxBackoff
				}
			})
		}),
	}
	if p.cfg.Profile != "" {
		lo = append(lo, awsconfig.WithSharedConfigProfile(p.cfg.Profile))
	}
	if p.opt.httpClient != nil {
		lo = append(lo, awsconfig.WithHTTPClient(p.opt.httpClient))
	}
	if p.cfg.Endpoint != "" {
		lo = append(lo, awsconfig.WithBaseEndpoint(p.cfg.Endpoint))
	}
	id, secret, token := p.cfg.AccessKeyID, p.cfg.SecretAccessKey, ""
	if id == "" || secret == "" {
		var err error
		if id, secret, token, err = p.keyring(); err != nil {
			return aws.Config{}, err
		}
	}
	if id != "" && secret != "" {
		p.secret = append(p.secret, secret)
		if token != "" {
			p.secret = append(p.secret, token)
		}
		lo = append(lo, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(id, secret, token)))
	}
	c, err := awsconfig.LoadDefaultConfig(ctx, lo...)
	if err != nil {
		// A broken profile or config file is the user's configuration.
		err = security.ScrubError(err, p.secret)
		return aws.Config{}, apperr.Wrap(apperr.Provider, err, "aws: cannot load the AWS configuration (profile %q): %s",
			p.cfg.Profile, err).
			WithProvider(string(model.AWS)).WithDetail(model.FailureDetail, model.FailureCredentials)
	}
	if c.Credentials != nil {
		c.Credentials = markedCredentials{c.Credentials}
	}
	p.sdk = &c
	return c, nil
}

// keyring reads keys stored outside the config; both or neither are used.
func (p *Provider) keyring() (id, secret, token string, err error) {
	get := func(f string) string {
		if err != nil {
			return ""
		}
		var v string
		v, err = p.creds.Get(model.AWS, f)
		return v
	}
	id, secret, token = get(FieldAccessKeyID), get(FieldSecretAccessKey), get(FieldSessionToken)
	if err != nil {
		return "", "", "", apperr.Wrap(apperr.Security, err, "aws: cannot read the stored credentials").WithProvider(string(model.AWS))
	}
	return id, secret, token, nil
}

// regional returns the configuration for one region.
func (p *Provider) regional(ctx context.Context, region string) (aws.Config, error) {
	c, err := p.config(ctx)
	if err != nil {
		return c, err
	}
	c = c.Copy()
	c.Region = region
	return c, nil
}

// Check implements provider.Provider with STS GetCallerIdentity, which any
// valid credentials may call.
func (p *Provider) Check(ctx context.Context) error {
	_, err := p.callerAccount(ctx)
	return err
}

// callerAccount asks STS who the credentials belong to; FetchCosts reuses
// the first answer as the payer account.
func (p *Provider) callerAccount(ctx context.Context) (string, error) {
	c, err := p.config(ctx)
	if err != nil {
		return "", err
	}
	out, err := sts.NewFromConfig(c).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return "", p.fail(ctx, "STS GetCallerIdentity", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.account = aws.ToString(out.Account)
	return p.account, nil
}

// payer is aws.account_id, else the credentials' own account.
func (p *Provider) payer(ctx context.Context) (string, error) {
	if p.cfg.AccountID != "" {
		return p.cfg.AccountID, nil
	}
	p.mu.Lock()
	a := p.account
	p.mu.Unlock()
	if a != "" {
		return a, nil
	}
	return p.callerAccount(ctx)
}

// markedCredentials tags every credential-resolution failure so fail can
// call it bad credentials, whatever the chain's member said.
type markedCredentials struct{ aws.CredentialsProvider }

// Retrieve implements aws.CredentialsProvider, marking failures.
func (m markedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := m.CredentialsProvider.Retrieve(ctx)
	if err != nil {
		return c, &credentialError{err}
	}
	return c, nil
}

type credentialError struct{ err error }

// Error and Unwrap make credentialError an error around its cause.
func (e *credentialError) Error() string { return fmt.Sprintf("resolve credentials: %v", e.err) }
func (e *credentialError) Unwrap() error { return e.err }

// SDKConfig is the SDK configuration every call of the connector uses
// (credentials, region, retries, endpoint): another AWS connector (the
// Athena one) shares it, so credentials resolve in one way.
func (p *Provider) SDKConfig(ctx context.Context) (aws.Config, error) { return p.config(ctx) }

// Fail turns an SDK error of the call named what into the ProviderError
// the connector returns, with details.reason; for the Athena connector.
func (p *Provider) Fail(ctx context.Context, what string, err error) error {
	return p.fail(ctx, what, err)
}
