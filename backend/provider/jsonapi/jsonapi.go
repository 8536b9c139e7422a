// Package jsonapi is the small HTTP client the API-key connectors (OpenAI,
// Anthropic) share: GETs of JSON with their auth headers, retries of rate
// limits and server errors that honour Retry-After within a bounded
// budget, answers bounded in size, cursor paging bounded in pages, and
// failures as the provider's ProviderError naming the endpoint and the
// status, never a key.
package jsonapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// Defaults that suit the vendors' admin APIs: a page is a few hundred KiB
// at most, and a day's sync is a handful of pages.
const (
	DefaultMaxBody     = 8 << 20
	DefaultMaxPages    = 200
	DefaultMaxAttempts = 5
	DefaultTimeout     = time.Minute
	DefaultBaseDelay   = time.Second
	DefaultMaxDelay    = time.Minute
	DefaultRetryBudget = 3 * time.Minute
)

// Client calls one vendor's JSON API. Its zero value is not usable: set
// Provider, BaseURL and Header (through New).
type Client struct {
	Provider model.ProviderKey
	BaseURL  string
	// Header is sent with every request (the key, the API version); its
	// values are never shown in errors.
	Header http.Header
	HTTP   *http.Client
	// Grant is what a permission or credential failure should tell the
	// user to give (an admin key, a role).
	Grant string

	MaxBody     int64
	MaxPages    int
	MaxAttempts int
	// BaseDelay and MaxDelay shape the backoff when the API gives no
	// Retry-After; MaxDelay also caps a Retry-After. RetryBudget bounds
	// the time all waits of one call may take together.
	BaseDelay, MaxDelay, RetryBudget time.Duration
}

// New returns a client with the defaults.
func New(k model.ProviderKey, baseURL string, header http.Header) *Client {
	return &Client{
		Provider: k, BaseURL: strings.TrimRight(baseURL, "/"), Header: header,
		HTTP:    &http.Client{Timeout: DefaultTimeout},
		MaxBody: DefaultMaxBody, MaxPages: DefaultMaxPages, MaxAttempts: DefaultMaxAttempts,
		BaseDelay: DefaultBaseDelay, MaxDelay: DefaultMaxDelay, RetryBudget: DefaultRetryBudget,
	}
}

// Get fetches path with query q and decodes the JSON answer into out.
// Throttling (429), server errors (5xx) and network failures are tried
// again; anything else fails at once.
func (c *Client) Get(ctx context.Context, path string, q url.Values, out any) error {
	op := "GET " + path
	u := c.BaseURL + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var spent time.Duration
	for attempt := 1; ; attempt++ {
		body, retry, wait, err := c.once(ctx, op, u)
		if err == nil {
			if jerr := json.Unmarshal(body, out); jerr != nil {
				return c.fail(op, model.FailureUnreachable, "", "the answer is not the expected JSON ("+clip(jerr.Error(), 120)+")", jerr)
			}
			return nil
		}
		if ctx.Err() != nil {
			return c.fail(op, model.FailureCancelled, "", "cancelled", ctx.Err())
		}
		if !retry || attempt >= max(c.MaxAttempts, 1) {
			return err
		}
		if wait <= 0 {
			if d := min(c.BaseDelay<<(attempt-1), c.MaxDelay); d > 0 {
				wait = time.Duration(rand.Int64N(int64(d)) + 1)
			}
		}
		wait = min(wait, c.MaxDelay)
		if spent+wait > c.RetryBudget {
			// Waiting longer than the budget would hold a sync for
			// minutes; the failure says it was still throttled.
			return err
		}
		spent += wait
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return c.fail(op, model.FailureCancelled, "", "cancelled", ctx.Err())
		case <-t.C:
		}
	}
}

// statusError is an HTTP answer that was not a success.
type statusError struct{ status int }

// Error says the status.
func (e *statusError) Error() string { return "HTTP " + strconv.Itoa(e.status) }

