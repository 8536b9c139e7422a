// Package credentials keeps cloud provider credentials in the OS keyring
// through github.com/99designs/keyring: the Secret Service (GNOME Keyring,
// KeePassXC), KWallet, pass, the macOS Keychain or Windows Credential
// Manager, and where none of those exists (a server, CI) an encrypted file
// whose passphrase comes from COSTPILOT_KEYRING_PASSWORD or is typed in the
// window. It never prompts on a terminal, and values never leave it except
// to the provider that reads them: Store implements provider.Credentials.
package credentials

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	// sessionbus must initialise before keyring; see its package comment.
	"github.com/costpilot/costpilot/backend/credentials/sessionbus"

	"github.com/99designs/keyring"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func init() { sessionbus.Restore() }

// EnvPassphrase names the environment variable that holds the file
// backend's passphrase.
const EnvPassphrase = "COSTPILOT_KEYRING_PASSWORD"

// ServiceName is the keyring service (and Secret Service collection) name.
const ServiceName = "costpilot"

// Detail values under model.FailureDetail ("reason") of the errors the
// window reacts to.
const (
	ReasonLocked          = "credential_store_locked" // the file backend needs its passphrase
	ReasonWrongPassphrase = "wrong_passphrase"
)

// maxValueBytes bounds a stored value: key files are a few KiB.
const maxValueBytes = 64 << 10

// DefaultBackends is the order backends are tried in. The kernel keyring
// (keyctl) is left out on purpose: it forgets everything at reboot.
var DefaultBackends = []keyring.BackendType{
	keyring.KeychainBackend, keyring.WinCredBackend,
	keyring.SecretServiceBackend, keyring.KWalletBackend, keyring.PassBackend,
	keyring.FileBackend,
}

// Options say which keyring to use.
type Options struct {
	// Dir holds the encrypted files of the file backend (costpilot uses
	// <data dir>/keyring).
	Dir string
	// Backends to try, in order; nil means DefaultBackends.
	Backends []keyring.BackendType
	// Passphrase of the file backend; empty leaves the store locked until
	// Unlock (the window asks for it).
	Passphrase string
}

// Store is the credential store. It is safe for concurrent use.
type Store struct {
	mu         sync.Mutex // serialises keyring calls and guards the fields
	dir        string
	ring       keyring.Keyring
	backend    keyring.BackendType
	passphrase string
}

// Open opens the first backend of o.Backends that works here.
func Open(o Options) (*Store, error) {
	backends := o.Backends
	if backends == nil {
		backends = DefaultBackends
	}
	available := map[keyring.BackendType]bool{}
	for _, b := range keyring.AvailableBackends() {
		available[b] = true
	}
	s := &Store{dir: o.Dir, passphrase: o.Passphrase}
	var tried []string
	for _, b := range backends {
		if !available[b] || !usable(b, o) {
			continue
		}
		ring, err := s.open(b)
		if err != nil {
			tried = append(tried, string(b))
			continue
		}
		s.ring, s.backend = ring, b
		return s, nil
	}
	return nil, apperr.E(apperr.Security, "no credential store is available (tried %s)", strings.Join(tried, ", "))
}

// usable rules out backends that would open but not work: the file
// backend without a directory, pass without an initialised password store.
func usable(b keyring.BackendType, o Options) bool {
	switch b {
	case keyring.FileBackend:
		return o.Dir != ""
	case keyring.PassBackend:
		dir := os.Getenv("PASSWORD_STORE_DIR")
		if dir == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return false
			}
			dir = filepath.Join(home, ".password-store")
		}
		_, err := os.Stat(filepath.Join(dir, ".gpg-id"))
		return err == nil
	}
	return true
}

// open opens backend b. The file backend asks filePassword, which answers
// from memory and never prompts.
func (s *Store) open(b keyring.BackendType) (keyring.Keyring, error) {
	return keyring.Open(keyring.Config{
		AllowedBackends:          []keyring.BackendType{b},
		ServiceName:              ServiceName,
		KeychainTrustApplication: true,
		FileDir:                  s.dir,
		FilePasswordFunc:         s.filePassword,
		KWalletAppID:             ServiceName,
		KWalletFolder:            ServiceName,
		PassPrefix:               ServiceName,
		WinCredPrefix:            ServiceName,
	})
}

// filePassword is the file backend's passphrase source. It runs inside
// keyring calls, with s.mu held.
func (s *Store) filePassword(string) (string, error) {
	if s.passphrase == "" {
		return "", errLocked()
	}
	return s.passphrase, nil
}

func errLocked() *apperr.Error {
	return apperr.E(apperr.Security, "the credential store is locked: enter its passphrase in Credentials, or set %s", EnvPassphrase).
		WithDetail(model.FailureDetail, ReasonLocked)
}

// Backend names the backend in use (secret-service, kwallet, pass, file...).
func (s *Store) Backend() string { return string(s.backend) }

func key(p model.ProviderKey, name string) string { return string(p) + "." + name }

// Get returns the stored value of provider p's field, "" when none is
// stored. It implements provider.Credentials.
func (s *Store) Get(p model.ProviderKey, name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, err := s.ring.Get(key(p, name))
	if errors.Is(err, keyring.ErrKeyNotFound) {
		return "", nil
	}
	if err != nil {
		return "", s.readError(err, p)
	}
	return string(it.Data), nil
}

// readError explains a failed read without the value or the passphrase.
func (s *Store) readError(err error, p model.ProviderKey) error {
	if _, ok := apperr.As(err); ok {
		return err
	}
	if s.backend == keyring.FileBackend {
		return apperr.Wrap(apperr.Security, err, "cannot decrypt the stored %s credentials: the passphrase does not match", p).
			WithProvider(string(p)).WithDetail(model.FailureDetail, ReasonWrongPassphrase)
	}
	return apperr.Wrap(apperr.Security, err, "cannot read the %s credentials from the %s keyring: %v", p, s.backend, err).WithProvider(string(p))
}

