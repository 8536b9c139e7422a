package security

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
)

// infoSessions is the HKDF purpose of the session signing key: a key is
// derived per use, so a later use of the secret key cannot be confused with
// a session signature.
const infoSessions = "costpilot session signing v1"

// Keys are the keys derived from the configured secret key.
type Keys struct {
	signKey []byte
}

// NewKeys derives the session signing key from the secret key with
// HKDF-SHA256. The secret key must be at least 16 characters.
func NewKeys(secretKey string) (*Keys, error) {
	if len(secretKey) < 16 {
		return nil, apperr.E(apperr.Security, "the secret key is too short: use at least 16 characters (32 random bytes recommended)")
	}
	signKey, err := hkdf.Key(sha256.New, []byte(secretKey), nil, infoSessions, 32)
	if err != nil {
		return nil, apperr.Wrap(apperr.Security, err, "cannot derive the signing key")
	}
	return &Keys{signKey: signKey}, nil
}

// Sign returns value.signature, the signature an HMAC-SHA256 of value under
// the signing key, so a forged session cookie is refused before any lookup.
func (k *Keys) Sign(value string) string {
	m := hmac.New(sha256.New, k.signKey)
	m.Write([]byte(value))
	return value + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Unsign checks a value made by Sign and returns the value. A bad or
// missing signature is a SecurityError.
func (k *Keys) Unsign(signed string) (string, error) {
	i := strings.LastIndexByte(signed, '.')
	if i <= 0 {
		return "", apperr.E(apperr.Security, "the signed value has no signature")
	}
	value := signed[:i]
	sig, err := base64.RawURLEncoding.DecodeString(signed[i+1:])
	if err != nil {
		return "", apperr.E(apperr.Security, "the signature is not valid")
	}
	m := hmac.New(sha256.New, k.signKey)
	m.Write([]byte(value))
	if !hmac.Equal(sig, m.Sum(nil)) {
		return "", apperr.E(apperr.Security, "the signature is not valid")
	}
	return value, nil
}
