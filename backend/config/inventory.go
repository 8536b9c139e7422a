package config

import (
	"net/url"
	"os"
	"regexp"

	"github.com/costpilot/costpilot/backend/model"
)

// InventorySource is <provider>.inventory: where a provider's inventory
// and utilization come from when not from its cost source.
type InventorySource string

// Inventory sources.
const (
	// InventoryDefault takes the inventory from the cost source: the live
	// API for api and athena, the simulation for demo, nothing for export.
	InventoryDefault InventorySource = ""
	// InventoryAPI reads the inventory and utilization with the live
	// connector (read-only) while the costs stay from the cost source, so
	// export users get rightsizing and idle checks.
	InventoryAPI InventorySource = "api"
)

// PrometheusConfig is <provider>.prometheus: a Prometheus server whose
// series give the provider's resources utilization (node-exporter,
// cAdvisor or a cloud exporter). Zero numbers and empty queries take the
// defaults of package metrics/prometheus.
type PrometheusConfig struct {
	// URL is the server's base URL (http or https), without credentials.
	URL string `yaml:"url"`
	// IDLabel is the label that holds the resource id (default
	// instance_id); IDRegex, when set, is matched against its value and
	// its first group (else the whole match) is the id.
	IDLabel string `yaml:"id_label"`
	IDRegex string `yaml:"id_regex"`
	// TypeLabel, when set, is a label holding the machine type, for
	// resources known only from an export (which names no type).
	TypeLabel string `yaml:"type_label"`
	// The PromQL of each measure, grouped by IDLabel (and TypeLabel).
	CPUQuery     string `yaml:"cpu_query"`
	MemoryQuery  string `yaml:"memory_query"`
	NetworkQuery string `yaml:"network_query"`
	// Days of hourly samples read at each sync.
	Days int `yaml:"days"`
	// Timeout is the seconds one HTTP request may take.
	Timeout int `yaml:"timeout"`
	// MaxSeries and MaxPoints bound one query's answer.
	MaxSeries int `yaml:"max_series"`
	MaxPoints int `yaml:"max_points"`
	// BearerTokenEnv names the environment variable holding a bearer
	// token for the server; the token itself never goes in the file.
	BearerTokenEnv string `yaml:"bearer_token_env"`
}

// Enabled reports whether a Prometheus server is configured.
func (p PrometheusConfig) Enabled() bool { return p.URL != "" }

// Prometheus bounds accepted in the configuration.
const (
	MaxPrometheusDays    = 30
	MaxPrometheusTimeout = 600
	MaxPrometheusSeries  = 1_000_000
	MaxPrometheusPoints  = 1_000_000_000
)

// InventorySynced reports whether a sync reads an inventory or
// utilization for a provider whose costs come from exports.
func (p ProviderSettings) InventorySynced() bool {
	return p.Source == model.SourceExport && (p.Inventory == InventoryAPI || p.Prometheus.Enabled())
}

// WithSource returns a copy of c whose provider k has source src, so the
// connector of another source can be built from the same settings.
func (c *Config) WithSource(k model.ProviderKey, src model.SourceKind) *Config {
	cp := *c
	if cm := cp.common(k); cm != nil {
		cm.Source = src
	}
	return &cp
}

var promLabel = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// validateInventory checks <provider>.inventory and <provider>.prometheus
// of the enabled providers.
func validateInventory(c *Config, add func(field, format string, args ...any)) {
	for _, k := range model.AllProviders {
		cm := c.common(k)
		if !cm.Enabled {
			continue
		}
		pre := string(k) + "."
		switch cm.Inventory {
		case InventoryDefault:
		case InventoryAPI:
			if cm.Source == model.SourceDemo {
				add(pre+"inventory", "api needs a real account: the demo source has its own simulated inventory")
			}
			if cm.Source == model.SourceExport {
				inventoryIdentity(c, k, add)
			}
		default:
			add(pre+"inventory", "must be api (or left out), not %q", cm.Inventory)
		}
		validatePrometheus(pre+"prometheus.", cm.Source, cm.Prometheus, add)
	}
}

// inventoryIdentity asks for what the live connector needs to list an
// export provider's resources.
func inventoryIdentity(c *Config, k model.ProviderKey, add func(field, format string, args ...any)) {
	why := "is required when " + string(k) + ".inventory is api"
	switch k {
	case model.Azure:
		if c.Azure.SubscriptionID == "" {
			add("azure.subscription_id", "%s", why)
		}
	case model.GCP:
		if c.GCP.ProjectID == "" {
			add("gcp.project_id", "%s", why)
		}
		if c.GCP.BillingTable == "" {
			add("gcp.billing_table", "%s (the gcp connector checks it even when it reads only the inventory)", why)
		}
	case model.OCI:
		for _, f := range []struct{ name, v string }{
			{"tenancy_id", c.OCI.TenancyID}, {"user_id", c.OCI.UserID},
			{"fingerprint", c.OCI.Fingerprint}, {"private_key_path", c.OCI.PrivateKeyPath},
		} {
			if f.v == "" && os.Getenv("OCI_CLI_CONFIG_FILE") == "" && !ociConfigExists() {
				add("oci."+f.name, "%s and no ~/.oci/config exists", why)
			}
		}
	}
}

func validatePrometheus(pre string, src model.SourceKind, p PrometheusConfig, add func(field, format string, args ...any)) {
	if !p.Enabled() {
		if p != (PrometheusConfig{}) {
			add(pre+"url", "is required when other %s keys are set", pre[:len(pre)-1])
		}
		return
	}
	if src == model.SourceDemo {
		add(pre+"url", "needs a real account: the demo source has its own simulated utilization")
	}
	if u, err := url.Parse(p.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		add(pre+"url", "must be an absolute http(s) URL without credentials or query (a token goes in bearer_token_env), got %q", p.URL)
	}
	for _, f := range []struct{ name, v string }{{"id_label", p.IDLabel}, {"type_label", p.TypeLabel}} {
		if f.v != "" && !promLabel.MatchString(f.v) {
			add(pre+f.name, "must be a Prometheus label name (letters, digits and _, not first a digit), not %q", f.v)
		}
	}
	if p.IDRegex != "" {
		if re, err := regexp.Compile(p.IDRegex); err != nil {
			add(pre+"id_regex", "is not a regular expression: %v", err)
		} else if re.NumSubexp() > 1 {
			add(pre+"id_regex", "must have at most one group (the resource id), has %d", re.NumSubexp())
		}
	}
	// Its numbers are bounded with every other setting (Ranges).
	if p.BearerTokenEnv != "" && !promLabel.MatchString(p.BearerTokenEnv) {
		add(pre+"bearer_token_env", "must name an environment variable, not %q", p.BearerTokenEnv)
	}
}
