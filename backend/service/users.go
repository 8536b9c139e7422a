package service

import (
	"context"
	"errors"
	"regexp"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/store"
)

// MaxUsernameLen bounds usernames (in bytes: they are ASCII).
const MaxUsernameLen = 64

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`)

// ValidateUsername checks a new username: 1 to 64 letters, digits and
// . _ @ -, starting with a letter or digit.
func ValidateUsername(name string) error {
	if !usernameRE.MatchString(name) {
		return apperr.E(apperr.Validation, "username must be 1 to 64 letters, digits or . _ @ -, starting with a letter or digit").WithDetail("field", "username")
	}
	return nil
}

// ValidatePassword checks a new password's length (in characters).
func ValidatePassword(pw string) error {
	n := utf8.RuneCountInString(pw)
	if n < security.MinPasswordLen {
		return apperr.E(apperr.Validation, "password must be at least %d characters, got %d", security.MinPasswordLen, n).WithDetail("field", "password")
	}
	if len(pw) > security.MaxPasswordLen {
		return apperr.E(apperr.Validation, "password must be at most %d bytes", security.MaxPasswordLen).WithDetail("field", "password")
	}
	return nil
}

// HasUsers reports whether any dashboard user exists.
func (s *Service) HasUsers(ctx context.Context) (bool, error) {
	n, err := s.store.CountUsers(ctx)
	return n > 0, err
}

// HasLocalUsers reports whether a user with a password exists: the way in
// when single sign-on's provider is down.
func (s *Service) HasLocalUsers(ctx context.Context) (bool, error) {
	users, err := s.store.Users(ctx)
	if err != nil {
		return false, err
	}
	for _, u := range users {
		if u.SSOIssuer == "" {
			return true, nil
		}
	}
	return false, nil
}

// NewUser is a local user to create (POST /api/users).
type NewUser struct {
	Username string `json:"username"`
	Password string `json:"password"`
	// Role defaults to viewer, or to admin for the first user, who must be
	// able to manage the others.
	Role model.Role `json:"role,omitempty"`
}

// AddUser creates a local dashboard user with a salted argon2id hash of
// the password. Admin only.
func (s *Service) AddUser(ctx context.Context, nu NewUser) (store.User, error) {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return store.User{}, err
	}
	if err := ValidateUsername(nu.Username); err != nil {
		return store.User{}, err
	}
	if nu.Role == "" {
		nu.Role = model.RoleViewer
		if n, err := s.store.CountUsers(ctx); err != nil {
			return store.User{}, err
		} else if n == 0 {
			nu.Role = model.RoleAdmin
		}
	}
	if err := apperr.OneOf("role", nu.Role, model.Roles); err != nil {
		return store.User{}, err
	}
	if err := ValidatePassword(nu.Password); err != nil {
		return store.User{}, err
	}
	h, err := security.HashPassword(ctx, nu.Password)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.store.CreateUser(ctx, nu.Username, h, nu.Role, s.auditBy(p, AuditUserAdd, map[string]any{"user": nu.Username, "role": string(nu.Role)}))
	if errors.Is(err, store.ErrDuplicate) {
		return store.User{}, apperr.E(apperr.Validation, "user %s already exists", nu.Username).WithDetail("field", "username")
	}
	if err != nil {
		return store.User{}, err
	}
	return u, nil
}

// SetUserPassword replaces a user's password and ends the user's
// sessions. Admin only.
func (s *Service) SetUserPassword(ctx context.Context, username, password string) error {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return err
	}
	if err := ValidatePassword(password); err != nil {
		return err
	}
	u, err := s.userByName(ctx, username)
	if err != nil {
		return err
	}
	if u.SSOIssuer != "" {
		return apperr.E(apperr.Validation, "%s signs in with single sign-on at %s and has no password here", username, u.SSOIssuer).WithDetail("field", "username")
	}
	h, err := security.HashPassword(ctx, password)
	if err != nil {
		return err
	}
	return s.store.SetPassword(ctx, u.ID, h, s.auditBy(p, AuditUserPassword, map[string]any{"user": u.Username}))
}

// Users lists the dashboard users (without hashes). Admin only.
func (s *Service) Users(ctx context.Context) ([]store.User, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return nil, err
	}
	return s.store.Users(ctx)
}

// UserChange is PATCH /api/users/{name}: each field present is changed.
type UserChange struct {
	Role     *model.Role `json:"role,omitempty"`
	Disabled *bool       `json:"disabled,omitempty"`
	Password *string     `json:"password,omitempty"`
}

// UpdateUser changes a user's role, enables or disables the user, or
// resets the password, and returns the user. Admin only. A single
// sign-on user's role comes from the identity provider at each login, so
// it cannot be set here; such a user can still be disabled. No change may
// leave the dashboard without an enabled admin. Disabling ends the user's
// sessions and stops the user's tokens at once, in every process.
func (s *Service) UpdateUser(ctx context.Context, username string, c UserChange) (store.User, error) {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.userByName(ctx, username)
	if err != nil {
		return store.User{}, err
	}
	if c.Role == nil && c.Disabled == nil && c.Password == nil {
		return store.User{}, apperr.E(apperr.Validation, "nothing to change: give role, disabled or password")
	}
	if c.Role != nil {
		if err := apperr.OneOf("role", *c.Role, model.Roles); err != nil {
			return store.User{}, err
		}
		if u.SSOIssuer != "" && *c.Role != u.Role {
			return store.User{}, apperr.E(apperr.Validation, "%s signs in with single sign-on: the role comes from the identity provider at each login", username).WithDetail("field", "role")
		}
	}
	if c.Password != nil {
		if err := s.SetUserPassword(ctx, username, *c.Password); err != nil {
			return store.User{}, err
		}
	}
	if c.Role != nil && *c.Role != u.Role {
		ev := s.auditBy(p, AuditUserRole, map[string]any{"user": u.Username, "from": string(u.Role), "to": string(*c.Role)})
		if err := lastAdmin(s.store.SetUserRole(ctx, u.ID, *c.Role, ev)); err != nil {
			return store.User{}, err
		}
	}
	if c.Disabled != nil && *c.Disabled != u.Disabled {
		kind := AuditUserEnable
		if *c.Disabled {
			kind = AuditUserDisable
		}
		ev := s.auditBy(p, kind, map[string]any{"user": u.Username})
		if err := lastAdmin(s.store.SetUserDisabled(ctx, u.ID, *c.Disabled, s.now(), ev)); err != nil {
			return store.User{}, err
		}
	}
	return s.userByName(ctx, username)
}

// lastAdmin words store.ErrLastAdmin for the caller.
func lastAdmin(err error) error {
	if errors.Is(err, store.ErrLastAdmin) {
		return apperr.E(apperr.Validation, "this is the last enabled admin: make another user an admin first").
			WithDetail("reason", "last_admin")
	}
	return err
}

// DeleteUser removes a user, the user's sessions and tokens. Admin only;
// the last enabled admin cannot be deleted.
func (s *Service) DeleteUser(ctx context.Context, username string) error {
	p, err := s.require(ctx, model.PermAdmin)
	if err != nil {
		return err
	}
	u, err := s.userByName(ctx, username)
	if err != nil {
		return err
	}
	return lastAdmin(s.store.DeleteUser(ctx, u.ID, s.auditBy(p, AuditUserDelete, map[string]any{"user": u.Username})))
}

func (s *Service) userByName(ctx context.Context, username string) (store.User, error) {
	u, err := s.store.UserByName(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, apperr.E(apperr.NotFound, "no user called %s", username).WithDetail("field", "username")
	}
	return u, err
}
