package config

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/costpilot/costpilot/backend/egress"
	"github.com/costpilot/costpilot/backend/model"
)

// Range is the allowed values of one numeric setting, both ends included.
// Every numeric setting has one, so that no value can lift a limit the
// rest of costpilot relies on (a negative body limit, an import cap that
// lets one file take the server's memory, a session that never expires).
type Range struct {
	Key      string
	Min, Max float64
	Unit     string // what the number counts, for the message; may be empty
	get      func(*Config) float64
}

// Range bounds that other packages need.
const (
	// MaxImportResources bounds import.max_resources: the line identities
	// of an import are held in memory (see docs/configuration.md).
	MaxImportResources = 1_000_000
	// MaxImportDailyLines bounds import.max_daily_lines: the daily sums
	// spill to the data dir, 56 bytes each per sorted run.
	MaxImportDailyLines = 100_000_000
	// RateLimitMax bounds each dashboard.rate_limit allowance.
	RateLimitMax = 1_000_000
)

func intOf(p func(*Config) int) func(*Config) float64 {
	return func(c *Config) float64 { return float64(p(c)) }
}

func int64Of(p func(*Config) int64) func(*Config) float64 {
	return func(c *Config) float64 { return float64(p(c)) }
}

// Ranges lists the numeric settings that hold one value. Those in lists
// and maps (budgets, schedules, alert thresholds, currency rates) and the
// utilization fractions, whose lower end is excluded, are checked where
// their items are.
var Ranges = append([]Range{
	{"dashboard.port", 1, 65535, "", intOf(func(c *Config) int { return c.Dashboard.Port })},
	{"kubernetes.days", 0, MaxKubernetesDays, "days; 0 is the default, 15", intOf(func(c *Config) int { return c.Kubernetes.Days })},
	{"dashboard.auth.session_timeout", 60, 30 * 86400, "seconds", intOf(func(c *Config) int { return c.Dashboard.Auth.SessionTimeout })},
	{"dashboard.auth.max_login_attempts", 1, 1000, "", intOf(func(c *Config) int { return c.Dashboard.Auth.MaxLoginAttempts })},
	{"dashboard.auth.lockout_seconds", 1, 86400, "seconds", intOf(func(c *Config) int { return c.Dashboard.Auth.LockoutSeconds })},
	{"dashboard.rate_limit.per_day", 0, RateLimitMax, "requests; 0 is no limit", intOf(func(c *Config) int { return c.Dashboard.RateLimit.PerDay })},
	{"dashboard.rate_limit.per_hour", 0, RateLimitMax, "requests; 0 is no limit", intOf(func(c *Config) int { return c.Dashboard.RateLimit.PerHour })},
	{"dashboard.rate_limit.session_per_hour", 0, RateLimitMax, "requests; 0 is no limit", intOf(func(c *Config) int { return c.Dashboard.RateLimit.SessionPerHour })},
	{"dashboard.rate_limit.costs_per_minute", 0, RateLimitMax, "requests; 0 is no limit", intOf(func(c *Config) int { return c.Dashboard.RateLimit.CostsPerMinute })},
	{"dashboard.rate_limit.session_costs_per_minute", 0, RateLimitMax, "requests; 0 is no limit", intOf(func(c *Config) int { return c.Dashboard.RateLimit.SessionCostsPerMinute })},
	{"dashboard.max_body_bytes", 1 << 10, 64 << 20, "bytes", int64Of(func(c *Config) int64 { return c.Dashboard.MaxBodyBytes })},
	{"dashboard.max_upload_bytes", 1 << 20, 16 << 30, "bytes", int64Of(func(c *Config) int64 { return c.Dashboard.MaxUploadBytes })},
	{"dashboard.read_timeout", 1, 3600, "seconds", intOf(func(c *Config) int { return c.Dashboard.ReadTimeout })},
	{"import.max_resources", 1, MaxImportResources, "", intOf(func(c *Config) int { return c.Import.MaxResources })},
	{"import.max_daily_lines", 1, MaxImportDailyLines, "", int64Of(func(c *Config) int64 { return c.Import.MaxDailyLines })},
	{"performance.cache.ttl", 0, 7 * 86400, "seconds", intOf(func(c *Config) int { return c.Performance.Cache.TTL })},
	{"performance.parallel.max_workers", 1, 64, "", intOf(func(c *Config) int { return c.Performance.Parallel.MaxWorkers })},
	{"reports.smtp.port", 1, 65535, "", intOf(func(c *Config) int { return c.Reports.SMTP.Port })},
}, prometheusRanges()...)

