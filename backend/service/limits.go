package service

import (
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
)

// Length bounds of user-supplied strings, in bytes. Every string a caller
// sends is bounded before it is stored, logged or used as a key, so no
// request can make costpilot keep or compare megabytes of it.
const (
	// MaxFilterLen bounds a filter value (account, service, tag) and a
	// name (rule set, token, report).
	MaxFilterLen = 256
	// maxAuditLen bounds what the audit log keeps of a username or
	// client address; a longer one is cut and marked.
	maxAuditLen = 128
)

// CheckLen is the ValidationError for a field longer than max bytes.
func CheckLen(field, v string, max int) error {
	if len(v) > max {
		return apperr.E(apperr.Validation, "%s is too long: at most %d bytes, got %d", field, max, len(v)).WithDetail("field", field)
	}
	return nil
}

// Bounded returns s cut to at most max bytes at a character boundary,
// ending in "…" when cut, for what is kept of strings only recorded
// (audit log, throttle keys), never for what must match exactly.
func Bounded(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const mark = "…"
	n := max - len(mark)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + mark
}
