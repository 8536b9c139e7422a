package app

import (
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
)

// ErrorFormatter turns an error returned by a binding into the JSON string
// of the JSON error shape (docs/api.md, "Errors") (or the unhandled {error, message} shape),
// the same body the HTTP API sends. It is a string, not an object, because
// what a Wails v2 rejection carries varies by version: the raw value, or
// an Error whose message is that value; wails.ts parses either.
func ErrorFormatter(err error) any {
	body, _ := apperr.Encode(err, time.Now())
	return string(body)
}

// validation is a ValidationError naming the offending field.
func validation(msg, field string) error {
	return apperr.E(apperr.Validation, "%s", msg).WithDetail("field", field)
}