// once makes one request. retry says whether the failure may pass (no
// answer, 429, 5xx); wait is the Retry-After the answer asked for.
func (c *Client) once(ctx context.Context, op, u string) (body []byte, retry bool, wait time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, false, 0, c.fail(op, model.FailureRequest, "", "cannot build the request", err)
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, 0, c.fail(op, model.FailureCancelled, "", "cancelled", ctx.Err())
		}
		// The cause names the URL, which holds no secret: keys go in
		// headers.
		return nil, true, 0, c.fail(op, model.FailureUnreachable, "", "no answer ("+netReason(err)+")", err)
	}
	defer res.Body.Close()
	body, err = io.ReadAll(io.LimitReader(res.Body, c.MaxBody+1))
	if err != nil {
		return nil, true, 0, c.fail(op, model.FailureUnreachable, "", "the answer could not be read", err)
	}
	if int64(len(body)) > c.MaxBody {
		return nil, false, 0, c.fail(op, model.FailureUnreachable, "", fmt.Sprintf("the answer is larger than %d bytes", c.MaxBody), nil)
	}
	if res.StatusCode/100 == 2 {
		return body, false, 0, nil
	}
	code, msg := apiError(body)
	text := res.Status
	if code != "" {
		text += ", " + code
	}
	if msg != "" {
		text += ": " + c.redact(msg)
	}
	reason := provider.StatusFailure(res.StatusCode)
	detail := describe(reason)
	if c.Grant != "" && (reason == model.FailureCredentials || reason == model.FailurePermission) {
		detail += "; " + c.Grant
	}
	retry = res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500
	return nil, retry, retryAfter(res.Header, time.Now()),
		c.fail(op, reason, code, detail+" ("+text+")", &statusError{status: res.StatusCode})
}

// fail is the provider's ProviderError for a failed call of op.
func (c *Client) fail(op string, reason model.ProviderFailure, code, why string, cause error) error {
	return provider.Failure(c.Provider, op, reason, code, string(c.Provider)+": "+op+": "+why, cause)
}

// apiError reads the vendors' error shape, {"error": {"type", "code",
// "message"}} (OpenAI and Anthropic alike): the code (OpenAI's code, else
// the type) and the message.
func apiError(body []byte) (code, msg string) {
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Code    any    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return "", ""
	}
	code = e.Error.Type
	if s, ok := e.Error.Code.(string); ok && s != "" {
		code = s
	}
	return clip(code, 64), clip(e.Error.Message, 300)
}

// keyLike matches what looks like an API key (sk-…, sk-ant-admin…,
// sk-admin-…): some APIs echo part of a rejected key in their message.
var keyLike = regexp.MustCompile(`sk-[A-Za-z0-9_*\-]{4,}`)

// redact removes every header value of c (the key) and anything shaped
// like a key from an API message.
func (c *Client) redact(s string) string {
	for _, vs := range c.Header {
		for _, v := range vs {
			for _, part := range []string{v, strings.TrimPrefix(v, "Bearer ")} {
				if len(part) >= 8 {
					s = strings.ReplaceAll(s, part, "[redacted]")
				}
			}
		}
	}
	return keyLike.ReplaceAllString(s, "[redacted]")
}

// retryAfter reads Retry-After (seconds or an HTTP date) and OpenAI's
// retry-after-ms; 0 when absent.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// describe is the user-facing words for a failure.
func describe(r model.ProviderFailure) string {
	switch r {
	case model.FailureCredentials:
		return "the admin key is missing, invalid or revoked"
	case model.FailurePermission:
		return "the key is not allowed to read the organization's usage and costs"
	case model.FailureThrottled:
		return "rate limited (still after the retries, or asked to wait longer than the retry budget)"
	case model.FailureNotFound:
		return "the endpoint or organization was not found"
	case model.FailureRequest:
		return "the API rejected the request"
	}
	return "the API failed after retries"
}

// netReason names a transport failure without its URL.
func netReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return "timed out"
		}
		err = ue.Err
	}
	return clip(err.Error(), 120)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return model.ClipDim(s, n) + "…"
}

// Cursor is the paging part of both vendors' list answers: has_more and
// the next_page token to send back as page.
type Cursor struct {
	HasMore  bool    `json:"has_more"`
	NextPage *string `json:"next_page"`
}

