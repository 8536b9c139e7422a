// Package security holds costpilot's cryptography: password hashing
// (argon2id), session values signed under a key derived from the secret
// key, random tokens and redaction.
package security

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"

	"github.com/costpilot/costpilot/backend/apperr"
)

// Argon2Params are the argon2id cost parameters of a hash.
type Argon2Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
	SaltLen   int
	KeyLen    uint32
}

// DefaultArgon2 follows OWASP's second argon2id profile (19 MiB, 2 passes,
// 1 lane): memory-hard, yet a burst of parallel logins on a small server
// cannot exhaust its memory the way 64 MiB per attempt could.
var DefaultArgon2 = Argon2Params{MemoryKiB: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// MinPasswordLen and MaxPasswordLen bound dashboard passwords; the upper
// bound keeps a huge "password" from being an expensive request.
const (
	MinPasswordLen = 12
	MaxPasswordLen = 1024
)

var b64 = base64.RawStdEncoding

// HashPassword returns an argon2id hash with a fresh
// random salt, in the PHC string format
// $argon2id$v=19$m=...,t=...,p=...$salt$key.
func HashPassword(password string) (string, error) {
	return HashPasswordWith(password, DefaultArgon2)
}

// HashPasswordWith hashes with explicit parameters.
func HashPasswordWith(password string, p Argon2Params) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", apperr.Wrap(apperr.Security, err, "cannot generate a salt")
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemoryKiB, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether password matches
// the hash, compared in constant time. A malformed hash is a SecurityError.
func VerifyPassword(password, encoded string) (bool, error) {
	p, salt, want, err := parseHash(encoded)
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// maxMemoryKiB refuses hashes that would make one verification allocate
// more than 1 GiB (a planted hash must not take the server down).
const maxMemoryKiB = 1 << 20

func parseHash(encoded string) (Argon2Params, []byte, []byte, error) {
	bad := func() (Argon2Params, []byte, []byte, error) {
		return Argon2Params{}, nil, nil, apperr.E(apperr.Security, "the stored password hash is not a valid argon2id hash")
	}
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return bad()
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return bad()
	}
	var p Argon2Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil {
		return bad()
	}
	if p.MemoryKiB < 8 || p.MemoryKiB > maxMemoryKiB || p.Time < 1 || p.Time > 64 || p.Threads < 1 {
		return bad()
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return bad()
	}
	key, err := b64.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 128 {
		return bad()
	}
	p.SaltLen, p.KeyLen = len(salt), uint32(len(key))
	return p, salt, key, nil
}

// dummyHash is verified against when a login names an unknown user, so the
// answer takes as long as for a wrong password and reveals nothing.
var dummyHash = sync.OnceValue(func() string {
	h, err := HashPassword("costpilot-dummy-password-never-matches")
	if err != nil {
		// rand.Read does not fail on supported platforms; a fixed hash of
		// the same cost keeps the timing equal if it ever does.
		return "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$3m9Yk6Cz3cCqg2h3QX1u2rS0uB3U1Jr0aHj0r8y2oZQ"
	}
	return h
})

// BurnVerification does the work of one verification against a dummy
// hash, for a login naming an unknown user.
func BurnVerification(password string) {
	_, _ = VerifyPassword(password, dummyHash())
}
