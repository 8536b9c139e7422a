package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Default returns the built-in configuration used when there is no file:
// all four providers enabled on the demo source (docs/configuration.md).
func Default() *Config {
	c := base()
	for _, k := range model.AllProviders {
		cm := c.common(k)
		cm.Enabled = true
		cm.Source = model.SourceDemo
	}
	c.AWS.Region = "us-east-1"
	c.OCI.Region = "us-ashburn-1"
	return c
}

// base holds the defaults of every key that is not a provider switch.
func base() *Config {
	c := &Config{LogLevel: "INFO"}
	c.Optimization.CPUUtilizationThreshold = 0.8
	c.Optimization.MemoryUtilizationThreshold = 0.8
	d := &c.Dashboard
	d.Enabled = true
	d.Host = "0.0.0.0"
	d.Port = 5000
	d.Auth.Enabled = true
	d.Auth.SessionTimeout = 3600
	d.Auth.MaxLoginAttempts = 5
	d.Auth.LockoutSeconds = 900
	d.Features = FeaturesConfig{RealTimeUpdates: true, InteractiveCharts: true, ExportReports: true, Notifications: false}
	d.RateLimit = RateLimitConfig{Enabled: true, PerDay: 200, PerHour: 50, SessionPerHour: 2000, CostsPerMinute: 10, SessionCostsPerMinute: 120}
	d.Security.TrustedProxies = []string{}
	d.Auth.OIDC = OIDCConfig{ClientSecretEnv: DefaultOIDCSecretEnv, Scopes: []string{"openid", "email", "profile"},
		GroupsClaim: "groups", DefaultRole: model.RoleViewer}
	d.MaxBodyBytes = 1 << 20
	d.MaxUploadBytes = 512 << 20
	d.ReadTimeout = 10
	c.Import = ImportConfig{MaxResources: 100_000, MaxDailyLines: 20_000_000}
	c.Performance.Cache.Enabled = true
	c.Performance.Cache.TTL = 3600
	c.Performance.Parallel.MaxWorkers = 4
	c.Monitoring.Metrics.Enabled = true
	c.Analysis.CostMetric = model.MetricBilled
	c.Forecast.Interval = 0.95
	c.Currency.Base = "USD"
	c.Alerts.Thresholds = []float64{80, 100}
	c.Reports.SMTP = SMTPConfig{Port: 587, Security: SMTPStartTLS}
	return c
}

// Locate returns the config path to use: flag, $COSTPILOT_CONFIG,
// ./costpilot.yaml, $XDG_CONFIG_HOME/costpilot/config.yaml. The second
// result is false when none of them exists (use the defaults); an explicit
// flag or variable naming a missing file is an error.
func Locate(flag string) (string, bool, error) {
	if flag != "" {
		return explicit(flag, "--config")
	}
	if env := os.Getenv("COSTPILOT_CONFIG"); env != "" {
		return explicit(env, "COSTPILOT_CONFIG")
	}
	candidates := []string{"costpilot.yaml"}
	if dir := xdgConfigHome(); dir != "" {
		candidates = append(candidates, filepath.Join(dir, "costpilot", "config.yaml"))
	}
	for _, p := range candidates {
		if _, err := os.Stat(p); err == nil {
			abs, _ := filepath.Abs(p)
			return abs, true, nil
		}
	}
	return DefaultPath(), false, nil
}

// DefaultPath is where `init` writes a config when none is named.
func DefaultPath() string {
	if dir := xdgConfigHome(); dir != "" {
		return filepath.Join(dir, "costpilot", "config.yaml")
	}
	return "costpilot.yaml"
}

func explicit(p, from string) (string, bool, error) {
	abs, _ := filepath.Abs(p)
	if _, err := os.Stat(p); err != nil {
		return abs, false, apperr.Wrap(apperr.Configuration, err, "config file %s (from %s) cannot be read: %s", p, from, errText(err))
	}
	return abs, true, nil
}

func xdgConfigHome() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config")
	}
	return ""
}

