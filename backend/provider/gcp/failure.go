package gcp

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"

	"cloud.google.com/go/auth"
	"google.golang.org/api/googleapi"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// retry runs call until it succeeds, fails for good, or the attempts run
// out, sleeping with exponential backoff and full jitter between tries.
// The REST clients do not retry ordinary calls themselves.
func (p *Provider) retry(ctx context.Context, what string, call func() error) error {
	var err error
	for attempt := 0; attempt < max(p.opt.maxAttempts, 1); attempt++ {
		if attempt > 0 {
			d := min(p.opt.baseDelay<<(attempt-1), p.opt.maxDelay)
			if d > 0 {
				d = time.Duration(rand.Int64N(int64(d)) + 1)
			}
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return p.fail(ctx, what, ctx.Err())
			case <-t.C:
			}
		}
		if err = call(); err == nil {
			return nil
		}
		if r, _ := classify(ctx, err); r != model.FailureThrottled && r != model.FailureUnreachable {
			break
		}
	}
	return p.fail(ctx, what, err)
}

// fail turns an API error into a ProviderError that says what failed and
// why, without secrets.
func (p *Provider) fail(ctx context.Context, what string, err error) error {
	reason, code := classify(ctx, err)
	msg := "gcp: " + what + ": " + describe(reason)
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		msg += " (" + http.StatusText(ge.Code)
		if code != "" {
			msg += ", " + code
		}
		if ge.Message != "" {
			msg += ": " + truncate(ge.Message, 300)
		}
		msg += ")"
	}
	return provider.Failure(model.GCP, what, reason, code, msg, err)
}

// classify decides the failure from the error chain. BigQuery reports rate
// limits as 403 with reason rateLimitExceeded or quotaExceeded.
func classify(ctx context.Context, err error) (model.ProviderFailure, string) {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return model.FailureCancelled, ""
	}
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		reason := ""
		if len(ge.Errors) > 0 {
			reason = ge.Errors[0].Reason
		}
		if reason == "rateLimitExceeded" || reason == "quotaExceeded" || reason == "userRateLimitExceeded" {
			return model.FailureThrottled, reason
		}
		return provider.StatusFailure(ge.Code), reason
	}
	// Token errors come from the auth library before any API answer; a
	// token endpoint that is down is temporary, a refused token is not.
	var ae *auth.Error
	if errors.As(err, &ae) {
		if ae.Temporary() {
			return model.FailureUnreachable, ""
		}
		return model.FailureCredentials, ""
	}
	var ce *credentialError
	if errors.As(err, &ce) {
		return model.FailureCredentials, ""
	}
	return model.FailureUnreachable, ""
}

// describe is the user-facing words for a failure.
func describe(r model.ProviderFailure) string {
	switch r {
	case model.FailureCredentials:
		return "the credentials are missing, invalid or expired"
	case model.FailurePermission:
		return "the credentials lack a permission this call needs (BigQuery Data Viewer and Job User, Compute Viewer, Monitoring Viewer)"
	case model.FailureThrottled:
		return "rate limited by Google Cloud after retries"
	case model.FailureNotFound:
		return "the project, table or resource was not found"
	case model.FailureRequest:
		return "Google Cloud rejected the request"
	case model.FailureCancelled:
		return "cancelled"
	}
	return "Google Cloud could not be reached"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// credentialError marks a failure to set up credentials (no Application
// Default Credentials, an unreadable key) at client construction.
type credentialError struct{ err error }

// Error and Unwrap make credentialError an error around its cause.
func (e *credentialError) Error() string { return "credentials: " + e.err.Error() }
func (e *credentialError) Unwrap() error { return e.err }
