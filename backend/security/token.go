package security

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"

	"github.com/costpilot/costpilot/backend/apperr"
)

// TokenPrefix marks costpilot API tokens so secret scanners and people can
// recognise one that leaked.
const TokenPrefix = "cp_"

// RandomString returns n random bytes, base64url encoded (no padding).
func RandomString(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", apperr.Wrap(apperr.Security, err, "cannot generate random bytes")
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// NewAPIToken returns a fresh API token: the prefix and 32 random bytes.
func NewAPIToken() (string, error) {
	s, err := RandomString(32)
	if err != nil {
		return "", err
	}
	return TokenPrefix + s, nil
}

// HashToken is the SHA-256 (hex) under which session ids and API tokens
// are stored: they are 256-bit random values, so a fast hash suffices and a
// stolen database reveals no usable credential.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
