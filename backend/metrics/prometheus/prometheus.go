// Package prometheus reads resource utilization from a Prometheus server
// (node-exporter, cAdvisor or a cloud exporter) with PromQL over the HTTP
// API's query_range, and turns it into the hourly utilization samples the
// live connectors produce, so the rightsizing and idle checks run on it.
// It only reads.
package prometheus

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// Defaults of the keys of <provider>.prometheus left out.
const (
	DefaultIDLabel   = "instance_id"
	DefaultDays      = 14
	DefaultTimeout   = 30 * time.Second
	DefaultMaxSeries = 10_000
	DefaultMaxPoints = 5_000_000
	// MaxBody bounds one answer's size, whatever the limits above.
	MaxBody = 64 << 20
)

const (
	// step is the sample interval: hourly, as the connectors give.
	step = time.Hour
	// chunk is the span of one query_range request, so that no answer
	// holds more than a day of points per series.
	chunk = 24 * time.Hour
)

// Measure names one of the three queries.
type Measure string

// The measures read.
const (
	CPU     Measure = "cpu"
	Memory  Measure = "memory"
	Network Measure = "network"
)

// Queries are the PromQL of each measure: CPU and memory as used
// fractions (0..1), network as bytes in plus out per hour, each grouped by
// the id label (and the type label, when set).
type Queries map[Measure]string

// DefaultQueries are node-exporter queries grouped by the given labels.
func DefaultQueries(idLabel, typeLabel string) Queries {
	by := idLabel
	if typeLabel != "" {
		by += ", " + typeLabel
	}
	return Queries{
		CPU:    `1 - avg by (` + by + `) (rate(node_cpu_seconds_total{mode="idle"}[1h]))`,
		Memory: `1 - avg by (` + by + `) (avg_over_time(node_memory_MemAvailable_bytes[1h]) / avg_over_time(node_memory_MemTotal_bytes[1h]))`,
		Network: `sum by (` + by + `) (rate(node_network_receive_bytes_total{device!="lo"}[1h]) + ` +
			`rate(node_network_transmit_bytes_total{device!="lo"}[1h])) * 3600`,
	}
}

// Source is one Prometheus server and how its series map to resources.
type Source struct {
	base      *url.URL
	idLabel   string
	idRegex   *regexp.Regexp
	typeLabel string
	queries   Queries
	days      int
	timeout   time.Duration
	maxSeries int
	maxPoints int
	token     string
	client    *http.Client
	now       func() time.Time
}

// Option changes how a Source is built (tests).
type Option func(*Source)

// WithHTTPClient replaces the HTTP client.
func WithHTTPClient(c *http.Client) Option { return func(s *Source) { s.client = c } }

// WithNow replaces the clock.
func WithNow(now func() time.Time) Option { return func(s *Source) { s.now = now } }

// New returns the source of a <provider>.prometheus section, its left-out
// keys at their defaults. Nothing is called until Utilization.
func New(cfg config.PrometheusConfig, opts ...Option) (*Source, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, apperr.E(apperr.Configuration, "prometheus url must be an absolute http(s) URL without credentials")
	}
	s := &Source{base: u, idLabel: cmpOr(cfg.IDLabel, DefaultIDLabel), typeLabel: cfg.TypeLabel,
		days: cmpOr(cfg.Days, DefaultDays), timeout: DefaultTimeout, maxSeries: cmpOr(cfg.MaxSeries, DefaultMaxSeries),
		maxPoints: cmpOr(cfg.MaxPoints, DefaultMaxPoints), client: http.DefaultClient, now: time.Now}
	if cfg.Timeout > 0 {
		s.timeout = time.Duration(cfg.Timeout) * time.Second
	}
	if cfg.IDRegex != "" {
		if s.idRegex, err = regexp.Compile(cfg.IDRegex); err != nil {
			return nil, apperr.Wrap(apperr.Configuration, err, "prometheus id_regex is not a regular expression: %v", err)
		}
	}
	if cfg.BearerTokenEnv != "" {
		if s.token = os.Getenv(cfg.BearerTokenEnv); s.token == "" {
			return nil, apperr.E(apperr.Configuration, "prometheus bearer_token_env names %s, which is not set", cfg.BearerTokenEnv)
		}
	}
	s.queries = DefaultQueries(s.idLabel, s.typeLabel)
	for m, q := range map[Measure]string{CPU: cfg.CPUQuery, Memory: cfg.MemoryQuery, Network: cfg.NetworkQuery} {
		if q != "" {
			s.queries[m] = q
		}
	}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Queries returns the PromQL the source runs.
