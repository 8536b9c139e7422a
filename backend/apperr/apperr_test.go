package apperr

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestHTTPStatus(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{E(Validation, "x"), http.StatusBadRequest},
		{E(Configuration, "x"), http.StatusBadRequest},
		{E(Unauthenticated, "x"), http.StatusUnauthorized},
		{E(Security, "x"), http.StatusForbidden},
		{E(NotFound, "x"), http.StatusNotFound},
		{E(RateLimited, "x"), http.StatusTooManyRequests},
		{E(NotImplemented, "x"), http.StatusNotImplemented},
		{E(Provider, "x"), http.StatusBadGateway},
		{E(Report, "x"), http.StatusInternalServerError},
		{E(Validation, "big").WithDetail("status", http.StatusRequestEntityTooLarge), http.StatusRequestEntityTooLarge},
		{fmt.Errorf("wrapped: %w", E(NotFound, "x")), http.StatusNotFound},
		{errors.New("plain"), http.StatusInternalServerError},
	}
	for _, tt := range tests {
		if got := HTTPStatus(tt.err); got != tt.want {
			t.Errorf("HTTPStatus(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestEncodeShapes(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	b, handled := Encode(Wrap(Provider, errors.New("secret cause"), "aws: throttled").WithProvider("aws"), now)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil || !handled {
		t.Fatal(err)
	}
	if body["error"] != "aws: throttled" || body["error_type"] != "ProviderError" || body["provider"] != "aws" ||
		body["timestamp"] != "2026-01-02T03:04:05Z" || body["details"] == nil {
		t.Fatalf("shape %s", b)
	}
	b, handled = Encode(errors.New("boom"), now)
	if handled || string(b) != `{"error":"Internal server error","message":"boom"}` {
		t.Fatalf("internal shape %s", b)
	}
}

func TestOneOfNamesFieldAndAllowedValues(t *testing.T) {
	type color string
	allowed := []color{"red", "green"}
	if err := OneOf("color", color("green"), allowed); err != nil {
		t.Fatalf("an allowed value refused: %v", err)
	}
	err := OneOf("color", color("blue"), allowed)
	e, ok := As(err)
	if !ok || e.Kind != Validation {
		t.Fatalf("got %v, want a Validation error", err)
	}
	if e.Details["field"] != "color" || e.Details["value"] != "blue" {
		t.Fatalf("details %v", e.Details)
	}
	if got, _ := e.Details["allowed"].([]string); strings.Join(got, ",") != "red,green" {
		t.Fatalf("allowed %v", e.Details["allowed"])
	}
}

func TestErrorKeepsItsCause(t *testing.T) {
	cause := errors.New("open /data/x.csv: permission denied")
	tests := []struct {
		name      string
		err       *Error
		wantError string
		wantText  string
	}{
		{"message and cause", Wrap(Validation, cause, "x.csv: cannot open file"),
			"x.csv: cannot open file: open /data/x.csv: permission denied", "x.csv: cannot open file"},
		{"message already quotes the cause", Wrap(Report, cause, "cannot write: %v", cause),
			"cannot write: open /data/x.csv: permission denied", "cannot write: open /data/x.csv: permission denied"},
		{"cause only", &Error{Kind: Base, Err: cause},
			"open /data/x.csv: permission denied", "open /data/x.csv: permission denied"},
		{"no cause", E(NotFound, "no such budget"), "no such budget", "no such budget"},
		{"empty cause text", Wrap(Base, errors.New(""), "failed"), "failed", "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.wantError {
				t.Errorf("Error() = %q, want %q", got, tt.wantError)
			}
			if got := tt.err.Text(); got != tt.wantText {
				t.Errorf("Text() = %q, want %q", got, tt.wantText)
			}
			if !errors.Is(tt.err, tt.err.Err) && tt.err.Err != nil {
				t.Errorf("errors.Is does not reach the cause")
			}
		})
	}
}

// The cause shows in logs (Error) but never in the JSON error shape: it
// may name internals the API must not answer with.
func TestEncodeLeavesTheCauseOut(t *testing.T) {
	err := fmt.Errorf("service: sync: %w", Wrap(Provider, errors.New("dial tcp 10.0.0.1:443: refused"), "aws: unreachable"))
	if !strings.Contains(err.Error(), "dial tcp 10.0.0.1:443") {
		t.Fatalf("Error() %q dropped the cause", err.Error())
	}
	b, _ := Encode(err, time.Now())
	var body Body
	if jerr := json.Unmarshal(b, &body); jerr != nil {
		t.Fatal(jerr)
	}
	if body.Error != "aws: unreachable" || strings.Contains(string(b), "10.0.0.1") {
		t.Fatalf("body %s", b)
	}
}

// An error quoted in another's message (the "%v", err habit) is quoted
// by its Text: the outer message, and so the API answer, never carries
// the inner cause, while Error still shows it once.
func TestQuotedErrorsKeepCausesOutOfMessages(t *testing.T) {
	inner := Wrap(Provider, errors.New("api error AccessDenied: arn:aws:iam::1:user/x"), "aws: access denied").WithProvider("aws")
	outer := Wrap(Provider, inner, "aws: credential check: %v", inner)
	if outer.Message != "aws: credential check: aws: access denied" {
		t.Errorf("Message = %q", outer.Message)
	}
	if got, want := outer.Error(), "aws: credential check: aws: access denied: api error AccessDenied: arn:aws:iam::1:user/x"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"apperr", inner, "aws: access denied"},
		{"wrapped by fmt", fmt.Errorf("service: sync aws: %w", inner), "service: sync aws: aws: access denied"},
		{"quoted by E", E(Validation, "bad: %s", inner), "bad: aws: access denied"},
		{"plain", errors.New("boom"), "boom"},
		{"nil", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.err); got != tt.want {
				t.Errorf("Text = %q, want %q", got, tt.want)
			}
		})
	}
}