// Next is the cursor of the next page, and whether there is one.
func (c Cursor) Next() (string, bool) {
	if c.NextPage == nil {
		return "", c.HasMore
	}
	return *c.NextPage, c.HasMore
}

// Walk fetches path page by page (query q, the cursor in page) and hands
// each page to each, at most MaxPages pages. A page that says there is
// more without a cursor, or repeats one, ends the walk with an error
// rather than a loop or a silently short history.
func Walk[T any, P interface {
	*T
	Next() (string, bool)
}](ctx context.Context, c *Client, path string, q url.Values, each func(P) error) error {
	return WalkBy[T, P](ctx, c, path, q, "page", each)
}

// WalkBy is Walk with the cursor sent as param (after, after_id: the
// object lists page by the last id).
func WalkBy[T any, P interface {
	*T
	Next() (string, bool)
}](ctx context.Context, c *Client, path string, q url.Values, param string, each func(P) error) error {
	op := "GET " + path
	q = cloneValues(q)
	seen := map[string]bool{}
	for n := 1; ; n++ {
		if n > max(c.MaxPages, 1) {
			return c.fail(op, model.FailureRequest, "", fmt.Sprintf("more than %d pages; sync fewer days at a time", c.MaxPages), nil)
		}
		var page T
		p := P(&page)
		if err := c.Get(ctx, path, q, p); err != nil {
			return err
		}
		if err := each(p); err != nil {
			return err
		}
		next, more := p.Next()
		if !more {
			return nil
		}
		if next == "" || seen[next] {
			return c.fail(op, model.FailureUnreachable, "", "the API said there is more but gave no new cursor", nil)
		}
		seen[next] = true
		q.Set(param, next)
	}
}

// IDCursor is the paging part of the vendors' object lists (projects,
// workspaces): has_more and the last id, sent back as after or after_id.
type IDCursor struct {
	HasMore bool    `json:"has_more"`
	LastID  *string `json:"last_id"`
}

// Next is the cursor of the next page, and whether there is one.
func (c IDCursor) Next() (string, bool) {
	if c.LastID == nil {
		return "", c.HasMore
	}
	return *c.LastID, c.HasMore
}

// namesPage is a page of an object list: ids and names.
type namesPage struct {
	IDCursor
	Data []struct {
		ID   string  `json:"id"`
		Name *string `json:"name"`
	} `json:"data"`
}

// Names lists the id and name of every object of the list at path (query
// q, the cursor in param): the names the console shows for projects or
// workspaces. Objects without a name are left out.
func Names(ctx context.Context, c *Client, path string, q url.Values, param string) (map[string]string, error) {
	out := map[string]string{}
	err := WalkBy(ctx, c, path, q, param, func(p *namesPage) error {
		for _, o := range p.Data {
			if o.ID != "" && o.Name != nil && *o.Name != "" && *o.Name != o.ID {
				out[o.ID] = model.ClipDim(*o.Name, model.MaxNameLen)
			}
		}
		return nil
	})
	return out, err
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, vs := range q {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// Option tunes a connector's client; the defaults suit real use.
type Option func(*Client)

// WithBaseURL points the client at another server (a test server).
func WithBaseURL(u string) Option { return func(c *Client) { c.BaseURL = strings.TrimRight(u, "/") } }

// WithHTTPClient sets the HTTP client (its timeout bounds each request).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.HTTP = h } }

// WithRetry sets the attempts per call, the backoff's base and cap, and
// the budget of all waits of one call.
func WithRetry(attempts int, base, maxDelay, budget time.Duration) Option {
	return func(c *Client) {
		c.MaxAttempts, c.BaseDelay, c.MaxDelay, c.RetryBudget = attempts, base, maxDelay, budget
	}
}

// WithLimits bounds an answer's size in bytes and a walk's pages.
func WithLimits(maxBody int64, maxPages int) Option {
	return func(c *Client) { c.MaxBody, c.MaxPages = maxBody, maxPages }
}

// Apply applies opts to c and returns it.
func (c *Client) Apply(opts []Option) *Client {
	for _, o := range opts {
		o(c)
	}
	return c
}