// prometheusRanges bounds each provider's prometheus reader (0 takes the
// default).
func prometheusRanges() []Range {
	var out []Range
	for _, k := range model.AllProviders {
		prom := func(c *Config) *PrometheusConfig {
			if cm := c.common(k); cm != nil {
				return &cm.Prometheus
			}
			return &PrometheusConfig{}
		}
		pre := string(k) + ".prometheus."
		out = append(out,
			Range{pre + "days", 0, MaxPrometheusDays, "days; 0 is the default", intOf(func(c *Config) int { return prom(c).Days })},
			Range{pre + "timeout", 0, MaxPrometheusTimeout, "seconds; 0 is the default", intOf(func(c *Config) int { return prom(c).Timeout })},
			Range{pre + "max_series", 0, MaxPrometheusSeries, "series; 0 is the default", intOf(func(c *Config) int { return prom(c).MaxSeries })},
			Range{pre + "max_points", 0, MaxPrometheusPoints, "points; 0 is the default", intOf(func(c *Config) int { return prom(c).MaxPoints })})
	}
	return out
}

// Currency rate and alert threshold bounds.
const (
	minRate      = 1e-9
	maxRate      = 1e9
	maxThreshold = 1000 // percent of a budget
)

// inRange is false for NaN, which YAML spells .nan.
func inRange(v, lo, hi float64) bool { return v >= lo && v <= hi }

func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// checkRanges reports each numeric setting outside its range.
func checkRanges(c *Config, add func(field, format string, args ...any)) {
	for _, r := range Ranges {
		if v := r.get(c); !inRange(v, r.Min, r.Max) {
			unit := ""
			if r.Unit != "" {
				unit = " (" + r.Unit + ")"
			}
			add(r.Key, "must be between %s and %s%s, got %s", num(r.Min), num(r.Max), unit, num(v))
		}
	}
	for cur, r := range c.Currency.Rates {
		if !inRange(r, minRate, maxRate) {
			add("currency.rates."+cur, "must be between %s and %s base units, got %s", num(minRate), num(maxRate), num(r))
		}
	}
	for i, t := range c.Alerts.Thresholds {
		if !(t > 0 && t <= maxThreshold) {
			add(fmt.Sprintf("alerts.thresholds[%d]", i), "must be a percentage above 0 and at most %d, got %s", maxThreshold, num(t))
		}
	}
}

// OutboundConfig is the outbound section: where costpilot's own requests
// may go.
type OutboundConfig struct {
	// AllowMetadataAddresses lets outbound URLs (alerts.webhook_url, the
	// providers' endpoints, the single sign-on issuer) and the mail server
	// be link-local or cloud metadata addresses, refused otherwise.
	AllowMetadataAddresses bool `yaml:"allow_metadata_addresses"`
}

const allowMetadataKey = "outbound.allow_metadata_addresses"

// checkOutboundURL reports what is wrong with an outbound URL setting: it
// must be an absolute http(s) URL and, unless allowed, not reach a
// link-local or metadata address. The URL itself is not repeated, since a
// webhook's URL is its secret.
func checkOutboundURL(c *Config, field, v string, add func(field, format string, args ...any)) {
	v = strings.TrimSpace(v)
	if v == "" {
		return
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || u.Hostname() == "" || (u.Scheme != "https" && u.Scheme != "http") {
		scheme := ""
		if err == nil && u.Scheme != "" {
			scheme = fmt.Sprintf(" (scheme %q)", u.Scheme)
		}
		add(field, "must be an absolute http or https URL%s", scheme)
		return
	}
	checkOutboundHost(c, field, u.Hostname(), add)
}

// checkOutboundHost refuses a link-local or metadata host unless allowed.
func checkOutboundHost(c *Config, field, host string, add func(field, format string, args ...any)) {
	if !c.Outbound.AllowMetadataAddresses && egress.BlockedHost(host) {
		add(field, "must not reach a link-local or cloud metadata address (%s); set %s: true if this is intended", host, allowMetadataKey)
	}
}

// validateOutbound checks every setting costpilot sends requests to.
func validateOutbound(c *Config, add func(field, format string, args ...any)) {
	for _, f := range []struct{ field, v string }{
		{"alerts.webhook_url", c.Alerts.WebhookURL},
		{"aws.endpoint", c.AWS.Endpoint},
		{"aws.athena.endpoint", c.AWS.Athena.Endpoint},
		{"gcp.endpoint", c.GCP.Endpoint},
		{"oci.endpoint", c.OCI.Endpoint},
	} {
		checkOutboundURL(c, f.field, f.v, add)
	}
	// Azure's URLs must be https (validateAzure says so); their hosts
	// follow the same address rule.
	for _, f := range []struct{ field, v string }{
		{"azure.endpoint", c.Azure.Endpoint},
		{"azure.authority_host", c.Azure.AuthorityHost},
		{"azure.audience", c.Azure.Audience},
	} {
		if u, err := url.Parse(strings.TrimSpace(f.v)); err == nil && u.Hostname() != "" {
			checkOutboundHost(c, f.field, u.Hostname(), add)
		}
	}
	if o := c.Dashboard.Auth.OIDC; o.Enabled && o.Issuer != "" {
		// The rest of the issuer's rules are validateOIDC's.
		if u, err := url.Parse(o.Issuer); err == nil {
			checkOutboundHost(c, oidcPrefix+"issuer", u.Hostname(), add)
		}
	}
	if h := c.Reports.SMTP.Host; h != "" {
		checkOutboundHost(c, "reports.smtp.host", h, add)
	}
}
