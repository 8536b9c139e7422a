package azure

import (
	"context"
	"errors"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// fail turns an SDK error into a ProviderError that says what failed and
// why, without secrets.
func (p *Provider) fail(ctx context.Context, what string, err error) error {
	return p.failRole(ctx, what, "Cost Management Reader and Reader", err)
}

// failRole is fail for a call that needs role (named when it is missing).
func (p *Provider) failRole(ctx context.Context, what, role string, err error) error {
	reason, code := classify(ctx, err)
	msg := "azure: " + what + ": " + describe(reason, role)
	if code != "" {
		msg += " (" + code + ")"
	}
	var af *azidentity.AuthenticationFailedError
	if errors.As(err, &af) && af.RawResponse != nil {
		msg += " (token request answered " + af.RawResponse.Status + ")"
	}
	return provider.Failure(model.Azure, what, reason, code, msg, err)
}

// classify decides the failure from the error chain.
func classify(ctx context.Context, err error) (model.ProviderFailure, string) {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return model.FailureCancelled, ""
	}
	var ce *credentialError
	var af *azidentity.AuthenticationFailedError
	if errors.As(err, &ce) || errors.As(err, &af) {
		return model.FailureCredentials, ""
	}
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		code := re.ErrorCode
		if strings.Contains(code, "AuthenticationToken") {
			return model.FailureCredentials, code
		}
		return provider.StatusFailure(re.StatusCode), code
	}
	return model.FailureUnreachable, ""
}

// describe is the user-facing words for a failure.
func describe(r model.ProviderFailure, role string) string {
	switch r {
	case model.FailureCredentials:
		return "the credentials are missing, invalid or expired"
	case model.FailurePermission:
		return "the identity lacks a role this call needs (" + role + ")"
	case model.FailureThrottled:
		return "throttled by Azure after retries"
	case model.FailureNotFound:
		return "the subscription or resource was not found"
	case model.FailureRequest:
		return "Azure rejected the request"
	case model.FailureCancelled:
		return "cancelled"
	}
	return "Azure could not be reached"
}

// markedCredential tags every token failure so fail can call it bad
// credentials, whichever member of the chain answered.
type markedCredential struct{ azcore.TokenCredential }

// GetToken implements azcore.TokenCredential, marking failures.
func (m markedCredential) GetToken(ctx context.Context, o policy.TokenRequestOptions) (azcore.AccessToken, error) {
	t, err := m.TokenCredential.GetToken(ctx, o)
	if err != nil && ctx.Err() == nil {
		return t, &credentialError{err}
	}
	return t, err
}

type credentialError struct{ err error }

// Error and Unwrap make credentialError an error around its cause.
func (e *credentialError) Error() string { return "get token: " + e.err.Error() }
func (e *credentialError) Unwrap() error { return e.err }