func errText(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// Load reads the configuration at path ("" or a missing implicit file
// means the defaults), applies environment overrides and validates it.
// Every validation error is reported at once.
func Load(path string) (*Config, error) {
	c, err := Read(path)
	if err != nil {
		return nil, err
	}
	if errs := c.Validate(); len(errs) > 0 {
		return c, errs.Err()
	}
	return c, nil
}

// Read parses the file at path without validating it. An empty path gives
// the defaults.
func Read(path string) (*Config, error) {
	if path == "" {
		c := Default()
		if err := c.applyEnv(); err != nil {
			return nil, err
		}
		return c, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, apperr.Wrap(apperr.Configuration, err, "config file %s cannot be read: %s", path, errText(err))
	}
	c, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	if err := c.applyEnv(); err != nil {
		return nil, err
	}
	return c, nil
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// Parse decodes YAML onto the defaults. A provider absent from the file is
// disabled; a provider present without a source uses demo.
func Parse(data []byte, name string) (*Config, error) {
	c := base()
	c.Path = name
	if len(bytes.TrimSpace(data)) > 0 {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(c); err != nil {
			msg := strings.TrimPrefix(err.Error(), "yaml: ")
			msg = strings.ReplaceAll(msg, "\n", "; ")
			e := apperr.Wrap(apperr.Configuration, err, "%s: invalid YAML: %s", name, msg)
			if m := yamlLine.FindStringSubmatch(msg); m != nil {
				e.WithDetail("line", m[1])
			}
			return nil, e
		}
	}
	for _, k := range model.AllProviders {
		if cm := c.common(k); cm.Enabled && cm.Source == "" {
			cm.Source = model.SourceDemo
		}
	}
	return c, nil
}

// applyEnv lets secrets come from the environment, directly or from a
// file named by a _FILE variable, so they need not sit in the YAML. A
// _FILE variable naming a file that cannot be read is an error naming the
// variable and the file: a secret silently missing would start the
// dashboard with a generated key or a provider without its credential.
func (c *Config) applyEnv() error {
	set := func(dst *string, name string) error {
		if v := os.Getenv(name); v != "" {
			*dst = v
			return nil
		}
		f := os.Getenv(name + "_FILE")
		if f == "" {
			return nil
		}
		b, err := readSecretFile(f)
		if err != nil {
			return apperr.Wrap(apperr.Configuration, err, "%s_FILE names %s, which cannot be read: %s", name, f, errText(err)).
				WithDetail("field", name+"_FILE")
		}
		*dst = strings.TrimRight(string(b), "\r\n")
		return nil
	}
	for _, s := range []struct {
		dst  *string
		name string
	}{
		{&c.Dashboard.Security.SecretKey, "COSTPILOT_SECRET_KEY"},
		{&c.Azure.ClientSecret, "COSTPILOT_AZURE_CLIENT_SECRET"},
		{&c.AWS.SecretAccessKey, "COSTPILOT_AWS_SECRET_ACCESS_KEY"},
	} {
		if err := set(s.dst, s.name); err != nil {
			return err
		}
	}
	if v := os.Getenv("COSTPILOT_LOG_LEVEL"); v != "" {
		c.LogLevel = v
	}
	return nil
}

// maxSecretFile bounds a secret file: a key or a client secret is a line.
const maxSecretFile = 64 << 10

// readSecretFile reads a secret file of at most maxSecretFile bytes.
func readSecretFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSecretFile {
		return nil, fmt.Errorf("larger than %d KiB, not a secret", maxSecretFile>>10)
	}
	return b, nil
}

// LogLevels lists the log levels, in any case; WARN is read as WARNING.
var LogLevels = []string{"DEBUG", "INFO", "WARNING", "ERROR"}

// ValidLogLevel reports whether l names a log level.
func ValidLogLevel(l string) bool {
	u := strings.ToUpper(l)
	return u == "WARN" || slices.Contains(LogLevels, u)
}

// FieldError is one invalid or missing field, named by its dotted path.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (f FieldError) String() string { return f.Field + " " + f.Message }

// Errors is the list Validate returns.
type Errors []FieldError

// Err folds the list into one ConfigurationError naming every field.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	parts := make([]string, len(es))
	fields := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
		fields[i] = e.Field
	}
	return apperr.E(apperr.Configuration, "%s", strings.Join(parts, "; ")).
		WithDetail("errors", []FieldError(es)).
		WithDetail("fields", fields)
}

