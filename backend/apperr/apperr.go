// Package apperr is costpilot's one error type: a Kind, the provider it
// concerns, a user-facing message and details, and a cause that is never
// serialised. It also holds the one table from kinds to HTTP statuses and
// the JSON error shape every front door sends (docs/api.md, "Errors").
package apperr

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Kind classifies an error. Its string is the error_type of the JSON error
// shape.
type Kind string

// The kinds. Adding one means adding its status to statuses (a test fails
// otherwise) and to docs/api.md.
const (
	Base            Kind = "BaseError"
	Configuration   Kind = "ConfigurationError"
	Provider        Kind = "ProviderError"
	Report          Kind = "ReportError"
	Security        Kind = "SecurityError"
	Validation      Kind = "ValidationError"
	Unauthenticated Kind = "AuthenticationError"
	RateLimited     Kind = "RateLimitError"
	NotFound        Kind = "NotFoundError"
	NotImplemented  Kind = "NotImplementedError"
)

// Error is the error every layer returns to a front door.
type Error struct {
	Kind     Kind
	Provider string
	Message  string
	Details  map[string]any
	Err      error // cause; never serialised
}

// Error returns the message followed by the cause's text, for logs and
// the CLI; the cause is left out when the message already quotes it. The
// JSON error shape carries Text, never the cause.
func (e *Error) Error() string {
	if e.Err == nil {
		return e.Message
	}
	cause := e.Err.Error()
	switch {
	case e.Message == "":
		return cause
	case cause == "" || strings.Contains(e.Message, cause):
		return e.Message
	}
	// A message made by E or Wrap quotes an error by its Text: put the
	// whole text there rather than repeating it after the message.
	if t := Text(e.Err); t != "" && t != cause {
		if i := strings.LastIndex(e.Message, t); i >= 0 {
			return e.Message[:i] + cause + e.Message[i+len(t):]
		}
	}
	return e.Message + ": " + cause
}

// Text is the user-facing message without the cause: the cause may name
// internals (paths, SQL, upstream answers) that an API answer or a dialog
// must not show. It is the cause's text only when there is no message.
func (e *Error) Text() string {
	if e.Message == "" && e.Err != nil {
		return e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is matches another *Error by Kind, so errors.Is(err, apperr.E(apperr.NotFound, ""))
// works; prefer KindOf.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Message == ""
}

// Text is the user-facing text of any error: err.Error() with the cause
// of the first *Error in its chain left out. A wrapper's text quotes its
// inner error's, so that part is swapped for the inner error's Text.
func Text(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	for c := err; c != nil; c = errors.Unwrap(c) {
		if e, ok := c.(*Error); ok {
			return strings.Replace(s, e.Error(), e.Text(), 1)
		}
	}
	return s
}

// E builds an error of a kind with a formatted message. An error among
// args is formatted by its Text, so a message never quotes a cause.
func E(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: message(format, args)}
}

// Wrap builds an error of a kind around a cause; the message is formatted
// as E's.
func Wrap(kind Kind, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: message(format, args), Err: err}
}

// message formats a user-facing message, swapping each error argument for
// its Text (the caller's slice is left alone).
func message(format string, args []any) string {
	var out []any
	for i, a := range args {
		if err, ok := a.(error); ok {
			if out == nil {
				out = slices.Clone(args)
			}
			out[i] = Text(err)
		}
	}
	if out == nil {
		out = args
	}
	return fmt.Sprintf(format, out...)
}

// Invalid is the Validation error for a value outside an enumeration. It
// names the field and every allowed value, in the message and in details
// (field, value, allowed), so each front door can present it its own way
// (the CLI names its flag).
func Invalid(field, value string, allowed []string) *Error {
	return E(Validation, "%s must be one of %s, got %q", field, strings.Join(allowed, ", "), value).
		WithDetail("field", field).WithDetail("value", value).WithDetail("allowed", allowed)
}

// OneOf returns Invalid unless v is one of allowed.
func OneOf[T ~string](field string, v T, allowed []T) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return Invalid(field, string(v), names)
}

// WithProvider sets the provider and returns e.
func (e *Error) WithProvider(p string) *Error { e.Provider = p; return e }

// WithDetail adds a detail and returns e.
func (e *Error) WithDetail(k string, v any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[k] = v
	return e
}

// KindOf returns the kind of the first *Error in err's chain, or "" when
// there is none (an unhandled failure).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

// As returns the first *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Body is the JSON error shape: every failed API call answers with it.
type Body struct {
	Error     string         `json:"error"`
	ErrorType Kind           `json:"error_type"`
	Provider  string         `json:"provider"`
	Timestamp string         `json:"timestamp"`
	Details   map[string]any `json:"details"`
}

// InternalBody is the shape of an unhandled failure (an error with no
// kind, or a panic): a 500.
type InternalBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// Encode returns the JSON body for err: the error shape for an *Error, the
// internal shape otherwise. The second result is false for unhandled errors.
// Unhandled messages come from our own wrapping, which never includes secrets.
func Encode(err error, now time.Time) ([]byte, bool) {
	if e, ok := As(err); ok && e.Kind != "" {
		d := e.Details
		if d == nil {
			d = map[string]any{}
		}
		b, _ := json.Marshal(Body{
			Error:     e.Text(),
			ErrorType: e.Kind,
			Provider:  e.Provider,
			Timestamp: now.UTC().Format(time.RFC3339),
			Details:   d,
		})
		return b, true
	}
	b, _ := json.Marshal(InternalBody{Error: "Internal server error", Message: err.Error()})
	return b, false
}

// statuses is the HTTP status of each kind: the one table every front door
// uses (the HTTP server, and the desktop's asset server for reports and
// imports). A bad request is 400 whether the user's input or the
// configuration is wrong; a failing cloud is 502; a fault of costpilot's
// own (Base, Report) is 500.
var statuses = map[Kind]int{
	Base:            http.StatusInternalServerError,
	Configuration:   http.StatusBadRequest,
	Provider:        http.StatusBadGateway,
	Report:          http.StatusInternalServerError,
	Security:        http.StatusForbidden,
	Validation:      http.StatusBadRequest,
	Unauthenticated: http.StatusUnauthorized,
	RateLimited:     http.StatusTooManyRequests,
	NotFound:        http.StatusNotFound,
	NotImplemented:  http.StatusNotImplemented,
}

// KindStatus is the HTTP status of kind k; an unknown or empty kind is 500.
func KindStatus(k Kind) int {
	if s, ok := statuses[k]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// HTTPStatus is the HTTP status for err: its kind's, unless the error
// carries an explicit "status" detail (e.g. 413 for a large body); an
// error without a kind is a 500.
func HTTPStatus(err error) int {
	e, ok := As(err)
	if !ok {
		return http.StatusInternalServerError
	}
	if s, ok := e.Details["status"].(int); ok && s >= 400 && s < 600 {
		return s
	}
	return KindStatus(e.Kind)
}
