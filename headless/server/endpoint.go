package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
)

// endpoint is the one adapter between HTTP and the Service (docs/architecture.md):
// dec turns the request into the method's input, fn is the Service method,
// and the result or error is written as JSON. Handlers hold no logic.
func endpoint[In, Out any](dec func(*http.Request) (In, error), fn func(context.Context, In) (Out, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := dec(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		out, err := fn(r.Context(), in)
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// none is the decoder of endpoints without input.
func none(*http.Request) (struct{}, error) { return struct{}{}, nil }

// noInput adapts a Service method that takes only ctx.
func noInput[Out any](fn func(context.Context) (Out, error)) func(context.Context, struct{}) (Out, error) {
	return func(ctx context.Context, _ struct{}) (Out, error) { return fn(ctx) }
}

// jsonBody decodes a JSON request body into T. An empty body gives T's
// zero value (a POST with nothing to say is accepted); unknown fields and
// trailing data are refused so typos do not pass silently.
func jsonBody[T any](r *http.Request) (T, error) {
	var v T
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return v, nil
		}
		return v, bodyError(err)
	}
	if dec.More() {
		return v, apperr.E(apperr.Validation, "the request body holds more than one JSON value")
	}
	return v, nil
}

// bodyError maps a body read or decode failure to the error to show.
func bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errTooLarge(mbe.Limit)
	}
	e := apperr.Wrap(apperr.Validation, err, "the request body is not valid JSON: %v", err)
	if f := badField(err); f != "" {
		e = e.WithDetail("field", f)
	}
	return e
}

// badField is the JSON field a decode error is about (docs/api.md: a
// ValidationError's details.field names it); "" for a syntax error.
func badField(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field
	}
	// DisallowUnknownFields' error has no type of its own.
	const unknown = `json: unknown field "`
	if msg := err.Error(); strings.HasPrefix(msg, unknown) {
		return strings.TrimSuffix(strings.TrimPrefix(msg, unknown), `"`)
	}
	return ""
}

// errTooLarge is the 413 answer; details.max_bytes says the limit.
func errTooLarge(limit int64) error {
	return apperr.E(apperr.Validation, "the request body is larger than %d bytes", limit).WithDetail("max_bytes", limit).WithDetail("status", http.StatusRequestEntityTooLarge)
}

// statusOf maps an error to its HTTP status (apperr's one table).
func statusOf(err error) int { return apperr.HTTPStatus(err) }

// writeError writes err in the error shape (docs/api.md) with its status;
// an error without a kind is the 500 {"error":"Internal server error"} body.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	if r != nil && errors.Is(err, context.DeadlineExceeded) && errors.Is(r.Context().Err(), context.DeadlineExceeded) {
		err = errTooSlow(r, err)
	}
	status := statusOf(err)
	if e, ok := apperr.As(err); ok && e.Details["status"] != nil {
		// The status override is for this layer only, not for the body.
		c := *e
		c.Details = map[string]any{}
		for k, v := range e.Details {
			if k != "status" {
				c.Details[k] = v
			}
		}
		err = &c
	}
	// 429 (a limit) and 503 (busy) both say when to come back.
	if e, ok := apperr.As(err); ok {
		if sec, ok := e.Details["retry_after"].(int); ok {
			w.Header().Set("Retry-After", strconv.Itoa(sec))
		}
	}
	if status == http.StatusUnauthorized && isAPI(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="costpilot"`)
	}
	if info := infoOf(r); info != nil {
		info.err = err
	}
	body, _ := apperr.Encode(err, time.Now())
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeJSON writes v with status. The value is encoded before anything
// is sent, so an encoding failure can still become a 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice && rv.IsNil() {
		v = []struct{}{} // a list is [] when empty, never null
	}
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, nil, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

func isAPI(r *http.Request) bool {
	return r != nil && len(r.URL.Path) >= 5 && r.URL.Path[:5] == "/api/"
}
