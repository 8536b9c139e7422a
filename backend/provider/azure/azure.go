// Package azure is the live Azure connector: daily costs from the Cost
// Management Query API, reservations' daily hours and used and unused cost
// (reservation orders and summaries, and the same query), the inventory
// of virtual machines, managed disks and
// public IPs, hourly utilization from Azure Monitor, and a credential check
// that gets a token and reads the subscription. It uses only the official
// SDK (azcore, azidentity and the resource manager modules), so AZURE_*
// variables, the Azure CLI login, workload and managed identities work as
// users expect.
package azure

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resources/armsubscriptions"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/security"
)

// Credential field names looked up in provider.Credentials (the OS keyring).
const (
	FieldTenantID     = "tenant_id"
	FieldClientID     = "client_id"
	FieldClientSecret = "client_secret"
)

// UtilizationDays is how far back hourly utilization is read.
const UtilizationDays = 14

// DefaultMaxRetries is how many times a throttled or failed call is
// retried. Cost Management allows only a few queries a minute, so the
// backoff is long (azcore also honours Retry-After).
const DefaultMaxRetries = 5

// Option tunes a Provider; the defaults suit real use.
type Option func(*options)

type options struct {
	transport  policy.Transporter
	credential azcore.TokenCredential
	cloud      *cloud.Configuration
	now        func() time.Time
	maxRetries int32
	retryDelay time.Duration
	maxDelay   time.Duration
	insecure   bool
}

// WithHTTPClient sets the HTTP client every call (tokens included) goes through.
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.transport = c } }

// WithCredential replaces the azidentity chain with a ready credential.
func WithCredential(c azcore.TokenCredential) Option { return func(o *options) { o.credential = c } }

// WithCloud points the SDK at another cloud (a test server); it overrides
// azure.cloud, azure.authority_host, azure.endpoint and azure.audience.
func WithCloud(c cloud.Configuration) Option { return func(o *options) { o.cloud = &c } }

// WithInsecureHTTP allows sending tokens over plain HTTP; only for loopback
// test servers.
func WithInsecureHTTP() Option { return func(o *options) { o.insecure = true } }

