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

// Scrub replaces every secret value in s with "[redacted]". Values
// shorter than four characters are left alone: replacing them would
// mangle ordinary words without hiding anything.
func Scrub(s string, secrets []string) string {
	for _, v := range secrets {
		if len(v) >= 4 {
			s = strings.ReplaceAll(s, v, "[redacted]")
		}
	}
	return s
}

// ScrubError is err with its text scrubbed of secrets, for a cause that
// ends up in logs (apperr.Error quotes its cause); errors.Is and errors.As
// still reach err.
func ScrubError(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	return &scrubbed{err: err, text: Scrub(err.Error(), secrets)}
}

type scrubbed struct {
	err  error
	text string
}

func (s *scrubbed) Error() string { return s.text }
func (s *scrubbed) Unwrap() error { return s.err }
