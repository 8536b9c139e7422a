// Package config loads, defaults and validates costpilot's YAML
// configuration. docs/configuration.md describes every key.
package config

import (
	"slices"

	"github.com/costpilot/costpilot/backend/model"
)

// Config is the whole configuration file.
type Config struct {
	AWS          AWSConfig          `yaml:"aws"`
	Azure        AzureConfig        `yaml:"azure"`
	GCP          GCPConfig          `yaml:"gcp"`
	OCI          OCIConfig          `yaml:"oci"`
	OpenAI       VendorConfig       `yaml:"openai"`
	Anthropic    VendorConfig       `yaml:"anthropic"`
	FocusSources []FocusSource      `yaml:"focus_sources"`
	Optimization OptimizationConfig `yaml:"optimization"`
	OutputDir    string             `yaml:"output_dir"`
	DataDir      string             `yaml:"data_dir"`
	LogLevel     string             `yaml:"log_level"`
	Dashboard    DashboardConfig    `yaml:"dashboard"`
	Performance  PerformanceConfig  `yaml:"performance"`
	Monitoring   MonitoringConfig   `yaml:"monitoring"`
	Analysis     AnalysisConfig     `yaml:"analysis"`
	Forecast     ForecastConfig     `yaml:"forecast"`
	Currency     CurrencyConfig     `yaml:"currency"`
	Budgets      []Budget           `yaml:"budgets"`
	Alerts       AlertsConfig       `yaml:"alerts"`
	Import       ImportConfig       `yaml:"import"`
	MCP          MCPConfig          `yaml:"mcp"`
	Demo         DemoConfig         `yaml:"demo"`
	Outbound     OutboundConfig     `yaml:"outbound"`
	Reports      ReportsConfig      `yaml:"reports"`
	Kubernetes   KubernetesConfig   `yaml:"kubernetes"`
	Units        UnitsConfig        `yaml:"units"`
	// Accounts names billing accounts, sub-accounts, subscriptions,
	// projects and compartments by id; it wins over the names in exports.
	Accounts map[string]string `yaml:"accounts"`

	// Path is the file the configuration was read from; empty for the
	// built-in defaults.
	Path string `yaml:"-"`
}

// DemoConfig is the demo section: how the simulated accounts show beside
// real data.
type DemoConfig struct {
	// BesideReal keeps the demo data of providers on source demo shown
	// once another provider has real history (imported or synced); off,
	// they are left out of every answer so no page mixes the two.
	BesideReal bool `yaml:"beside_real"`
}

// MCPConfig is the mcp section: the Model Context Protocol server of
// costpilot mcp and the dashboard's /mcp.
type MCPConfig struct {
	// AllowWrites adds the tools that change state (a recommendation's
	// state, writing a report); off, assistants only read.
	AllowWrites bool `yaml:"allow_writes"`
}

// Common holds the fields every provider section has.
type Common struct {
	Enabled     bool             `yaml:"enabled"`
	Source      model.SourceKind `yaml:"source"`
	ExportPaths []string         `yaml:"export_paths"`
	// Inventory says where the inventory and utilization come from when
	// it is not where the costs come from (inventory.go).
	Inventory  InventorySource  `yaml:"inventory"`
	Prometheus PrometheusConfig `yaml:"prometheus"`
}

// AWSConfig is the aws section.
type AWSConfig struct {
	Common          `yaml:",inline"`
	Region          string   `yaml:"region"`
	AccountID       string   `yaml:"account_id"`
	Profile         string   `yaml:"profile"`
	AccessKeyID     string   `yaml:"access_key_id"`
	SecretAccessKey string   `yaml:"secret_access_key"`
	Regions         []string `yaml:"regions"`
	Endpoint        string   `yaml:"endpoint"`
	// Athena is where the Cost and Usage Report is queried when source is
	// athena.
	Athena AthenaConfig `yaml:"athena"`
}

