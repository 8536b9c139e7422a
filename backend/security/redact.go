package security

import (
	"net/url"
	"strings"
)

// Redacted replaces secret values in logs.
const Redacted = "REDACTED"

// sensitiveWords mark query parameters and keys whose values are secrets.
var sensitiveWords = []string{"token", "password", "passwd", "secret", "key", "auth", "signature", "session", "credential"}

// IsSensitiveName reports whether a parameter or field name looks like it
// carries a secret (access_token, client_secret, api_key, ...).
func IsSensitiveName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range sensitiveWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// callbackParams are the OAuth parameters of a single sign-on callback:
// the code is a credential until used, the state binds the login. Their
// names are too common to match as words.
var callbackParams = map[string]bool{"code": true, "state": true}

// RedactQuery returns the raw query with the values of sensitive
// parameters replaced, for request logs. An unparsable query is dropped
// whole, since it cannot be checked.
func RedactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return Redacted
	}
	changed := false
	for k, vs := range q {
		if IsSensitiveName(k) || callbackParams[k] {
			for i := range vs {
				vs[i] = Redacted
			}
			changed = true
		}
	}
	if !changed {
		return raw
	}
	return q.Encode()
}
