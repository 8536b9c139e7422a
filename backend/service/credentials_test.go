package service

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/99designs/keyring"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/credentials"
	"github.com/costpilot/costpilot/backend/model"
)

func TestCredentialsThroughTheService(t *testing.T) {
	data := t.TempDir()
	store, err := credentials.Open(credentials.Options{Dir: filepath.Join(data, "keyring"),
		Backends: []keyring.BackendType{keyring.FileBackend}, Passphrase: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenWith(adminCtx(), config.Default(), Options{DataDir: data, Creds: store,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := adminCtx()
	const secret = "AZURE-client-secret-value-123"

	if err := s.SetCredential(ctx, model.Azure, "client_secret", secret); err != nil {
		t.Fatal(err)
	}
	fields, err := s.CredentialFields(ctx, model.Azure)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		if want := f.Name == "client_secret"; f.Set != want {
			t.Errorf("%s set = %v, want %v", f.Name, f.Set, want)
		}
	}
	if v, _ := store.Get(model.Azure, "client_secret"); v != secret {
		t.Fatalf("the provider would read %q", v)
	}
	if st, err := s.CredentialStoreStatus(ctx); err != nil || st.Backend != "file" || st.Locked {
		t.Fatalf("status %+v, %v", st, err)
	}
	if err := s.SetCredential(ctx, model.Azure, "nope", "x"); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("unknown field: %v", err)
	}
	if err := s.DeleteCredential(ctx, model.Azure, "client_secret"); err != nil {
		t.Fatal(err)
	}
	if v, _ := store.Get(model.Azure, "client_secret"); v != "" {
		t.Fatal("still stored after DeleteCredential")
	}

	// The secret is in neither the database nor the audit log.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(data)
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(data, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secret) {
			t.Fatalf("%s holds the secret in plain text", e.Name())
		}
	}
}

func TestCredentialsWithoutAStore(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	if err := s.SetCredential(ctx, model.AWS, "access_key_id", "x"); apperr.KindOf(err) != apperr.NotImplemented {
		t.Fatalf("SetCredential: %v", err)
	}
	if _, err := s.CredentialFields(ctx, model.AWS); apperr.KindOf(err) != apperr.NotImplemented {
		t.Fatalf("CredentialFields: %v", err)
	}
	if st, err := s.CredentialStoreStatus(ctx); err != nil || st.Backend != "none" {
		t.Fatalf("status %+v, %v", st, err)
	}
}
