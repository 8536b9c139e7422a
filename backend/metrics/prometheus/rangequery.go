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
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// Server is a Prometheus server's HTTP API as a range query needs it: the
// utilization source and the business metrics pulled from Prometheus
// (package units) both read through it.
type Server struct {
	Base      *url.URL
	Token     string // a bearer token; "" for none
	Client    *http.Client
	Timeout   time.Duration
	MaxSeries int // more series in one answer is an error
}

// Series is one item of a matrix answer.
type Series struct {
	Metric map[string]string `json:"metric"`
	Values []Point           `json:"values"`
}

// Point is a [unix seconds, "value"] pair.
type Point struct {
	T time.Time // UTC
	V float64   // NaN and ±Inf as Prometheus writes them
}

// UnmarshalJSON reads the API's [1717200000, "12.5"].
func (p *Point) UnmarshalJSON(b []byte) error {
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
	p.T = time.Unix(int64(sec), int64(frac*1e9)).UTC()
	p.V = v
	return nil
}

// answer is the API's envelope.
type answer struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      struct {
		ResultType string   `json:"resultType"`
		Result     []Series `json:"result"`
	} `json:"data"`
}

// QueryRange runs query over [from, to] at step through
// /api/v1/query_range and returns its series. Errors are Provider errors
// naming the query by name, never the token; the answer is read up to
// MaxBody bytes.
func (s Server) QueryRange(ctx context.Context, name, query string, from, to time.Time, step time.Duration) ([]Series, error) {
	timeout := cmpOr(s.Timeout, DefaultTimeout)
	client := s.Client
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	form := url.Values{"query": {query}, "start": {strconv.FormatInt(from.Unix(), 10)},
		"end": {strconv.FormatInt(to.Unix(), 10)}, "step": {strconv.Itoa(int(step / time.Second))},
		"timeout": {strconv.Itoa(int(timeout/time.Second)) + "s"}}
	endpoint := s.Base.JoinPath("api", "v1", "query_range")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, queryFailure(name, model.FailureRequest, "cannot build the request: %v", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if s.Token != "" {
		req.Header.Set("Authorization", "Bearer "+s.Token)
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, queryFailure(name, model.FailureUnreachable, "no answer within %s (prometheus timeout)", timeout)
		}
		return nil, queryFailure(name, model.FailureUnreachable, "cannot reach %s: %v", s.Base.Host, unwrapURL(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return nil, queryFailure(name, model.FailureUnreachable, "reading the answer: %v", unwrapURL(err))
	}
	if len(body) > MaxBody {
		return nil, queryFailure(name, model.FailureRequest, "the answer is larger than %d MiB: narrow the query", MaxBody>>20)
	}
	var a answer
	if err := json.Unmarshal(body, &a); err != nil || a.Status == "" {
		if resp.StatusCode/100 != 2 {
			return nil, queryFailure(name, provider.StatusFailure(resp.StatusCode), "%s answered HTTP %d, not the Prometheus API", s.Base.Host, resp.StatusCode)
		}
		return nil, queryFailure(name, model.FailureRequest, "%s did not answer in the Prometheus API's JSON: %v", s.Base.Host, err)
	}
	if a.Status != "success" {
		return nil, queryFailure(name, errorFailure(a.ErrorType, resp.StatusCode), "%s: %s", a.ErrorType, a.Error)
	}
	if a.Data.ResultType != "matrix" {
		return nil, queryFailure(name, model.FailureRequest, "the query gave a %s, not a range vector (matrix)", a.Data.ResultType)
	}
	if maxSeries := cmpOr(s.MaxSeries, DefaultMaxSeries); len(a.Data.Result) > maxSeries {
		return nil, queryFailure(name, model.FailureRequest, "the query gave %d series, more than %d (max_series): narrow it or raise the limit", len(a.Data.Result), maxSeries)
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

// queryFailure is a ProviderError naming the query and its failure.
func queryFailure(name string, why model.ProviderFailure, format string, args ...any) error {
	return apperr.E(apperr.Provider, "prometheus %s query: %s", name, fmt.Sprintf(format, args...)).
		WithDetail(model.FailureDetail, why).WithDetail("measure", name)
}
