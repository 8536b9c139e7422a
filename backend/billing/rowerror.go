package billing

import (
	"fmt"

	"github.com/costpilot/costpilot/backend/apperr"
)

// fieldError is a problem with one cell, before the file and line are known.
type fieldError struct {
	column string
	reason string
}

func (e *fieldError) Error() string { return e.column + ": " + e.reason }

func badField(column, format string, args ...any) *fieldError {
	return &fieldError{column: column, reason: fmt.Sprintf(format, args...)}
}

// lineError builds the Validation error every bad row gives:
// "file:line: column: reason".
func lineError(name string, line int64, column, reason string) *apperr.Error {
	e := apperr.E(apperr.Validation, "%s:%d: %s: %s", name, line, column, reason)
	return e.WithDetail("file", name).WithDetail("line", line).WithDetail("column", column)
}

// fileError is a Validation error about the whole file.
func fileError(name string, err error, format string, args ...any) *apperr.Error {
	msg := fmt.Sprintf(format, args...)
	return apperr.Wrap(apperr.Validation, err, "%s: %s", name, msg).WithDetail("file", name)
}