func (s *Source) Queries() Queries { return s.queries }

// Result is what one read gives.
type Result struct {
	// Samples are hourly, one per resource id (as the labels name it) and
	// hour with a CPU reading; Memory is -1 where the memory query gave
	// nothing.
	Samples []model.UtilizationSample
	// Types are the machine types the type label names, by resource id.
	Types map[string]string
	// Unmapped counts the series whose labels gave no resource id.
	Unmapped int
}

// Utilization runs the three queries over the last configured days, hour
// by hour, and joins them per resource and hour. Where several series
// give one resource the same hour, the highest value is kept: rightsizing
// must never see less load than there was.
func (s *Source) Utilization(ctx context.Context) (Result, error) {
	end := s.now().UTC().Truncate(step)
	start := end.Add(-time.Duration(s.days) * 24 * time.Hour)
	type key struct {
		id string
		t  int64
	}
	byKey := map[key]*model.UtilizationSample{}
	res := Result{Types: map[string]string{}}
	unmapped := map[string]bool{}
	for _, m := range []Measure{CPU, Memory, Network} {
		points := 0
		for from := start; from.Before(end); from = from.Add(chunk) {
			to := from.Add(chunk - step)
			if to.After(end) {
				to = end
			}
			series, err := s.queryRange(ctx, m, from, to)
			if err != nil {
				return Result{}, err
			}
			for _, sr := range series {
				points += len(sr.Values)
				if points > s.maxPoints {
					return Result{}, s.fail(m, model.FailureRequest, "the answer has more than %d points (max_points): narrow the query or raise the limit", s.maxPoints)
				}
				id := s.resourceID(sr.Metric)
				if id == "" {
					unmapped[labelsKey(sr.Metric)] = true
					continue
				}
				if t := sr.Metric[s.typeLabel]; s.typeLabel != "" && t != "" {
					res.Types[id] = t
				}
				for _, p := range sr.Values {
					if math.IsNaN(p.V) || math.IsInf(p.V, 0) {
						continue // no reading (a counter reset, a division by zero)
					}
					t := p.T.Truncate(step) // on the hour
					k := key{id, t.Unix()}
					smp := byKey[k]
					if smp == nil {
						smp = &model.UtilizationSample{ResourceID: id, Time: t, CPU: -1, Memory: -1}
						byKey[k] = smp
					}
					switch m {
					case CPU:
						smp.CPU = max(smp.CPU, clamp01(p.V))
					case Memory:
						smp.Memory = max(smp.Memory, clamp01(p.V))
					case Network:
						smp.NetworkBytes = max(smp.NetworkBytes, p.V)
					}
				}
			}
		}
	}
	for _, smp := range byKey {
		if smp.CPU >= 0 {
			res.Samples = append(res.Samples, *smp)
		}
	}
	sort.Slice(res.Samples, func(i, j int) bool {
		a, b := res.Samples[i], res.Samples[j]
		return a.ResourceID < b.ResourceID || (a.ResourceID == b.ResourceID && a.Time.Before(b.Time))
	})
	res.Unmapped = len(unmapped)
	return res, nil
}

func clamp01(v float64) float64 { return min(max(v, 0), 1) }

func labelsKey(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k, v := range m {
		keys = append(keys, k+"="+v)
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// resourceID is the id a series' labels name: the id label's value, or
// the id regex's first group (else whole match) in it; "" when none.
func (s *Source) resourceID(labels map[string]string) string {
	v := labels[s.idLabel]
	if v == "" || s.idRegex == nil {
		return v
	}
	m := s.idRegex.FindStringSubmatch(v)
	switch {
	case m == nil:
		return ""
	case len(m) > 1:
		return m[1]
	}
	return m[0]
}

// queryRange runs one measure's query over [from, to] at the step.
func (s *Source) queryRange(ctx context.Context, m Measure, from, to time.Time) ([]Series, error) {
	srv := Server{Base: s.base, Token: s.token, Client: s.client, Timeout: s.timeout, MaxSeries: s.maxSeries}
	return srv.QueryRange(ctx, string(m), s.queries[m], from, to, step)
}

// fail is a ProviderError naming the measure and its query's failure.
func (s *Source) fail(m Measure, why model.ProviderFailure, format string, args ...any) error {
	return queryFailure(string(m), why, format, args...)
}
