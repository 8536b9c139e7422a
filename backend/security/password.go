// Package security holds costpilot's cryptography: password hashing
// (argon2id), session values signed under a key derived from the secret
// key, random tokens and redaction.
package security

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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

// hashSlots bounds the argon2 runs in progress in this process. Each run
// takes its MemoryKiB (19 MiB by default) for its whole duration, so
// without a bound N parallel logins take N times that; with it, memory
// stays at a few runs' worth whatever the concurrency. One run keeps a
// core busy, so more slots than cores would not finish sooner anyway.
var hashSlots = make(chan struct{}, max(1, runtime.NumCPU()))

// hashWait is how long a run waits for a slot before it is refused.
// Runs take tens of milliseconds, so a short queue drains well within it.
const hashWait = 3 * time.Second

var hashStats struct {
	runs, refused, active, peak atomic.Int64
}

// HashStats counts this process's argon2 runs: Runs finished, Refused for
// want of a slot, and Peak, the most that ever ran at once (at most Slots).
type HashStats struct {
	Runs, Refused, Peak int64
	Slots               int
}

// Stats returns the argon2 counters.
func Stats() HashStats {
	return HashStats{Runs: hashStats.runs.Load(), Refused: hashStats.refused.Load(),
		Peak: hashStats.peak.Load(), Slots: cap(hashSlots)}
}

// errBusy refuses a run that found no slot in time: 503 with Retry-After,
// since the server is overloaded rather than the caller over a limit.
func errBusy() error {
	return apperr.E(apperr.RateLimited, "the server is busy checking other passwords: try again in 1 second").
		WithDetail("retry_after", 1).WithDetail("status", http.StatusServiceUnavailable)
}

// idKey is argon2.IDKey run in a slot of hashSlots.
func idKey(ctx context.Context, password, salt []byte, p Argon2Params, keyLen uint32) ([]byte, error) {
	t := time.NewTimer(hashWait)
	defer t.Stop()
	select {
	case hashSlots <- struct{}{}:
	case <-t.C:
		hashStats.refused.Add(1)
		return nil, errBusy()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-hashSlots }()
	n := hashStats.active.Add(1)
	defer hashStats.active.Add(-1)
	for {
		peak := hashStats.peak.Load()
		if n <= peak || hashStats.peak.CompareAndSwap(peak, n) {
			break
		}
	}
	key := argon2.IDKey(password, salt, p.Time, p.MemoryKiB, p.Threads, keyLen)
	hashStats.runs.Add(1)
	return key, nil
}

// HashPassword returns an argon2id hash with a fresh
// random salt, in the PHC string format
// $argon2id$v=19$m=...,t=...,p=...$salt$key.
func HashPassword(ctx context.Context, password string) (string, error) {
	return HashPasswordWith(ctx, password, DefaultArgon2)
}

// HashPasswordWith hashes with explicit parameters.
func HashPasswordWith(ctx context.Context, password string, p Argon2Params) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", apperr.Wrap(apperr.Security, err, "cannot generate a salt")
	}
	key, err := idKey(ctx, []byte(password), salt, p, p.KeyLen)
	if err != nil {
		return "", err
	}
	return encodeHash(p, salt, key), nil
}

// encodeHash writes the PHC string of a hash.
func encodeHash(p Argon2Params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemoryKiB, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// VerifyPassword reports whether password matches
// the hash, compared in constant time. A malformed hash is a SecurityError;
// no free slot within a few seconds is a RateLimitError with status 503.
func VerifyPassword(ctx context.Context, password, encoded string) (bool, error) {
	p, salt, want, err := parseHash(encoded)
	if err != nil {
		return false, err
	}
	got, err := idKey(ctx, []byte(password), salt, p, uint32(len(want)))
	if err != nil {
		return false, err
	}
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
// answer takes as long as for a wrong password and reveals nothing. Only
// its parameters decide the work, so its salt and key are random bytes:
// no password matches it, and making it costs no argon2 run.
var dummyHash = sync.OnceValue(func() string {
	b := make([]byte, DefaultArgon2.SaltLen+int(DefaultArgon2.KeyLen))
	_, _ = rand.Read(b) // never fails on supported platforms; zeros would do as well
	return encodeHash(DefaultArgon2, b[:DefaultArgon2.SaltLen], b[DefaultArgon2.SaltLen:])
})

// BurnVerification does the work of one verification against a dummy
// hash, for a login naming an unknown user; it fails only as
// VerifyPassword does for want of a slot.
func BurnVerification(ctx context.Context, password string) error {
	_, err := VerifyPassword(ctx, password, dummyHash())
	return err
}