// Athena table formats (aws.athena.format).
const (
	AthenaCUR2   = "cur2"   // CUR 2.0 from Data Exports, partitioned by billing_period
	AthenaFOCUS  = "focus"  // FOCUS 1.0 or 1.1 from Data Exports, partitioned by billing_period
	AthenaLegacy = "legacy" // legacy CUR's Athena integration, partitioned by year and month
)

// AthenaFormats lists the aws.athena.format values.
var AthenaFormats = []string{AthenaCUR2, AthenaFOCUS, AthenaLegacy}

// AthenaConfig is aws.athena: the Glue/Athena table of an AWS billing
// export and how to query it.
type AthenaConfig struct {
	Database  string `yaml:"database"`
	Table     string `yaml:"table"`
	Workgroup string `yaml:"workgroup"` // default "primary"
	// OutputLocation is the s3:// prefix query results are written to;
	// empty: the workgroup's own.
	OutputLocation string `yaml:"output_location"`
	Catalog        string `yaml:"catalog"` // default AwsDataCatalog
	Format         string `yaml:"format"`  // cur2 (default), focus or legacy
	// Endpoint overrides the Athena endpoint (a proxy or a test server).
	Endpoint string `yaml:"endpoint"`
}

// AzureConfig is the azure section.
type AzureConfig struct {
	Common         `yaml:",inline"`
	SubscriptionID string `yaml:"subscription_id"`
	TenantID       string `yaml:"tenant_id"`
	ClientID       string `yaml:"client_id"`
	ClientSecret   string `yaml:"client_secret"`
	// Endpoint overrides the cloud's Resource Manager URL.
	Endpoint string `yaml:"endpoint"`
	// Cloud names the Azure cloud signed in to and read (AzureClouds);
	// empty is the public cloud with the SDK's defaults.
	Cloud string `yaml:"cloud"`
	// AuthorityHost overrides the cloud's Entra ID authority (an https
	// URL); required with cloud custom.
	AuthorityHost string `yaml:"authority_host"`
	// Audience overrides the Resource Manager token audience; default the
	// cloud's own, or Endpoint for cloud custom.
	Audience string `yaml:"audience"`
}

// GCPConfig is the gcp section.
type GCPConfig struct {
	Common          `yaml:",inline"`
	ProjectID       string `yaml:"project_id"`
	CredentialsFile string `yaml:"credentials_file"`
	BillingTable    string `yaml:"billing_table"`
	Endpoint        string `yaml:"endpoint"`
}

// OCIConfig is the oci section.
type OCIConfig struct {
	Common         `yaml:",inline"`
	TenancyID      string `yaml:"tenancy_id"`
	UserID         string `yaml:"user_id"`
	Fingerprint    string `yaml:"fingerprint"`
	PrivateKeyPath string `yaml:"private_key_path"`
	Region         string `yaml:"region"`
	Endpoint       string `yaml:"endpoint"`
}

// VendorConfig is the section of an AI vendor whose cost API is read
// (openai, anthropic): its source is always api, its admin key comes from
// the environment or the credential store, never from this file.
type VendorConfig struct {
	Enabled bool `yaml:"enabled"`
	// Endpoint overrides the vendor's API base URL (a proxy or a test
	// server); empty is the vendor's own.
	Endpoint string `yaml:"endpoint"`
}

// Vendor returns the section of AI vendor k, nil for any other key.
func (c *Config) Vendor(k model.ProviderKey) *VendorConfig {
	switch k {
	case model.OpenAI:
		return &c.OpenAI
	case model.Anthropic:
		return &c.Anthropic
	}
	return nil
}

// OptimizationConfig holds the rightsizing thresholds, as fractions.
type OptimizationConfig struct {
	CPUUtilizationThreshold    float64 `yaml:"cpu_utilization_threshold"`
	MemoryUtilizationThreshold float64 `yaml:"memory_utilization_threshold"`
}

