package provider

import (
	"net/http"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Failure is the ProviderError every connector returns: the message says
// what failed and why (never a secret), and the details carry the reason
// (model.FailureDetail), the operation and, when the API gave one, its
// error code, so status pages can switch on them.
func Failure(k model.ProviderKey, operation string, reason model.ProviderFailure, code, message string, cause error) *apperr.Error {
	e := apperr.Wrap(apperr.Provider, cause, "%s", message).WithProvider(string(k)).
		WithDetail(model.FailureDetail, reason).WithDetail("operation", operation)
	if code != "" {
		e.WithDetail("code", code)
	}
	return e
}

// StatusFailure is what an HTTP status from a cloud API means for the
// user, for the statuses all four clouds use alike.
func StatusFailure(status int) model.ProviderFailure {
	switch {
	case status == http.StatusUnauthorized:
		return model.FailureCredentials
	case status == http.StatusForbidden:
		return model.FailurePermission
	case status == http.StatusTooManyRequests:
		return model.FailureThrottled
	case status == http.StatusNotFound:
		return model.FailureNotFound
	case status >= 500:
		return model.FailureUnreachable
	}
	return model.FailureRequest
}
