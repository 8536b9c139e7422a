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