// DashboardConfig is the dashboard section.
type DashboardConfig struct {
	Enabled        bool            `yaml:"enabled"`
	Host           string          `yaml:"host"`
	Port           int             `yaml:"port"`
	Debug          bool            `yaml:"debug"`
	Auth           AuthConfig      `yaml:"auth"`
	Security       SecurityConfig  `yaml:"security"`
	Features       FeaturesConfig  `yaml:"features"`
	RateLimit      RateLimitConfig `yaml:"rate_limit"`
	MaxBodyBytes   int64           `yaml:"max_body_bytes"`
	MaxUploadBytes int64           `yaml:"max_upload_bytes"`
	ReadTimeout    int             `yaml:"read_timeout"`
	// PublicURL is where people reach the dashboard (https://costs.example.com),
	// for links in messages sent from it; empty when it has no such address.
	PublicURL string `yaml:"public_url"`
}

// AuthConfig is dashboard.auth.
type AuthConfig struct {
	Enabled          bool       `yaml:"enabled"`
	SessionTimeout   int        `yaml:"session_timeout"`
	MaxLoginAttempts int        `yaml:"max_login_attempts"`
	LockoutSeconds   int        `yaml:"lockout_seconds"`
	OIDC             OIDCConfig `yaml:"oidc"`
}

// OIDCConfig is dashboard.auth.oidc: single sign-on with an OpenID
// Connect provider. The client secret is never in the file: it comes from
// the environment variable ClientSecretEnv names (or a file named by that
// variable with _FILE appended).
type OIDCConfig struct {
	Enabled         bool     `yaml:"enabled"`
	Issuer          string   `yaml:"issuer"`
	ClientID        string   `yaml:"client_id"`
	ClientSecretEnv string   `yaml:"client_secret_env"`
	RedirectURL     string   `yaml:"redirect_url"`
	Scopes          []string `yaml:"scopes"`
	AllowedDomains  []string `yaml:"allowed_domains"`
	AllowedGroups   []string `yaml:"allowed_groups"`
	GroupsClaim     string   `yaml:"groups_claim"`
	// RoleClaim is the claim whose values Roles maps; empty means GroupsClaim.
	RoleClaim   string                `yaml:"role_claim"`
	Roles       map[string]model.Role `yaml:"roles"`
	DefaultRole model.Role            `yaml:"default_role"`

	// ClientSecret is here only so that a secret written into the file is
	// refused by name instead of being read: Validate rejects it.
	ClientSecret string `yaml:"client_secret"`
}

// SecurityConfig is dashboard.security.
type SecurityConfig struct {
	SecretKey      string   `yaml:"secret_key"`
	SSLEnabled     bool     `yaml:"ssl_enabled"`
	SSLCert        string   `yaml:"ssl_cert"`
	SSLKey         string   `yaml:"ssl_key"`
	TrustedProxies []string `yaml:"trusted_proxies"`
}

// FeaturesConfig is dashboard.features.
type FeaturesConfig struct {
	RealTimeUpdates   bool `yaml:"real_time_updates" json:"real_time_updates"`
	InteractiveCharts bool `yaml:"interactive_charts" json:"interactive_charts"`
	ExportReports     bool `yaml:"export_reports" json:"export_reports"`
	Notifications     bool `yaml:"notifications" json:"notifications"`
}

// RateLimitConfig is dashboard.rate_limit.
type RateLimitConfig struct {
	Enabled        bool `yaml:"enabled"`
	PerDay         int  `yaml:"per_day"`
	PerHour        int  `yaml:"per_hour"`
	SessionPerHour int  `yaml:"session_per_hour"`
	CostsPerMinute int  `yaml:"costs_per_minute"`
	// SessionCostsPerMinute replaces CostsPerMinute for browser sessions
	// (and the UI with auth off): a person clicking through views asks for
	// more analyses than a script should.
	SessionCostsPerMinute int `yaml:"session_costs_per_minute"`
}

// PerformanceConfig is the performance section.
type PerformanceConfig struct {
	Cache struct {
		Enabled bool `yaml:"enabled"`
		TTL     int  `yaml:"ttl"`
	} `yaml:"cache"`
	Parallel struct {
		MaxWorkers int `yaml:"max_workers"`
	} `yaml:"parallel"`
}

