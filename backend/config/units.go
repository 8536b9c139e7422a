package config

import (
	"fmt"
	"net/url"
	"strings"
)

// UnitsConfig is the units section: business metrics pulled from
// elsewhere, beside those imported from CSV files.
type UnitsConfig struct {
	Sources []UnitSource `yaml:"sources"`
}

// UnitSource is a business metric whose daily values a Prometheus query
// gives: the query is evaluated at the end of each UTC day (step 1d), so
// a range such as increase(orders_total[1d]) is that day's count.
type UnitSource struct {
	Metric        string `yaml:"metric"`
	PrometheusURL string `yaml:"prometheus_url"`
	Query         string `yaml:"query"`
	// Step is 1d: business metrics are daily.
	Step string `yaml:"step"`
	// Days is how many days back each pull reads (values are replaced),
	// so late data and corrections arrive.
	Days int `yaml:"days"`
	// BearerTokenEnv names the environment variable holding a token.
	BearerTokenEnv string `yaml:"bearer_token_env"`
	// Scope narrows the costs the metric divides, as a units CSV's scope
	// columns do: a dimension (provider, service…) or a tag key to a value.
	Scope map[string]string `yaml:"scope"`
}

// The bounds and defaults of units.sources.
const (
	UnitStep            = "1d"
	DefaultUnitDays     = 35
	MaxUnitDays         = 400
	MaxUnitSources      = 100
	maxUnitQueryLen     = 4096
	maxUnitMetricLen    = 128
	maxUnitScopeEntries = 16
)

// UnitDays is the days a source reads: Days, or the default.
func (u UnitSource) UnitDays() int {
	if u.Days <= 0 {
		return DefaultUnitDays
	}
	return u.Days
}

func validateUnits(c *Config, add func(field, format string, args ...any)) {
	if n := len(c.Units.Sources); n > MaxUnitSources {
		add("units.sources", "has %d sources, at most %d", n, MaxUnitSources)
	}
	seen := map[string]bool{}
	for i, u := range c.Units.Sources {
		f := fmt.Sprintf("units.sources[%d]", i)
		switch m := strings.TrimSpace(u.Metric); {
		case m == "" || m != u.Metric:
			add(f+".metric", "is required, without leading or trailing spaces")
		case len(m) > maxUnitMetricLen || strings.ContainsAny(m, "\\\""):
			add(f+".metric", "must be at most %d bytes, without quotes or backslashes", maxUnitMetricLen)
		case seen[m]:
			add(f+".metric", "%q is pulled twice", m)
		}
		seen[u.Metric] = true
		if strings.TrimSpace(u.PrometheusURL) == "" {
			add(f+".prometheus_url", "is required")
		} else if p, err := url.Parse(u.PrometheusURL); err != nil || p.User != nil || p.RawQuery != "" || p.Fragment != "" {
			add(f+".prometheus_url", "must be an absolute http(s) URL without credentials or query (a token goes in bearer_token_env)")
		} else {
			checkOutboundURL(c, f+".prometheus_url", u.PrometheusURL, add)
		}
		if q := strings.TrimSpace(u.Query); q == "" || len(q) > maxUnitQueryLen {
			add(f+".query", "is required, at most %d bytes of PromQL", maxUnitQueryLen)
		}
		if u.Step != "" && u.Step != UnitStep {
			add(f+".step", "must be %s (business metrics are daily), not %q", UnitStep, u.Step)
		}
		if u.Days < 0 || u.Days > MaxUnitDays {
			add(f+".days", "must be from 1 to %d (0: the default, %d), not %d", MaxUnitDays, DefaultUnitDays, u.Days)
		}
		if u.BearerTokenEnv != "" && !promLabel.MatchString(u.BearerTokenEnv) {
			add(f+".bearer_token_env", "must name an environment variable, not %q", u.BearerTokenEnv)
		}
		if len(u.Scope) > maxUnitScopeEntries {
			add(f+".scope", "has %d entries, at most %d", len(u.Scope), maxUnitScopeEntries)
		}
		for k, v := range u.Scope {
			if strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
				add(f+".scope", "keys and values must not be empty")
				break
			}
		}
	}
}
