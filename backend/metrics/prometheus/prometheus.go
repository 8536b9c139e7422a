// Package prometheus reads resource utilization from a Prometheus server
// (node-exporter, cAdvisor or a cloud exporter) with PromQL over the HTTP
// API's query_range, and turns it into the hourly utilization samples the
// live connectors produce, so the rightsizing and idle checks run on it.
// It only reads.
package prometheus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
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
					if math.IsNaN(p.v) || math.IsInf(p.v, 0) {
						continue // no reading (a counter reset, a division by zero)
					}
					k := key{id, p.t.Unix()}
					smp := byKey[k]
					if smp == nil {
						smp = &model.UtilizationSample{ResourceID: id, Time: p.t, CPU: -1, Memory: -1}
						byKey[k] = smp
					}
					switch m {
					case CPU:
						smp.CPU = max(smp.CPU, clamp01(p.v))
					case Memory:
						smp.Memory = max(smp.Memory, clamp01(p.v))
					case Network:
						smp.NetworkBytes = max(smp.NetworkBytes, p.v)
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

// series is one item of a matrix answer.
type series struct {
	Metric map[string]string `json:"metric"`
	Values []point           `json:"values"`
}

// point is a [unix seconds, "value"] pair, its time on the hour.
type point struct {
	t time.Time
	v float64
}

func (p *point) UnmarshalJSON(b []byte) error {
	var raw [2]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var ts float64
	if err := json.Unmarshal(raw[0], &ts); err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	var vs string
	if err := json.Unmarshal(raw[1], &vs); err != nil {
		return fmt.Errorf("value: %w", err)
	}
	v, err := strconv.ParseFloat(vs, 64)
	if err != nil {
		return fmt.Errorf("value %q: %w", vs, err)
	}
	sec, frac := math.Modf(ts)
	p.t = time.Unix(int64(sec), int64(frac*1e9)).UTC().Truncate(step)
	p.v = v
	return nil
}

// answer is the API's envelope.
type answer struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      struct {
		ResultType string   `json:"resultType"`
		Result     []series `json:"result"`
	} `json:"data"`
}

// queryRange runs one measure's query over [from, to] at the step.
func (s *Source) queryRange(ctx context.Context, m Measure, from, to time.Time) ([]series, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	form := url.Values{"query": {s.queries[m]}, "start": {strconv.FormatInt(from.Unix(), 10)},
		"end": {strconv.FormatInt(to.Unix(), 10)}, "step": {strconv.Itoa(int(step / time.Second))},
		"timeout": {strconv.Itoa(int(s.timeout/time.Second)) + "s"}}
	endpoint := s.base.JoinPath("api", "v1", "query_range")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, s.fail(m, model.FailureRequest, "cannot build the request: %v", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, s.fail(m, model.FailureUnreachable, "no answer within %s (prometheus timeout)", s.timeout)
		}
		return nil, s.fail(m, model.FailureUnreachable, "cannot reach %s: %v", s.base.Host, unwrapURL(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return nil, s.fail(m, model.FailureUnreachable, "reading the answer: %v", unwrapURL(err))
	}
	if len(body) > MaxBody {
		return nil, s.fail(m, model.FailureRequest, "the answer is larger than %d MiB: narrow the query", MaxBody>>20)
	}
	var a answer
	if err := json.Unmarshal(body, &a); err != nil || a.Status == "" {
		if resp.StatusCode/100 != 2 {
			return nil, s.fail(m, provider.StatusFailure(resp.StatusCode), "%s answered HTTP %d, not the Prometheus API", s.base.Host, resp.StatusCode)
		}
		return nil, s.fail(m, model.FailureRequest, "%s did not answer in the Prometheus API's JSON: %v", s.base.Host, err)
	}
	if a.Status != "success" {
		return nil, s.fail(m, errorFailure(a.ErrorType, resp.StatusCode), "%s: %s", a.ErrorType, a.Error)
	}
	if a.Data.ResultType != "matrix" {
		return nil, s.fail(m, model.FailureRequest, "the query gave a %s, not a range vector (matrix)", a.Data.ResultType)
	}
	if len(a.Data.Result) > s.maxSeries {
		return nil, s.fail(m, model.FailureRequest, "the query gave %d series, more than %d (max_series): narrow it or raise the limit", len(a.Data.Result), s.maxSeries)
	}
	return a.Data.Result, nil
}

// unwrapURL drops the URL a *url.Error repeats: the message keeps the
// host only.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// errorFailure classifies the API's errorType (bad_data, execution,
// timeout, canceled, internal, unavailable, too_many_requests, ...).
func errorFailure(errorType string, code int) model.ProviderFailure {
	switch errorType {
	case "bad_data", "execution", "not_acceptable":
		return model.FailureRequest
	case "timeout", "canceled", "unavailable", "internal":
		return model.FailureUnreachable
	}
	return provider.StatusFailure(code)
}

// fail is a ProviderError naming the measure and its query's failure.
func (s *Source) fail(m Measure, why model.ProviderFailure, format string, args ...any) error {
	return apperr.E(apperr.Provider, "prometheus %s query: %s", m, fmt.Sprintf(format, args...)).
		WithDetail(model.FailureDetail, why).WithDetail("measure", string(m))
}
