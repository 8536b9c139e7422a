package model

// ProviderFailure says why a call to a live cloud API failed. The live
// connectors put it in the "reason" detail of their ProviderError, so status
// and the UI can tell bad credentials from a missing permission without
// reading messages.
type ProviderFailure string

// FailureDetail is the apperr detail key that carries a ProviderFailure.
const FailureDetail = "reason"

// Why a live provider call failed.
const (
	FailureCredentials ProviderFailure = "bad_credentials"    // missing, invalid or expired credentials
	FailurePermission  ProviderFailure = "missing_permission" // authenticated but not allowed
	FailureThrottled   ProviderFailure = "throttled"          // still rate limited after the retries
	FailureUnreachable ProviderFailure = "unreachable"        // network error, timeout or server error after the retries
	FailureNotFound    ProviderFailure = "not_found"          // the account, table or resource named in config does not exist
	FailureRequest     ProviderFailure = "invalid_request"    // the API rejected the request (a configuration problem)
	FailureCancelled   ProviderFailure = "cancelled"          // the caller's context ended
)