// WithNow sets the clock (utilization windows end at now).
func WithNow(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithRetry sets the retries per call and the backoff's base and cap.
func WithRetry(retries int, delay, maxDelay time.Duration) Option {
	return func(o *options) { o.maxRetries, o.retryDelay, o.maxDelay = int32(retries), delay, maxDelay }
}

// Provider is a live Azure tenant: the configured subscription, or every
// subscription the credentials can see.
type Provider struct {
	cfg   config.AzureConfig
	creds provider.Credentials
	opt   options

	mu     sync.Mutex
	cred   azcore.TokenCredential
	secret []string
}

// Factory builds the provider from the azure section; it is registered for
// source "api".
func Factory(cfg *config.Config, creds provider.Credentials) (provider.Provider, error) {
	return New(cfg.Azure, creds)
}

// New returns the connector for the azure section. Nothing is called until
// the first method.
func New(cfg config.AzureConfig, creds provider.Credentials, opts ...Option) (*Provider, error) {
	if creds == nil {
		creds = provider.NoCredentials{}
	}
	o := options{now: time.Now, maxRetries: DefaultMaxRetries, retryDelay: 4 * time.Second, maxDelay: 2 * time.Minute}
	for _, f := range opts {
		f(&o)
	}
	return &Provider{cfg: cfg, creds: creds, opt: o}, nil
}

// Key implements provider.Provider.
func (p *Provider) Key() model.ProviderKey { return model.Azure }

// Source implements provider.Provider.
func (p *Provider) Source() model.SourceKind { return model.SourceAPI }

// clientOptions are shared by every resource manager client.
func (p *Provider) clientOptions() *arm.ClientOptions {
	co := &arm.ClientOptions{}
	co.Retry = policy.RetryOptions{MaxRetries: p.opt.maxRetries, RetryDelay: p.opt.retryDelay, MaxRetryDelay: p.opt.maxDelay}
	co.InsecureAllowCredentialWithHTTP = p.opt.insecure
	co.PerRetryPolicies = []policy.Policy{qpuRetryAfter{}}
	if p.opt.transport != nil {
		co.Transport = p.opt.transport
	}
	if c := p.cloudConfig(); c != nil {
		co.Cloud = *c
	}
	return co
}

// cloudConfig is the cloud to talk to: an explicit option, else the one
// azure.cloud names with azure.authority_host, azure.endpoint and
// azure.audience over it, else nil: the SDK's default public cloud (which
// also honours AZURE_AUTHORITY_HOST).
func (p *Provider) cloudConfig() *cloud.Configuration {
	if p.opt.cloud != nil {
		return p.opt.cloud
	}
	return cloudFor(p.cfg)
}

// cloudFor resolves the azure section's cloud settings; nil when none is set.
func cloudFor(a config.AzureConfig) *cloud.Configuration {
	if a.Cloud == "" && a.AuthorityHost == "" && a.Endpoint == "" && a.Audience == "" {
		return nil
	}
	var base cloud.Configuration
	switch a.Cloud {
	case config.AzureChina:
		base = cloud.AzureChina
	case config.AzureUSGovernment:
		base = cloud.AzureGovernment
	case config.AzureCustom:
	default:
		base = cloud.AzurePublic
	}
	rm := base.Services[cloud.ResourceManager]
	// A copy: the SDK's cloud values are shared package variables.
	c := cloud.Configuration{ActiveDirectoryAuthorityHost: base.ActiveDirectoryAuthorityHost, Services: map[cloud.ServiceName]cloud.ServiceConfiguration{}}
	if a.AuthorityHost != "" {
		c.ActiveDirectoryAuthorityHost = strings.TrimRight(a.AuthorityHost, "/") + "/"
	}
	if a.Endpoint != "" {
		rm.Endpoint = strings.TrimRight(a.Endpoint, "/")
		if a.Cloud == config.AzureCustom {
			rm.Audience = rm.Endpoint
		}
	}
	if a.Audience != "" {
		rm.Audience = a.Audience
	}
	c.Services[cloud.ResourceManager] = rm
	return &c
}

// privateAuthority reports an authority the public cloud cannot vouch
// for: instance discovery would ask login.microsoftonline.com about it,
// so it is skipped (the well-known sovereign hosts need no discovery).
func (p *Provider) privateAuthority() bool { return p.opt.cloud != nil || p.cfg.AuthorityHost != "" }

// credential resolves once: a service principal from config fields or the
// keyring, else azidentity's default chain (environment, workload identity,
// managed identity, Azure CLI, Azure Developer CLI).
func (p *Provider) credential() (azcore.TokenCredential, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cred != nil {
		return p.cred, nil
	}
	if p.opt.credential != nil {
		p.cred = markedCredential{p.opt.credential}
		return p.cred, nil
	}
	tenant, client, secret := p.cfg.TenantID, p.cfg.ClientID, p.cfg.ClientSecret
	if secret == "" {
		var err error
		get := func(f, have string) string {
			if have != "" || err != nil {
				return have
			}
			var v string
			v, err = p.creds.Get(model.Azure, f)
			return v
		}
		tenant, client, secret = get(FieldTenantID, tenant), get(FieldClientID, client), get(FieldClientSecret, "")
		if err != nil {
			return nil, apperr.Wrap(apperr.Security, err, "azure: cannot read the stored credentials").WithProvider(string(model.Azure))
		}
	}
	co := azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: p.opt.maxRetries, RetryDelay: p.opt.retryDelay, MaxRetryDelay: p.opt.maxDelay}}
	if p.opt.transport != nil {
		co.Transport = p.opt.transport
	}
	if c := p.cloudConfig(); c != nil {
		co.Cloud = *c
	}
	var (
		cred azcore.TokenCredential
		err  error
	)
	if tenant != "" && client != "" && secret != "" {
		p.secret = append(p.secret, secret)
		cred, err = azidentity.NewClientSecretCredential(tenant, client, secret, &azidentity.ClientSecretCredentialOptions{
			ClientOptions: co, DisableInstanceDiscovery: p.privateAuthority()})
	} else {
		cred, err = azidentity.NewDefaultAzureCredential(&azidentity.DefaultAzureCredentialOptions{ClientOptions: co, TenantID: tenant,
			DisableInstanceDiscovery: p.privateAuthority()})
	}
	if err != nil {
		err = security.ScrubError(err, p.secret)
		return nil, apperr.Wrap(apperr.Provider, err, "azure: cannot set up credentials: %s", err).
			WithProvider(string(model.Azure)).WithDetail(model.FailureDetail, model.FailureCredentials)
	}
	p.cred = markedCredential{cred}
	return p.cred, nil
}

