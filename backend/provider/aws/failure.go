package aws

import (
	"context"
	"errors"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/security"
)

// Error codes AWS services answer with, by what they mean for the user.
var (
	credentialCodes = map[string]bool{
		"UnrecognizedClientException": true, "InvalidClientTokenId": true, "ExpiredToken": true,
		"ExpiredTokenException": true, "AuthFailure": true, "SignatureDoesNotMatch": true,
		"IncompleteSignature": true, "InvalidAccessKeyId": true, "MissingAuthenticationToken": true,
		"RequestExpired": true, "InvalidSignatureException": true,
	}
	permissionCodes = map[string]bool{
		"AccessDeniedException": true, "AccessDenied": true, "UnauthorizedOperation": true,
		"UnauthorizedException": true, "OptInRequired": true, "Blocked": true,
	}
	throttleCodes = map[string]bool{
		"Throttling": true, "ThrottlingException": true, "LimitExceededException": true,
		"RequestLimitExceeded": true, "TooManyRequestsException": true, "RequestThrottled": true,
		"RequestThrottledException": true, "EC2ThrottledException": true,
	}
	notFoundCodes = map[string]bool{
		"DataUnavailableException": true, "BillExpirationException": true,
		"EntityNotFoundException": true, "ResourceNotFoundException": true,
	}
)

// fail turns an SDK error into a ProviderError that says what failed and
// why, without secrets.
func (p *Provider) fail(ctx context.Context, what string, err error) error {
	reason, code := classify(ctx, err)
	secrets := p.secrets()
	msg := "aws: " + what + ": " + describe(reason)
	if code != "" {
		msg += " (" + code
		var api smithy.APIError
		if errors.As(err, &api) && api.ErrorMessage() != "" {
			msg += ": " + truncate(security.Scrub(api.ErrorMessage(), secrets), 300)
		}
		msg += ")"
	}
	return provider.Failure(model.AWS, what, reason, code, msg, security.ScrubError(err, secrets))
}

// classify decides the failure from the error chain: the API's error code
// first, then the HTTP status, then the transport.
func classify(ctx context.Context, err error) (model.ProviderFailure, string) {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return model.FailureCancelled, ""
	}
	var ce *credentialError
	if errors.As(err, &ce) {
		return model.FailureCredentials, ""
	}
	code := ""
	var api smithy.APIError
	if errors.As(err, &api) {
		code = api.ErrorCode()
		switch {
		case credentialCodes[code]:
			return model.FailureCredentials, code
		case permissionCodes[code]:
			return model.FailurePermission, code
		case throttleCodes[code]:
			return model.FailureThrottled, code
		case notFoundCodes[code]:
			return model.FailureNotFound, code
		}
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return provider.StatusFailure(re.HTTPStatusCode()), code
	}
	var se *smithyhttp.RequestSendError
	if errors.As(err, &se) || errors.Is(err, context.DeadlineExceeded) {
		return model.FailureUnreachable, code
	}
	if code != "" {
		return model.FailureRequest, code
	}
	return model.FailureUnreachable, ""
}

// describe is the user-facing words for a failure.
func describe(r model.ProviderFailure) string {
	switch r {
	case model.FailureCredentials:
		return "the credentials are missing, invalid or expired"
	case model.FailurePermission:
		return "the credentials lack a permission this call needs"
	case model.FailureThrottled:
		return "throttled by AWS after retries"
	case model.FailureNotFound:
		return "the data asked for is not available"
	case model.FailureRequest:
		return "AWS rejected the request"
	case model.FailureCancelled:
		return "cancelled"
	}
	return "AWS could not be reached"
}

// secrets returns the values to keep out of messages.
func (p *Provider) secrets() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.secret
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
