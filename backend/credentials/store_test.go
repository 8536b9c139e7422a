package credentials

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/99designs/keyring"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/anthropic"
	"github.com/costpilot/costpilot/backend/provider/aws"
	"github.com/costpilot/costpilot/backend/provider/openai"
)

var _ provider.Credentials = (*Store)(nil)

func openFile(t *testing.T, dir, pass string) *Store {
	t.Helper()
	s, err := Open(Options{Dir: dir, Backends: []keyring.BackendType{keyring.FileBackend}, Passphrase: pass})
	if err != nil {
		t.Fatal(err)
	}
	if s.Backend() != string(keyring.FileBackend) {
		t.Fatalf("backend %s", s.Backend())
	}
	return s
}

func reason(err error) any {
	if e, ok := apperr.As(err); ok {
		return e.Details[model.FailureDetail]
	}
	return nil
}

// TestFileBackendRoundTrip stores, reads and deletes a credential through
// the encrypted file backend, and checks the file never holds it in clear.
func TestFileBackendRoundTrip(t *testing.T) {
	dir := t.TempDir()
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	s := openFile(t, dir, "correct horse battery staple")
	if err := s.Set(model.AWS, aws.FieldSecretAccessKey, "  "+secret+"\n"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(model.AWS, aws.FieldSecretAccessKey)
	if err != nil || got != secret {
		t.Fatalf("Get = %q, %v; want the trimmed secret", got, err)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Fatalf("want one file in the keyring dir, got %d", len(files))
	}
	raw, err := os.ReadFile(filepath.Join(dir, files[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(secret)) || bytes.Contains(raw, []byte("wJalrXUtnFEMI")) {
		t.Fatal("the keyring file holds the secret in plain text")
	}
	if fi, _ := files[0].Info(); fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("keyring file mode %v is readable by others", fi.Mode().Perm())
	}

	fields, err := s.Fields(model.AWS)
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, f := range fields {
		set[f.Name] = f.Set
	}
	if !set[aws.FieldSecretAccessKey] || set[aws.FieldAccessKeyID] {
		t.Fatalf("Fields set = %v", set)
	}

	// Another process with the same passphrase reads it back.
	again := openFile(t, dir, "correct horse battery staple")
	if got, err := again.Get(model.AWS, aws.FieldSecretAccessKey); err != nil || got != secret {
		t.Fatalf("reopened Get = %q, %v", got, err)
	}

	if err := s.Delete(model.AWS, aws.FieldSecretAccessKey); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(model.AWS, aws.FieldSecretAccessKey); err != nil || got != "" {
		t.Fatalf("after Delete Get = %q, %v", got, err)
	}
	if err := s.Delete(model.AWS, aws.FieldSecretAccessKey); err != nil {
		t.Fatalf("deleting twice: %v", err)
	}
}

func TestLockedFileBackend(t *testing.T) {
	dir := t.TempDir()
	first := openFile(t, dir, "first passphrase")
	if err := first.Set(model.Azure, "client_secret", "s3cr3t"); err != nil {
		t.Fatal(err)
	}

	s := openFile(t, dir, "")
	st, err := s.Status()
	if err != nil || !st.Locked || !st.HasItems || st.Backend != "file" {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	_, err = s.Get(model.Azure, "client_secret")
	if apperr.KindOf(err) != apperr.Security || reason(err) != ReasonLocked {
		t.Fatalf("locked Get: kind %q reason %v (%v)", apperr.KindOf(err), reason(err), err)
	}
	// Nothing stored answers "" even while locked: no passphrase needed to know that.
	if v, err := s.Get(model.Azure, "tenant_id"); err != nil || v != "" {
		t.Fatalf("missing while locked = %q, %v", v, err)
	}

	err = s.Unlock("wrong passphrase")
	if apperr.KindOf(err) != apperr.Security || reason(err) != ReasonWrongPassphrase {
		t.Fatalf("wrong Unlock: kind %q reason %v", apperr.KindOf(err), reason(err))
	}
	if st, _ := s.Status(); !st.Locked {
		t.Fatal("a wrong passphrase unlocked the store")
	}
	if err := s.Unlock("first passphrase"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Get(model.Azure, "client_secret"); err != nil || v != "s3cr3t" {
		t.Fatalf("unlocked Get = %q, %v", v, err)
	}

	// A store opened with the wrong passphrase says so instead of returning garbage.
	bad := openFile(t, dir, "not it")
	_, err = bad.Get(model.Azure, "client_secret")
	if apperr.KindOf(err) != apperr.Security || reason(err) != ReasonWrongPassphrase {
		t.Fatalf("wrong passphrase Get: kind %q reason %v", apperr.KindOf(err), reason(err))
	}
}

func TestSetValidation(t *testing.T) {
	s := openFile(t, t.TempDir(), "pw")
	tests := []struct {
		name     string
		provider model.ProviderKey
		field    string
		value    string
		kind     apperr.Kind
	}{
		{"unknown provider", "ibm", "access_key_id", "x", apperr.Validation},
		{"unknown field", model.AWS, "password", "x", apperr.Validation},
		{"empty value", model.AWS, "access_key_id", "  \n", apperr.Validation},
		{"two lines in a one-line field", model.AWS, "access_key_id", "a\nb", apperr.Validation},
		{"too long", model.GCP, "credentials_json", string(make([]byte, maxValueBytes+1)), apperr.Validation},
		{"key file keeps its lines", model.OCI, "private_key", "-----BEGIN KEY-----\nabc\n-----END KEY-----\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Set(tt.provider, tt.field, tt.value)
			if apperr.KindOf(err) != tt.kind || (tt.kind == "" && err != nil) {
				t.Fatalf("Set: kind %q, want %q (%v)", apperr.KindOf(err), tt.kind, err)
			}
			if tt.kind == "" {
				if got, _ := s.Get(tt.provider, tt.field); got != tt.value {
					t.Fatalf("stored %q, want %q", got, tt.value)
				}
			}
		})
	}
	if err := s.Unlock("pw"); err != nil {
		t.Fatalf("unlocking with the right passphrase: %v", err)
	}
	if err := s.Unlock(""); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("empty passphrase: %v", err)
	}
}

func TestOpenWithoutUsableBackend(t *testing.T) {
	_, err := Open(Options{Backends: []keyring.BackendType{keyring.FileBackend}})
	if apperr.KindOf(err) != apperr.Security {
		t.Fatalf("no dir: kind %q", apperr.KindOf(err))
	}
}

// TestCatalogueMatchesConnectors keeps the field names the window offers
// equal to those the live connectors look up.
func TestCatalogueMatchesConnectors(t *testing.T) {
	for _, name := range []string{aws.FieldAccessKeyID, aws.FieldSecretAccessKey, aws.FieldSessionToken} {
		if _, ok := field(model.AWS, name); !ok {
			t.Errorf("aws connector reads %q, which the catalogue lacks", name)
		}
	}
	for p, name := range map[model.ProviderKey]string{openai.Key: openai.FieldAdminKey, anthropic.Key: anthropic.FieldAdminKey} {
		if f, ok := field(p, name); !ok || !f.Secret {
			t.Errorf("%s connector reads %q, which the catalogue lacks (or keeps visible)", p, name)
		}
	}
	for _, p := range append(slices.Clone(model.AllProviders), model.Vendors...) {
		if len(Fields(p)) == 0 {
			t.Errorf("%s has no credential fields", p)
		}
		for _, f := range Fields(p) {
			if f.Provider != p || f.Label == "" || f.Set {
				t.Errorf("%s field %+v", p, f)
			}
		}
	}
}

// TestSMTPPassword: the mail server's password of scheduled reports is
// kept beside the clouds' credentials, listed as a field, and read back;
// a made-up owner is refused naming the ones there are.
func TestSMTPPassword(t *testing.T) {
	s := openFile(t, t.TempDir(), "correct horse battery staple")
	if err := s.Set(SMTP, SMTPPassword, "mail-secret"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(SMTP, SMTPPassword); err != nil || got != "mail-secret" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	fs, err := s.Fields(SMTP)
	if err != nil || len(fs) != 1 || !fs[0].Set || !fs[0].Secret {
		t.Fatalf("fields %+v, %v", fs, err)
	}
	if err := s.Set("imap", "password", "x"); err == nil || !strings.Contains(err.Error(), "smtp") {
		t.Fatalf("an unknown owner: %v", err)
	}
}
