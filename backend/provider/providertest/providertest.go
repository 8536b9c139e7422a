// Package providertest holds assertions the connector tests share.
package providertest

import (
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// AssertFailure checks err is a ProviderError of provider k with reason
// want, and that its message contains none of the secrets.
func AssertFailure(t testing.TB, err error, k model.ProviderKey, want model.ProviderFailure, secrets ...string) {
	t.Helper()
	if apperr.KindOf(err) != apperr.Provider {
		t.Fatalf("kind = %q (%v), want ProviderError", apperr.KindOf(err), err)
	}
	e, _ := apperr.As(err)
	if e.Provider != string(k) {
		t.Errorf("provider = %q", e.Provider)
	}
	if got := e.Details[model.FailureDetail]; got != want {
		t.Errorf("reason = %v, want %v (%v)", got, want, err)
	}
	for _, s := range secrets {
		if strings.Contains(err.Error(), s) {
			t.Errorf("error leaks a secret (%q): %v", s, err)
		}
	}
}
