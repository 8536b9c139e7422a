package service

import (
	"context"
	"errors"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/loginthrottle"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/store"
)

// LoginRequest is one login attempt. Previous is the session cookie the
// browser still sent, if any: it is ended so the id rotates at login.
type LoginRequest struct {
	Username   string
	Password   string
	ClientAddr string
	Previous   string
}

// LoginResult is a successful login: Session is the signed value for the
// cookie; it is valid until ExpiresAt.
type LoginResult struct {
	Username  string
	Role      model.Role
	Session   string
	ExpiresAt time.Time
	MaxAge    int // seconds
}

// errBadLogin is the one answer to a wrong password and to an unknown
// user, so a login reveals nothing about which usernames exist.
func errBadLogin() error {
	return apperr.E(apperr.Unauthenticated, "invalid username or password")
}

// keys derives the encryption and signing keys from the secret key. HKDF
// is microseconds, so they are derived per call rather than cached.
func (s *Service) keys() (*security.Keys, error) {
	k, err := s.SecretKey()
	if err != nil {
		return nil, err
	}
	return security.NewKeys(k)
}

// CheckSecretKey reports whether the secret key is usable, so the
// dashboard can refuse to start rather than fail every login.
func (s *Service) CheckSecretKey() error {
	_, err := s.keys()
	return err
}

// Login checks a username and password. Each attempt first reserves one
// of the max_login_attempts allowed per username and per client address,
// in the same database transaction that reads their locks, so that
// parallel attempts check at most that many passwords in all; while either
// is locked, every attempt is refused with a RateLimited error carrying
// details.retry_after, even with the right password. A wrong password and
// an unknown user get the same Unauthenticated error after the same work.
// On success the failures are forgotten, the previous session, if any, is
// ended and a new one is created.
func (s *Service) Login(ctx context.Context, r LoginRequest) (LoginResult, error) {
	subjects := loginthrottle.Subjects(r.Username, r.ClientAddr, func(v string) string { return Bounded(v, maxAuditLen) })
	locked, err := loginthrottle.PolicyFrom(s.cfg.Dashboard.Auth).Reserve(ctx, s.store, subjects, s.now())
	if locked {
		if err := s.audit(ctx, AuditLoginLocked, r.Username, r.ClientAddr, nil); err != nil {
			return LoginResult{}, err
		}
		return LoginResult{}, err
	}
	if err != nil {
		return LoginResult{}, err
	}
	keys, err := s.keys()
	if err != nil {
		return LoginResult{}, err
	}
	ok := false
	u, err := store.User{}, store.ErrNotFound
	if len(r.Username) <= MaxUsernameLen {
		u, err = s.store.UserByName(ctx, r.Username)
	}
	switch {
	case errors.Is(err, store.ErrNotFound) || len(r.Password) > security.MaxPasswordLen:
		if err := security.BurnVerification(ctx, r.Password); err != nil {
			return LoginResult{}, err
		}
	case err != nil:
		return LoginResult{}, err
	case u.PasswordHash == "":
		// A single sign-on user has no password: same answer, same work.
		if err := security.BurnVerification(ctx, r.Password); err != nil {
			return LoginResult{}, err
		}
	default:
		if ok, err = security.VerifyPassword(ctx, r.Password, u.PasswordHash); err != nil {
			return LoginResult{}, err
		}
	}
	if !ok {
		if err := s.audit(ctx, AuditLoginFailure, r.Username, r.ClientAddr, nil); err != nil {
			return LoginResult{}, err
		}
		return LoginResult{}, errBadLogin()
	}
	if u.Disabled {
		// Said only to whoever knows the password.
		if err := s.audit(ctx, AuditLoginRefused, u.Username, r.ClientAddr, nil); err != nil {
			return LoginResult{}, err
		}
		return LoginResult{}, errDisabled()
	}
	return s.newSession(ctx, keys, u, r.Previous, subjects, s.auditEvent(AuditLoginSuccess, u.Username, r.ClientAddr, nil))
}

// newSession ends the browser's previous session, if any, so the id
// rotates at every login, creates a new one for u, forgets the login
// failures of clear and writes the login's audit event, all in one
// transaction. Local and single sign-on logins end here alike.
func (s *Service) newSession(ctx context.Context, keys *security.Keys, u store.User, previous string, clear []store.ThrottleSubject, ev store.AuditEvent) (LoginResult, error) {
	now := s.now()
	st := store.SessionStart{Clear: clear, Audit: ev}
	if previous != "" {
		if id, err := keys.Unsign(previous); err == nil {
			st.Previous = security.HashToken(id)
		}
	}
	id, err := security.RandomString(32)
	if err != nil {
		return LoginResult{}, err
	}
	timeout := time.Duration(s.cfg.Dashboard.Auth.SessionTimeout) * time.Second
	se := store.Session{IDHash: security.HashToken(id), UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(timeout), ClientAddr: ev.ClientAddr}
	st.Session = se
	if err := s.store.StartSession(ctx, st, now); err != nil {
		return LoginResult{}, err
	}
	return LoginResult{Username: u.Username, Role: u.Role, Session: keys.Sign(id), ExpiresAt: se.ExpiresAt, MaxAge: int(timeout.Seconds())}, nil
}

// errDisabled refuses a disabled user's login.
func errDisabled() error {
	return apperr.E(apperr.Unauthenticated, "this account is disabled: ask an administrator").WithDetail("reason", "disabled")
}

func errNoSession() error {
	return apperr.E(apperr.Unauthenticated, "not logged in or the session expired: log in again")
}

// Authenticate returns the user of a session cookie value. A forged,
// unknown or expired session is Unauthenticated; an expired one is deleted.
func (s *Service) Authenticate(ctx context.Context, cookie string) (Principal, error) {
	keys, err := s.keys()
	if err != nil {
		return Principal{}, err
	}
	id, err := keys.Unsign(cookie)
	if err != nil {
		return Principal{}, errNoSession()
	}
	h := security.HashToken(id)
	se, err := s.store.SessionByHash(ctx, h)
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, errNoSession()
	}
	if err != nil {
		return Principal{}, err
	}
	if !s.now().Before(se.ExpiresAt) {
		if err := s.store.DeleteSession(ctx, h); err != nil {
			s.log.Warn("cannot delete an expired session", "err", err)
		}
		return Principal{}, errNoSession()
	}
	return Principal{Kind: PrincipalSession, Username: se.Username, UserID: se.UserID, SessionID: h, ExpiresAt: se.ExpiresAt,
		Role: se.Role, sso: se.SSOIssuer != ""}, nil
}

// Logout ends the session of a cookie value; an unknown one is ignored.
// For a user of single sign-on it returns the identity provider's logout
// URL, when the provider has one, so the browser logs out there too;
// else "".
func (s *Service) Logout(ctx context.Context, cookie, clientAddr string) (string, error) {
	p, err := s.Authenticate(ctx, cookie)
	if err != nil {
		return "", nil // nothing to end
	}
	if err := s.store.EndSession(ctx, p.SessionID, s.auditEvent(AuditLogout, p.Username, clientAddr, nil)); err != nil {
		return "", err
	}
	if !p.sso {
		return "", nil
	}
	return s.ssoLogoutURL(ctx), nil
}