// MonitoringConfig is the monitoring section.
type MonitoringConfig struct {
	Metrics struct {
		Enabled bool `yaml:"enabled"`
	} `yaml:"metrics"`
}

// AnalysisConfig is the analysis section.
type AnalysisConfig struct {
	CostMetric model.CostMetric `yaml:"cost_metric"`
}

// ForecastConfig is the forecast section.
type ForecastConfig struct {
	Interval float64 `yaml:"interval"`
}

// CurrencyConfig converts mixed currencies to Base.
type CurrencyConfig struct {
	Base  string             `yaml:"base"`
	Rates map[string]float64 `yaml:"rates"`
}

// Budget is one item of budgets.
type Budget struct {
	Name   string      `yaml:"name" json:"name"`
	Amount float64     `yaml:"amount" json:"amount"`
	Period string      `yaml:"period" json:"period"`
	Scope  BudgetScope `yaml:"scope" json:"scope"`
	// Per names a business metric (costpilot units): the budget is then a
	// limit on the cost per unit of its scope over its period, not on
	// the spend.
	Per string `yaml:"per" json:"per,omitempty"`
}

// BudgetScope narrows a budget; empty fields match everything.
type BudgetScope struct {
	Provider model.ProviderKey `yaml:"provider" json:"provider,omitempty"`
	Account  string            `yaml:"account" json:"account,omitempty"`
	Service  string            `yaml:"service" json:"service,omitempty"`
	// Category is a FOCUS service category ("AI and Machine Learning").
	Category string `yaml:"category" json:"category,omitempty"`
	Tag      string `yaml:"tag" json:"tag,omitempty"` // key:value
	// Cluster and Namespace keep the shares of the Kubernetes pods of that
	// cluster and namespace in their nodes' billed lines.
	Cluster   string `yaml:"cluster" json:"cluster,omitempty"`
	Namespace string `yaml:"namespace" json:"namespace,omitempty"`
}

// ImportConfig bounds what one import of billing exports may hold, so
// that no file (an upload included) can take the server's memory or disk.
type ImportConfig struct {
	MaxResources  int   `yaml:"max_resources"`
	MaxDailyLines int64 `yaml:"max_daily_lines"`
}

// AlertsConfig configures alert thresholds and delivery.
type AlertsConfig struct {
	Thresholds []float64 `yaml:"thresholds"`
	WebhookURL string    `yaml:"webhook_url"`
}

// ProviderSettings is the part of a provider section every layer needs.
type ProviderSettings struct {
	Key         model.ProviderKey
	Enabled     bool
	Source      model.SourceKind
	ExportPaths []string
	Inventory   InventorySource
	Prometheus  PrometheusConfig
}

// Provider returns the common settings of one provider.
func (c *Config) Provider(k model.ProviderKey) ProviderSettings {
	var cm Common
	switch k {
	case model.AWS:
		cm = c.AWS.Common
	case model.Azure:
		cm = c.Azure.Common
	case model.GCP:
		cm = c.GCP.Common
	case model.OCI:
		cm = c.OCI.Common
	default:
		if v := c.Vendor(k); v != nil && v.Enabled {
			cm = Common{Enabled: true, Source: model.SourceAPI}
		}
	}
	return ProviderSettings{Key: k, Enabled: cm.Enabled, Source: cm.Source, ExportPaths: cm.ExportPaths,
		Inventory: cm.Inventory, Prometheus: cm.Prometheus}
}

// EnabledProviders lists the enabled providers in canonical order: the
// clouds, then the AI vendors.
func (c *Config) EnabledProviders() []model.ProviderKey {
	var out []model.ProviderKey
	for _, k := range append(slices.Clone(model.AllProviders), model.Vendors...) {
		if c.Provider(k).Enabled {
			out = append(out, k)
		}
	}
	return out
}

func (c *Config) common(k model.ProviderKey) *Common {
	switch k {
	case model.AWS:
		return &c.AWS.Common
	case model.Azure:
		return &c.Azure.Common
	case model.GCP:
		return &c.GCP.Common
	case model.OCI:
		return &c.OCI.Common
	}
	return nil
}
