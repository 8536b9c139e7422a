package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/egress"
	"github.com/costpilot/costpilot/backend/model"
)

// receiver is a loopback webhook that answers the statuses in script, then
// 200, and keeps what it accepted.
type receiver struct {
	mu       sync.Mutex
	script   []int
	posts    int
	accepted []map[string]any
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.posts++
	if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if len(r.script) > 0 {
		code := r.script[0]
		r.script = r.script[1:]
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(code)
		return
	}
	b, _ := io.ReadAll(req.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.accepted = append(r.accepted, m)
	_, _ = io.WriteString(w, "ok")
}

var testAlert = model.Alert{ID: "budget:prod:2026-06:100", Kind: KindBudget, Severity: SeverityCritical,
	Provider: "aws", Message: "Budget \"prod\" <over> & out", Time: "2026-06-10T12:00:00Z"}

func TestWebhookRetries(t *testing.T) {
	tests := []struct {
		name      string
		script    []int
		attempts  int
		wantErr   bool
		permanent bool
		posts     int
		maxTook   time.Duration
		minTook   time.Duration
	}{
		{"first try", nil, 4, false, false, 1, time.Second, 0},
		{"fails twice then succeeds: delivered once", []int{500, 503}, 4, false, false, 3, 2 * time.Second, 30 * time.Millisecond},
		{"429 waits Retry-After (capped)", []int{429}, 4, false, false, 2, 2 * time.Second, 40 * time.Millisecond},
		{"gives up after its attempts", []int{500, 500, 500, 500}, 3, true, false, 3, 2 * time.Second, 0},
		{"404 is permanent: no retry", []int{404}, 4, true, true, 1, time.Second, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &receiver{script: tt.script}
			srv := httptest.NewServer(rec)
			defer srv.Close()
			w := &Webhook{URL: srv.URL + "/services/T000/B000/SECRET", Attempts: tt.attempts, Backoff: 10 * time.Millisecond, MaxWait: 50 * time.Millisecond}
			start := time.Now()
			err := w.Send(context.Background(), testAlert)
			took := time.Since(start)
			if (err != nil) != tt.wantErr || errors.Is(err, ErrPermanent) != tt.permanent {
				t.Fatalf("err %v", err)
			}
			if err != nil && strings.Contains(err.Error(), "SECRET") {
				t.Fatalf("error leaks the hook path: %v", err)
			}
			if rec.posts != tt.posts || took > tt.maxTook || took < tt.minTook {
				t.Fatalf("%d posts in %v, want %d", rec.posts, took, tt.posts)
			}
			want := 1
			if tt.wantErr {
				want = 0
			}
			if len(rec.accepted) != want {
				t.Fatalf("accepted %d times, want %d", len(rec.accepted), want)
			}
			if want == 1 {
				m := rec.accepted[0]
				text, _ := m["text"].(string)
				blocks, _ := m["blocks"].([]any)
				if !strings.Contains(text, "[CRITICAL]") || !strings.Contains(text, "&lt;over&gt; &amp; out") || len(blocks) != 2 {
					t.Fatalf("payload %v", m)
				}
				b, _ := json.Marshal(blocks[1])
				if !strings.Contains(string(b), testAlert.ID) {
					t.Fatalf("context block lacks the id: %s", b)
				}
			}
		})
	}
}

func TestWebhookStopsOnCancel(t *testing.T) {
	rec := &receiver{script: []int{500, 500, 500}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	w := &Webhook{URL: srv.URL, Attempts: 5, Backoff: time.Second}
	start := time.Now()
	err := w.Send(ctx, testAlert)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 500*time.Millisecond {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}

func TestWebhookUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/hooks/SECRET"
	srv.Close() // nothing listens there now
	err := (&Webhook{URL: url, Attempts: 2, Backoff: time.Millisecond}).Send(context.Background(), testAlert)
	if err == nil || errors.Is(err, ErrPermanent) || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("err %v", err)
	}
}

// TestWebhookRefusesMetadataAddress: the default client checks the
// address it connects to, so a webhook that reaches a metadata service
// (by address here; by a name resolving to one in the field) fails at
// once, without retries, and before any packet leaves.
func TestWebhookRefusesMetadataAddress(t *testing.T) {
	w := &Webhook{URL: "http://169.254.169.254/latest/meta-data/", Backoff: time.Hour}
	start := time.Now()
	err := w.Post(context.Background(), map[string]string{"text": "x"})
	if !errors.Is(err, ErrPermanent) || !errors.Is(err, egress.ErrBlocked) {
		t.Fatalf("err = %v, want a permanent blocked-address error", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("a blocked address was retried")
	}
	if strings.Contains(err.Error(), "meta-data") {
		t.Fatalf("the error repeats the URL: %v", err)
	}
}