// subscriptions returns the configured subscription, or every enabled
// subscription the credentials can list.
func (p *Provider) subscriptions(ctx context.Context) ([]string, error) {
	out, _, err := p.subscriptionList(ctx)
	return out, err
}

// subscriptionList is subscriptions with their display names (id to
// name). A configured subscription is read for its name; failing that,
// it goes unnamed: a name is not worth failing a sync.
func (p *Provider) subscriptionList(ctx context.Context) ([]string, map[string]string, error) {
	names := map[string]string{}
	named := func(id, name *string) {
		if id != nil && name != nil && *name != "" && *name != *id {
			names[*id] = *name
		}
	}
	if p.cfg.SubscriptionID != "" {
		if cred, err := p.credential(); err == nil {
			if c, err := armsubscriptions.NewClient(cred, p.clientOptions()); err == nil {
				if r, err := c.Get(ctx, p.cfg.SubscriptionID, nil); err == nil {
					named(&p.cfg.SubscriptionID, r.DisplayName)
				}
			}
		}
		return []string{p.cfg.SubscriptionID}, names, nil
	}
	cred, err := p.credential()
	if err != nil {
		return nil, nil, err
	}
	c, err := armsubscriptions.NewClient(cred, p.clientOptions())
	if err != nil {
		return nil, nil, p.fail(ctx, "Subscriptions List", err)
	}
	var out []string
	pg := c.NewListPager(nil)
	for pg.More() {
		page, err := pg.NextPage(ctx)
		if err != nil {
			return nil, nil, p.fail(ctx, "Subscriptions List", err)
		}
		for _, s := range page.Value {
			if s.SubscriptionID != nil && (s.State == nil || *s.State == armsubscriptions.SubscriptionStateEnabled) {
				out = append(out, *s.SubscriptionID)
				named(s.SubscriptionID, s.DisplayName)
			}
		}
	}
	if len(out) == 0 {
		return nil, nil, apperr.E(apperr.Provider, "azure: the credentials can see no enabled subscription; set azure.subscription_id or grant Reader on one").
			WithProvider(string(model.Azure)).WithDetail(model.FailureDetail, model.FailurePermission)
	}
	return out, names, nil
}

// Check implements provider.Provider: a token, then a GET of the
// subscription (or the list of subscriptions when none is configured).
func (p *Provider) Check(ctx context.Context) error {
	if p.cfg.SubscriptionID == "" {
		_, err := p.subscriptions(ctx)
		return err
	}
	cred, err := p.credential()
	if err != nil {
		return err
	}
	c, err := armsubscriptions.NewClient(cred, p.clientOptions())
	if err != nil {
		return p.fail(ctx, "Subscriptions Get", err)
	}
	if _, err := c.Get(ctx, p.cfg.SubscriptionID, nil); err != nil {
		return p.fail(ctx, "Subscriptions Get", err)
	}
	return nil
}
