package service

import (
	"context"
	"errors"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// CredentialStore is a provider.Credentials the user can write to: the
// desktop's OS keyring (backend/credentials.Store). Values go in and reach
// the providers; nothing here ever returns one.
type CredentialStore interface {
	provider.Credentials
	Set(p model.ProviderKey, field, value string) error
	Delete(p model.ProviderKey, field string) error
	Fields(p model.ProviderKey) ([]model.CredentialField, error)
	Status() (model.CredentialStoreStatus, error)
	Unlock(passphrase string) error
}

// credentialStore returns the writable store, or says this build has none
// (the CLI and the dashboard use the SDKs' own credential chains).
func (s *Service) credentialStore() (CredentialStore, error) {
	if cs, ok := s.creds.(CredentialStore); ok {
		return cs, nil
	}
	return nil, apperr.E(apperr.NotImplemented,
		"this costpilot keeps no credentials of its own: use the clouds' usual chains (profiles, environment variables, CLI logins) or the desktop app")
}

// SetCredential stores one credential field of provider p in the OS
// keyring. The value is never logged, stored in the database or returned;
// the audit log records only which field changed.
func (s *Service) SetCredential(ctx context.Context, p model.ProviderKey, field, value string) error {
	return s.credentialChange(ctx, "credential_set", map[string]any{"provider": string(p), "field": field},
		func(cs CredentialStore) error { return cs.Set(p, field, value) })
}

// credentialChange audits, then makes, a change to the keyring. The
// keyring is outside the database, so the two cannot share a transaction:
// the event is written first (a change that cannot be audited is not
// made), and a change that then fails gets a second event saying so.
func (s *Service) credentialChange(ctx context.Context, event string, details map[string]any, change func(CredentialStore) error) error {
	pr, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return err
	}
	cs, err := s.credentialStore()
	if err != nil {
		return err
	}
	if err := s.audit(ctx, event, pr.Name(), pr.ClientAddr, details); err != nil {
		return err
	}
	if err := change(cs); err != nil {
		details["error"] = Bounded(err.Error(), maxAuditLen)
		return errors.Join(err, s.audit(ctx, event+"_failed", pr.Name(), pr.ClientAddr, details))
	}
	return nil
}

// DeleteCredential removes one credential field of provider p.
func (s *Service) DeleteCredential(ctx context.Context, p model.ProviderKey, field string) error {
	return s.credentialChange(ctx, "credential_delete", map[string]any{"provider": string(p), "field": field},
		func(cs CredentialStore) error { return cs.Delete(p, field) })
}

// CredentialFields lists the credential fields provider p can use and
// whether each is stored (never the values).
func (s *Service) CredentialFields(ctx context.Context, p model.ProviderKey) ([]model.CredentialField, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return nil, err
	}
	cs, err := s.credentialStore()
	if err != nil {
		return nil, err
	}
	return cs.Fields(p)
}

// CredentialStoreStatus says which keyring holds the credentials and
// whether it waits for a passphrase.
func (s *Service) CredentialStoreStatus(ctx context.Context) (model.CredentialStoreStatus, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return model.CredentialStoreStatus{}, err
	}
	cs, err := s.credentialStore()
	if err != nil {
		return model.CredentialStoreStatus{Backend: "none", Message: apperr.Text(err)}, nil
	}
	return cs.Status()
}

// UnlockCredentials gives the encrypted-file keyring its passphrase, typed
// in the window; it is kept in memory only.
func (s *Service) UnlockCredentials(ctx context.Context, passphrase string) error {
	return s.credentialChange(ctx, "credential_store_unlock", map[string]any{},
		func(cs CredentialStore) error { return cs.Unlock(passphrase) })
}
