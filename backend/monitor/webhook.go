package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/egress"
	"github.com/costpilot/costpilot/backend/model"
)

// Webhook posts alerts as Slack-compatible JSON ({"text", "blocks"}), which
// Slack incoming webhooks, Mattermost, Rocket.Chat and most chat bridges
// accept. Failed posts are retried with exponential backoff.
type Webhook struct {
	URL      string
	Client   *http.Client  // nil: a client with a 10 s timeout
	Attempts int           // tries per alert; default 4
	Backoff  time.Duration // wait before the second try, doubled after; default 500 ms
	// MaxWait bounds any one wait, including a server's Retry-After;
	// default 30 s.
	MaxWait time.Duration
	// AllowMetadata lets the default client connect to link-local and
	// cloud metadata addresses (outbound.allow_metadata_addresses); off,
	// a host name resolving to one is refused when connecting.
	AllowMetadata bool
}

// ErrPermanent marks a failure retrying cannot fix (a 4xx answer other
// than 408 and 429: a wrong URL or a revoked hook).
var ErrPermanent = errors.New("monitor: webhook refused the message")

// Send posts one alert (Post of its SlackMessage).
func (w *Webhook) Send(ctx context.Context, a model.Alert) error {
	return w.Post(ctx, SlackMessage(a))
}

// Post sends msg as JSON, retrying network errors, 408, 429 and 5xx
// answers. It returns nil once the receiver answered 2xx. Alerts and
// scheduled reports both go out through it, under the same rules.
func (w *Webhook) Post(ctx context.Context, msg any) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("monitor: encode webhook message: %w", err)
	}
	attempts := w.Attempts
	if attempts <= 0 {
		attempts = 4
	}
	wait := w.Backoff
	if wait <= 0 {
		wait = 500 * time.Millisecond
	}
	maxWait := w.MaxWait
	if maxWait <= 0 {
		maxWait = 30 * time.Second
	}
	client := w.Client
	if client == nil {
		client = egress.Client(10 * time.Second)
		if w.AllowMetadata {
			client = &http.Client{Timeout: 10 * time.Second}
		}
	}
	var last error
	for try := 1; try <= attempts; try++ {
		retryAfter, err := w.post(ctx, client, body)
		if err == nil {
			return nil
		}
		last = err
		if errors.Is(err, ErrPermanent) || try == attempts {
			break
		}
		d := wait
		if retryAfter > 0 {
			d = retryAfter
		}
		d = min(d, maxWait)
		select {
		case <-ctx.Done():
			return fmt.Errorf("monitor: webhook: %w (last error: %v)", ctx.Err(), last)
		case <-time.After(d):
		}
		wait *= 2
	}
	return fmt.Errorf("monitor: webhook failed after retries: %w", last)
}

// post makes one attempt; the duration is the server's Retry-After.
func (w *Webhook) post(ctx context.Context, client *http.Client, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("%w: the webhook url is not valid", ErrPermanent)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "costpilot")
	resp, err := client.Do(req)
	if err != nil {
		// The URL of a Slack hook is its secret: keep it out of the error.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, egress.ErrBlocked) {
			return 0, fmt.Errorf("%w: %w", ErrPermanent, err)
		}
		return 0, fmt.Errorf("monitor: webhook post: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return 0, nil
	case resp.StatusCode == http.StatusRequestTimeout, resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode >= 500:
		return retryAfter(resp.Header.Get("Retry-After")), fmt.Errorf("monitor: webhook answered %s", resp.Status)
	}
	return 0, fmt.Errorf("%w: it answered %s", ErrPermanent, resp.Status)
}

// retryAfter reads a Retry-After header given in seconds.
func retryAfter(h string) time.Duration {
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}

// Escape applies Slack's mrkdwn escaping of &, < and > to text that is
// not a link.
func Escape(s string) string { return escape(s) }

// SlackMessage is the JSON an alert is posted as: text for notifications
// and clients without blocks, and blocks with the message and a context
// line that carries the alert id.
func SlackMessage(a model.Alert) map[string]any {
	head := fmt.Sprintf("[%s] %s", strings.ToUpper(a.Severity), a.Message)
	ctxLine := fmt.Sprintf("costpilot · %s · id `%s` · %s", a.Kind, a.ID, a.Time)
	return map[string]any{
		"text": escape(head),
		"blocks": []any{
			map[string]any{"type": "section", "text": map[string]any{"type": "mrkdwn", "text": "*" + escape(strings.ToUpper(a.Severity)) + "* " + escape(a.Message)}},
			map[string]any{"type": "context", "elements": []any{map[string]any{"type": "mrkdwn", "text": escape(ctxLine)}}},
		},
	}
}

// escape applies Slack's mrkdwn escaping of &, < and >.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