// Set stores value as provider p's field, replacing any stored value.
// Single-line values are trimmed: a pasted key often ends in a newline.
func (s *Store) Set(p model.ProviderKey, name, value string) error {
	f, err := known(p, name)
	if err != nil {
		return err
	}
	if !f.Multiline {
		value = strings.TrimSpace(value)
	}
	switch {
	case strings.TrimSpace(value) == "":
		return apperr.E(apperr.Validation, "%s is empty: remove the credential instead", f.Label).WithProvider(string(p)).WithDetail("field", name)
	case len(value) > maxValueBytes:
		return apperr.E(apperr.Validation, "%s is longer than %d bytes", f.Label, maxValueBytes).WithProvider(string(p)).WithDetail("field", name)
	case !f.Multiline && strings.ContainsAny(value, "\r\n"):
		return apperr.E(apperr.Validation, "%s must be one line", f.Label).WithProvider(string(p)).WithDetail("field", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(p, name)
	if err := s.ring.Set(keyring.Item{Key: k, Label: k, Data: []byte(value), Description: "costpilot cloud credential"}); err != nil {
		if _, ok := apperr.As(err); ok {
			return err
		}
		return apperr.Wrap(apperr.Security, err, "cannot store the %s %s in the %s keyring: %v", p, f.Label, s.backend, err).WithProvider(string(p))
	}
	return nil
}

// Delete removes provider p's field; removing what is not there is not an
// error.
func (s *Store) Delete(p model.ProviderKey, name string) error {
	if _, err := known(p, name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.ring.Remove(key(p, name))
	if err == nil || errors.Is(err, keyring.ErrKeyNotFound) || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return apperr.Wrap(apperr.Security, err, "cannot remove the %s %s from the %s keyring: %v", p, name, s.backend, err).WithProvider(string(p))
}

// Fields lists provider p's credential fields and which are stored.
func (s *Store) Fields(p model.ProviderKey) ([]model.CredentialField, error) {
	if !owner(p) {
		return nil, errProvider(p)
	}
	keys, err := s.keys()
	if err != nil {
		return nil, err
	}
	out := Fields(p)
	for i := range out {
		out[i].Set = keys[key(p, out[i].Name)]
	}
	return out, nil
}

func (s *Store) keys() (map[string]bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.ring.Keys()
	if err != nil {
		return nil, apperr.Wrap(apperr.Security, err, "cannot list the %s keyring: %v", s.backend, err)
	}
	out := make(map[string]bool, len(list))
	for _, k := range list {
		out[k] = true
	}
	return out, nil
}

// Status says which backend is in use and whether it waits for a
// passphrase.
func (s *Store) Status() (model.CredentialStoreStatus, error) {
	st := model.CredentialStoreStatus{Backend: string(s.backend)}
	if s.backend != keyring.FileBackend {
		return st, nil
	}
	keys, err := s.keys()
	if err != nil {
		return st, err
	}
	s.mu.Lock()
	st.Locked = s.passphrase == ""
	s.mu.Unlock()
	st.HasItems = len(keys) > 0
	switch {
	case st.Locked && st.HasItems:
		st.Message = "No system keyring was found; credentials are in an encrypted file. Enter its passphrase to unlock it."
	case st.Locked:
		st.Message = "No system keyring was found; credentials will be kept in an encrypted file. Choose a passphrase for it."
	default:
		st.Message = "No system keyring was found; credentials are kept in an encrypted file in the data directory."
	}
	return st, nil
}

// Unlock sets the file backend's passphrase. When credentials are stored
// already, it must decrypt them; a new store takes any non-empty one.
func (s *Store) Unlock(passphrase string) error {
	if s.backend != keyring.FileBackend {
		return apperr.E(apperr.Validation, "the %s keyring needs no passphrase from costpilot", s.backend)
	}
	if passphrase == "" {
		return apperr.E(apperr.Validation, "the passphrase is empty").WithDetail("field", "passphrase")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// A fresh keyring: the file backend caches the first passphrase it
	// gets, so a wrong one must not reach the keyring in use.
	old := s.passphrase
	s.passphrase = passphrase
	ring, err := s.open(keyring.FileBackend)
	if err == nil {
		err = verify(ring)
	}
	if err != nil {
		s.passphrase = old
		if e, ok := apperr.As(err); ok {
			return e
		}
		return apperr.Wrap(apperr.Security, err, "the passphrase does not match the stored credentials").
			WithDetail(model.FailureDetail, ReasonWrongPassphrase)
	}
	s.ring = ring
	return nil
}

// verify decrypts one stored item, if there is one.
func verify(ring keyring.Keyring) error {
	keys, err := ring.Keys()
	if err != nil {
		return err
	}
	// Reading one entry proves the passphrase opens the file.
	if len(keys) > 0 {
		if _, err := ring.Get(keys[0]); err != nil {
			return err
		}
	}
	return nil
}

func known(p model.ProviderKey, name string) (model.CredentialField, error) {
	if !owner(p) {
		return model.CredentialField{}, errProvider(p)
	}
	f, ok := field(p, name)
	if !ok {
		var names []string
		for _, f := range catalogue[p] {
			names = append(names, f.Name)
		}
		return f, apperr.E(apperr.Validation, "%s has no credential field %q: use %s", p, name, strings.Join(names, ", ")).
			WithProvider(string(p)).WithDetail("field", "field")
	}
	return f, nil
}

func errProvider(p model.ProviderKey) error {
	return apperr.OneOf("provider", p, Owners)
}
