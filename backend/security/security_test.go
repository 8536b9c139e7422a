package security

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
)

var ctx = context.Background()

// fast keeps the tests quick; the format and checks are the same.
var fast = Argon2Params{MemoryKiB: 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func TestHashAndVerify(t *testing.T) {
	h, err := HashPasswordWith(ctx, "correct horse battery", fast)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		password string
		want     bool
	}{
		{"right password", "correct horse battery", true},
		{"wrong password", "correct horse batterY", false},
		{"empty", "", false},
		{"prefix", "correct horse", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, err := VerifyPassword(ctx, tt.password, h)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.want {
				t.Fatalf("VerifyPassword = %v, want %v", ok, tt.want)
			}
		})
	}
}

func TestDefaultHashIsArgon2idWithParams(t *testing.T) {
	h, err := HashPassword(ctx, "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q", h)
	}
	if ok, err := VerifyPassword(ctx, "a long enough password", h); err != nil || !ok {
		t.Fatalf("verify: %v %v", ok, err)
	}
}

func TestDistinctSalts(t *testing.T) {
	seen := map[string]bool{}
	salts := map[string]bool{}
	for i := 0; i < 5; i++ {
		h, err := HashPasswordWith(ctx, "same password here", fast)
		if err != nil {
			t.Fatal(err)
		}
		if seen[h] {
			t.Fatal("two hashes of the same password are equal")
		}
		seen[h] = true
		salts[strings.Split(h, "$")[4]] = true
	}
	if len(salts) != 5 {
		t.Fatalf("%d distinct salts of 5", len(salts))
	}
}

func TestMalformedHashIsSecurityError(t *testing.T) {
	good, _ := HashPasswordWith(ctx, "password12345", fast)
	parts := strings.Split(good, "$")
	tests := []struct {
		name string
		hash string
	}{
		{"empty", ""},
		{"bcrypt", "$2a$10$abcdefghijklmnopqrstuvCDEFGHIJKLMNOPQRSTUVWXYZ01234"},
		{"bad version", strings.Replace(good, "v=19", "v=16", 1)},
		{"bad params", strings.Replace(good, parts[3], "m=x,t=1,p=1", 1)},
		{"huge memory", strings.Replace(good, parts[3], "m=99999999,t=1,p=1", 1)},
		{"bad salt", strings.Replace(good, parts[4], "!!!", 1)},
		{"short key", strings.Replace(good, parts[5], "AAAA", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := VerifyPassword(ctx, "password12345", tt.hash)
			if apperr.KindOf(err) != apperr.Security {
				t.Fatalf("kind %q (%v), want SecurityError", apperr.KindOf(err), err)
			}
		})
	}
}

func TestShortSecretKeyRefused(t *testing.T) {
	if _, err := NewKeys("short"); apperr.KindOf(err) != apperr.Security {
		t.Fatalf("kind %q", apperr.KindOf(err))
	}
}

func TestSignUnsign(t *testing.T) {
	k, _ := NewKeys("0123456789abcdef0123456789abcdef")
	other, _ := NewKeys("another secret key, also long")
	s := k.Sign("session-id-123")
	if v, err := k.Unsign(s); err != nil || v != "session-id-123" {
		t.Fatalf("Unsign = %q, %v", v, err)
	}
	tests := []struct {
		name string
		keys *Keys
		in   string
	}{
		{"other key", other, s},
		{"changed value", k, "session-id-124" + s[len("session-id-123"):]},
		{"no signature", k, "session-id-123"},
		{"empty signature", k, "session-id-123."},
		{"garbled signature", k, "session-id-123.!!!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.keys.Unsign(tt.in); apperr.KindOf(err) != apperr.Security {
				t.Fatalf("kind %q", apperr.KindOf(err))
			}
		})
	}
}

func TestTokens(t *testing.T) {
	a, _ := NewAPIToken()
	b, _ := NewAPIToken()
	if a == b || !strings.HasPrefix(a, TokenPrefix) || len(a) < 40 {
		t.Fatalf("tokens %q %q", a, b)
	}
	if HashToken(a) == HashToken(b) || HashToken(a) != HashToken(strings.Clone(a)) || len(HashToken(a)) != 64 {
		t.Fatal("HashToken is not a stable SHA-256 hex")
	}
}

func TestRedactQuery(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"nothing sensitive", "days=30&provider=aws", "days=30&provider=aws"},
		{"token", "days=30&access_token=abc", "access_token=REDACTED&days=30"},
		{"api key", "api_key=s3cr3t", "api_key=REDACTED"},
		{"sso callback", "code=c0de&state=st4te", "code=REDACTED&state=REDACTED"},
		{"provider error stays", "error=access_denied&state=s", "error=access_denied&state=REDACTED"},
		{"empty", "", ""},
		{"unparsable", "a=%zz", "REDACTED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactQuery(tt.in); got != tt.want {
				t.Fatalf("RedactQuery(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestHashingBoundedBySlots: 40 parallel verifications never run more
// than Slots (the number of cores) argon2 runs at once, and all of them
// finish; so memory stays at Slots runs' worth whatever the concurrency.
func TestHashingBoundedBySlots(t *testing.T) {
	h, err := HashPasswordWith(ctx, "a long enough password", fast)
	if err != nil {
		t.Fatal(err)
	}
	before := Stats()
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := VerifyPassword(ctx, "wrong password here", h); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	after := Stats()
	if after.Slots != runtime.NumCPU() || after.Peak > int64(after.Slots) {
		t.Fatalf("peak %d concurrent runs with %d slots on %d cores", after.Peak, after.Slots, runtime.NumCPU())
	}
	if got := after.Runs - before.Runs; got != 40 {
		t.Fatalf("%d runs, want 40", got)
	}
}

// TestHashingRefusedWhenBusy: with every slot taken for longer than the
// wait, a verification is refused with a RateLimitError of status 503
// and a retry_after, and a cancelled caller stops waiting at once.
func TestHashingRefusedWhenBusy(t *testing.T) {
	for range cap(hashSlots) {
		hashSlots <- struct{}{}
	}
	t.Cleanup(func() {
		for range cap(hashSlots) {
			<-hashSlots
		}
	})
	start := time.Now()
	_, err := VerifyPassword(ctx, "password12345", dummyHash())
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.RateLimited || apperr.HTTPStatus(err) != http.StatusServiceUnavailable || e.Details["retry_after"] != 1 {
		t.Fatalf("busy answer: %v", err)
	}
	if d := time.Since(start); d < hashWait || d > hashWait+2*time.Second {
		t.Fatalf("refused after %v, want about %v", d, hashWait)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := BurnVerification(cctx, "password12345"); err != context.Canceled {
		t.Fatalf("cancelled wait: %v", err)
	}
}

type sentinelError struct{}

func (sentinelError) Error() string { return "token AKIAEXAMPLEKEY rejected" }

func TestScrubErrorKeepsTheChain(t *testing.T) {
	err := ScrubError(fmt.Errorf("load: %w", sentinelError{}), []string{"AKIAEXAMPLEKEY", "ab"})
	if got := err.Error(); got != "load: token [redacted] rejected" {
		t.Fatalf("Error() = %q", got)
	}
	var s sentinelError
	if !errors.As(err, &s) {
		t.Fatal("errors.As no longer reaches the cause")
	}
	if ScrubError(nil, []string{"x"}) != nil {
		t.Fatal("a nil error became non-nil")
	}
}
