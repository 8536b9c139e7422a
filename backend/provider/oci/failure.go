package oci

import (
	"context"
	"errors"
	"net"
	"net/url"

	"github.com/oracle/oci-go-sdk/v65/common"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// fail turns an SDK error into a ProviderError that says what failed and
// why, without secrets.
func (p *Provider) fail(ctx context.Context, what string, err error) error {
	reason, code := classify(ctx, err)
	msg := "oci: " + what + ": " + describe(reason)
	if code != "" {
		msg += " (" + code + ")"
	}
	return provider.Failure(model.OCI, what, reason, code, msg, err)
}

// classify decides the failure from the error chain. OCI answers a missing
// policy with 404 NotAuthorizedOrNotFound, so that code means permission.
func classify(ctx context.Context, err error) (model.ProviderFailure, string) {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return model.FailureCancelled, ""
	}
	if se, ok := common.IsServiceError(err); ok {
		code := se.GetCode()
		if code == "NotAuthorizedOrNotFound" {
			return model.FailurePermission, code
		}
		return provider.StatusFailure(se.GetHTTPStatusCode()), code
	}
	var ce *credentialError
	if errors.As(err, &ce) {
		return model.FailureCredentials, ""
	}
	var ue *url.Error
	var ne net.Error
	if errors.As(err, &ue) || errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) {
		return model.FailureUnreachable, ""
	}
	// What remains fails before a request is sent: the key cannot be read
	// or the request cannot be signed.
	return model.FailureCredentials, ""
}

// describe is the user-facing words for a failure.
func describe(r model.ProviderFailure) string {
	switch r {
	case model.FailureCredentials:
		return "the API key is missing, invalid or not uploaded for this user"
	case model.FailurePermission:
		return "no IAM policy allows this call (or the resource does not exist)"
	case model.FailureThrottled:
		return "throttled by OCI after retries"
	case model.FailureNotFound:
		return "the tenancy or resource was not found"
	case model.FailureRequest:
		return "OCI rejected the request"
	case model.FailureCancelled:
		return "cancelled"
	}
	return "OCI could not be reached"
}

// credentialError marks a failure to set up the signing identity.
type credentialError struct{ err error }

// Error and Unwrap make credentialError an error around its cause.
func (e *credentialError) Error() string { return "credentials: " + e.err.Error() }
func (e *credentialError) Unwrap() error { return e.err }

// cancelled checks the context before a call. The SDK's retry loop writes
// its result from a goroutine that it abandons when the context ends (a
// data race inside oci-go-sdk), so an already-ended context must not reach
// it.
func (p *Provider) cancelled(ctx context.Context, what string) error {
	if err := ctx.Err(); err != nil {
		return p.fail(ctx, what, err)
	}
	return nil
}