// athenaName is a Glue catalog, database or table name; it is quoted into
// the SQL, so nothing else is allowed.
var athenaName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,255}$`)

// Validate checks every field and returns all problems found.
func (c *Config) Validate() Errors {
	var es Errors
	add := func(field, format string, args ...any) {
		es = append(es, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	validateSources(c, add)
	validateInventory(c, add)
	validateAPISources(c, add)
	validateVendors(c, add)
	validateFocusSources(c, add)
	thr := func(field string, v float64) {
		if !(v > 0 && v <= 1) { // NaN too
			add(field, "must be a fraction in (0, 1], got %g", v)
		}
	}
	thr("optimization.cpu_utilization_threshold", c.Optimization.CPUUtilizationThreshold)
	thr("optimization.memory_utilization_threshold", c.Optimization.MemoryUtilizationThreshold)
	if !ValidLogLevel(c.LogLevel) {
		add("log_level", "must be %s, not %q", strings.Join(LogLevels, ", "), c.LogLevel)
	}
	d := c.Dashboard
	checkRanges(c, add)
	validateOIDC(d.Auth, add)
	validateOutbound(c, add)
	if u := d.PublicURL; u != "" {
		if pu, err := url.Parse(u); err != nil || pu.Host == "" || (pu.Scheme != "https" && pu.Scheme != "http") || pu.User != nil {
			add("dashboard.public_url", "must be an absolute http(s) URL without credentials, got %q", u)
		}
	}
	validateReports(c, add)
	validateKubernetes(c, add)
	validateUnits(c, add)
	if d.Security.SSLEnabled {
		if d.Security.SSLCert == "" {
			add("dashboard.security.ssl_cert", "is required when dashboard.security.ssl_enabled is true")
		}
		if d.Security.SSLKey == "" {
			add("dashboard.security.ssl_key", "is required when dashboard.security.ssl_enabled is true")
		}
	}
	if !c.Analysis.CostMetric.Valid() {
		add("analysis.cost_metric", "must be billed, effective or list, not %q", c.Analysis.CostMetric)
	}
	if c.Forecast.Interval != 0.80 && c.Forecast.Interval != 0.95 {
		add("forecast.interval", "must be 0.80 or 0.95, got %g", c.Forecast.Interval)
	}
	if len(c.Currency.Base) != 3 {
		add("currency.base", "must be a three-letter currency code, got %q", c.Currency.Base)
	}
	for i, b := range c.Budgets {
		CheckBudget(fmt.Sprintf("budgets[%d].", i), b, add)
	}
	return es
}

// validateSources checks each enabled provider's source, and the Athena
// settings when AWS reads through Athena.
func validateSources(c *Config, add func(field, format string, args ...any)) {
	for _, k := range model.AllProviders {
		cm := c.common(k)
		if !cm.Enabled {
			continue
		}
		switch cm.Source {
		// export needs no export_paths: with none, the provider shows
		// what `costpilot import` stored.
		case model.SourceDemo, model.SourceAPI, model.SourceExport:
		case model.SourceAthena:
			if k != model.AWS {
				add(string(k)+".source", "athena is an aws source only; %s takes demo, api or export", k)
			}
		default:
			if k == model.AWS {
				add("aws.source", "must be demo, api, athena or export, not %q", cm.Source)
			} else {
				add(string(k)+".source", "must be demo, api or export, not %q", cm.Source)
			}
		}
	}
	if c.AWS.Enabled && c.AWS.Source == model.SourceAthena {
		a := c.AWS.Athena
		if a.Database == "" {
			add("aws.athena.database", "is required when aws.source is athena (the Glue database of the export's table)")
		}
		if a.Table == "" {
			add("aws.athena.table", "is required when aws.source is athena (the export's table)")
		}
		for _, f := range []struct{ name, v string }{{"database", a.Database}, {"table", a.Table}, {"catalog", a.Catalog}} {
			if f.v != "" && !athenaName.MatchString(f.v) {
				add("aws.athena."+f.name, "must be a Glue name (letters, digits, _ and -), not %q", f.v)
			}
		}
		if a.Format != "" && !slices.Contains(AthenaFormats, a.Format) {
			add("aws.athena.format", "must be %s, not %q", strings.Join(AthenaFormats, ", "), a.Format)
		}
		if a.OutputLocation != "" && !strings.HasPrefix(a.OutputLocation, "s3://") {
			add("aws.athena.output_location", "must be an s3:// location, not %q", a.OutputLocation)
		}
	}
}

// validateVendors checks the AI vendors' endpoints: an absolute http(s)
// URL without credentials, under the outbound address rule.
func validateVendors(c *Config, add func(field, format string, args ...any)) {
	for _, k := range model.Vendors {
		v := c.Vendor(k)
		if v.Endpoint == "" {
			continue
		}
		field := string(k) + ".endpoint"
		if u, err := url.Parse(v.Endpoint); err == nil && (u.User != nil || u.RawQuery != "") {
			// The value is not repeated: it may hold a secret.
			add(field, "must be a URL without credentials or query (the admin key goes in a header)")
			continue
		}
		checkOutboundURL(c, field, v.Endpoint, add)
	}
}

// validateAPISources checks the settings each provider's live API needs.
func validateAPISources(c *Config, add func(field, format string, args ...any)) {
	if c.AWS.Enabled && c.AWS.Region == "" {
		add("aws.region", "is required when aws.enabled is true")
	}
	api := func(k model.ProviderKey) bool { cm := c.common(k); return cm.Enabled && cm.Source == model.SourceAPI }
	if api(model.Azure) && c.Azure.SubscriptionID == "" {
		add("azure.subscription_id", "is required when azure.source is api")
	}
	if c.Azure.Enabled {
		validateAzureCloud(c.Azure, add)
	}
	if api(model.GCP) {
		if c.GCP.ProjectID == "" {
			add("gcp.project_id", "is required when gcp.source is api")
		}
		if c.GCP.BillingTable == "" {
			add("gcp.billing_table", "is required when gcp.source is api (the BigQuery billing export table, project.dataset.table)")
		}
	}
	if api(model.OCI) {
		for _, f := range []struct{ name, v string }{
			{"tenancy_id", c.OCI.TenancyID}, {"user_id", c.OCI.UserID},
			{"fingerprint", c.OCI.Fingerprint}, {"private_key_path", c.OCI.PrivateKeyPath},
		} {
			if f.v == "" && os.Getenv("OCI_CLI_CONFIG_FILE") == "" && !ociConfigExists() {
				add("oci."+f.name, "is required when oci.source is api and no ~/.oci/config exists")
			}
		}
	}
}

// Budget bounds.
const (
	MaxBudgetName   = 100
	MaxBudgetAmount = 1e15
	maxBudgetScope  = 256
)

// CheckBudget reports each problem of a budget to add, its field named
// under prefix: the one rule for budgets from the config file and those
// made in the dashboard, API or CLI.
func CheckBudget(prefix string, b Budget, add func(field, format string, args ...any)) {
	if b.Name == "" || strings.TrimSpace(b.Name) != b.Name {
		add(prefix+"name", "is required, without leading or trailing spaces")
	} else if utf8.RuneCountInString(b.Name) > MaxBudgetName {
		add(prefix+"name", "is longer than %d characters", MaxBudgetName)
	}
	if !(b.Amount > 0 && b.Amount < MaxBudgetAmount) {
		add(prefix+"amount", "must be positive and below %g", float64(MaxBudgetAmount))
	}
	if b.Period != "monthly" && b.Period != "quarterly" {
		add(prefix+"period", "must be monthly or quarterly, not %q", b.Period)
	}
	if b.Scope.Provider != "" && !b.Scope.Provider.Valid() {
		add(prefix+"scope.provider", "must be aws, azure, gcp, oci or an imported provider's key (lower-case letters, digits and -), not %q", b.Scope.Provider)
	}
	if b.Scope.Tag != "" && !strings.Contains(b.Scope.Tag, ":") {
		add(prefix+"scope.tag", "must be key:value, got %q", b.Scope.Tag)
	}
	if len(b.Per) > maxBudgetScope || strings.ContainsFunc(b.Per, func(r rune) bool { return r == '\\' || r == '"' || unicode.IsControl(r) }) {
		add(prefix+"per", "must be a business metric's name (at most %d bytes, no quote, backslash or control character)", maxBudgetScope)
	}
	for _, f := range []struct{ name, v string }{{"account", b.Scope.Account}, {"service", b.Scope.Service}, {"category", b.Scope.Category}, {"tag", b.Scope.Tag},
		{"cluster", b.Scope.Cluster}, {"namespace", b.Scope.Namespace}} {
		if len(f.v) > maxBudgetScope {
			add(prefix+"scope."+f.name, "is longer than %d bytes", maxBudgetScope)
		}
	}
}

func ociConfigExists() bool {
	h, err := os.UserHomeDir()
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(h, ".oci", "config"))
	return err == nil
}
