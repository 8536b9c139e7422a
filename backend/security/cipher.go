package security

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
)

// Purposes of the keys derived from the secret key: one key per use, so a
// session signature can never be replayed as a ciphertext or the reverse.
const (
	infoSecrets  = "costpilot secrets v1"
	infoSessions = "costpilot session signing v1"
)

// sealedVersion prefixes every ciphertext so the format can change later.
const sealedVersion = 1

// Keys are the keys derived from the configured secret key.
type Keys struct {
	aead    cipher.AEAD
	signKey []byte
}

// NewKeys derives the encryption and signing keys from the secret key with
// HKDF-SHA256. The secret key must be at least 16 characters.
func NewKeys(secretKey string) (*Keys, error) {
	if len(secretKey) < 16 {
		return nil, apperr.E(apperr.Security, "the secret key is too short: use at least 16 characters (32 random bytes recommended)")
	}
	encKey, err := hkdf.Key(sha256.New, []byte(secretKey), nil, infoSecrets, 32)
	if err != nil {
		return nil, apperr.Wrap(apperr.Security, err, "cannot derive the encryption key")
	}
	signKey, err := hkdf.Key(sha256.New, []byte(secretKey), nil, infoSessions, 32)
	if err != nil {
		return nil, apperr.Wrap(apperr.Security, err, "cannot derive the signing key")
	}
	block, err := aes.NewCipher(encKey)
	if err != nil {
		return nil, apperr.Wrap(apperr.Security, err, "cannot create the cipher")
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, apperr.Wrap(apperr.Security, err, "cannot create the cipher")
	}
	return &Keys{aead: aead, signKey: signKey}, nil
}

// Encrypt is encrypt_sensitive_data (SPEC.md 4.2): AES-256-GCM with a random
// nonce, returned as base64url(version || nonce || ciphertext+tag).
func (k *Keys) Encrypt(plaintext string) (string, error) {
	nonce := make([]byte, k.aead.NonceSize(), 1+k.aead.NonceSize()+len(plaintext)+k.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", apperr.Wrap(apperr.Security, err, "encryption failed: cannot generate a nonce")
	}
	out := append([]byte{sealedVersion}, nonce...)
	out = k.aead.Seal(out, nonce, []byte(plaintext), []byte{sealedVersion})
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// Decrypt is decrypt_sensitive_data (SPEC.md 4.2). Tampered, truncated or
// garbled input, or a ciphertext made under another key, is a SecurityError.
func (k *Keys) Decrypt(sealed string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(sealed))
	if err != nil {
		return "", apperr.E(apperr.Security, "decryption failed: the data is not valid encrypted text")
	}
	ns := k.aead.NonceSize()
	if len(raw) < 1+ns+k.aead.Overhead() || raw[0] != sealedVersion {
		return "", apperr.E(apperr.Security, "decryption failed: the data is truncated or of an unknown version")
	}
	plain, err := k.aead.Open(nil, raw[1:1+ns], raw[1+ns:], raw[:1])
	if err != nil {
		// GCM's tag check failed: tampered data or the wrong key.
		return "", apperr.E(apperr.Security, "decryption failed: the data was tampered with or encrypted under another key")
	}
	return string(plain), nil
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
