package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// ErrDuplicate is returned when a row with the same unique name exists.
var ErrDuplicate = errors.New("store: already exists")

// User is a dashboard user (model.User).
type User = model.User

// userColumns are the columns scanUser reads, in its order.
const userColumns = `id, username, password_hash, role, sso_issuer, sso_subject, disabled_at <> 0, created_at, updated_at`

func scanUser(sc interface{ Scan(...any) error }) (User, error) {
	var u User
	err := sc.Scan(&u.ID, &u.Username, &u.PasswordHash, &u.Role, &u.SSOIssuer, &u.SSOSubject, &u.Disabled, &u.CreatedAt, &u.UpdatedAt)
	return u, err
}

// ErrLastAdmin refuses a change that would leave no enabled admin: nobody
// could manage users and tokens from the dashboard any more.
var ErrLastAdmin = errors.New("store: the last enabled admin")

const insertUserSQL = `INSERT INTO users(username, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`

// CreateUser adds a local user with a role and its audit event in one
// transaction; ErrDuplicate when the name is taken.
func (s *Store) CreateUser(ctx context.Context, username, hash string, role model.Role, audit AuditEvent) (User, error) {
	now := time.Now().UTC().Format(time.RFC3339)
	var id int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, insertUserSQL, username, hash, role, now, now)
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		if isUniqueViolation(err) {
			return User{}, ErrDuplicate
		}
		return User{}, fmt.Errorf("store: create user: %w", err)
	}
	return User{ID: id, Username: username, PasswordHash: hash, Role: role, CreatedAt: now, UpdatedAt: now}, nil
}

const userByNameSQL = `SELECT ` + userColumns + ` FROM users WHERE username = ?`

// UserByName returns the user called username; ErrNotFound if none.
func (s *Store) UserByName(ctx context.Context, username string) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, userByNameSQL, username))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("store: user: %w", err)
	}
	return u, nil
}

const usersSQL = `SELECT ` + userColumns + ` FROM users ORDER BY username`

// Users lists every user by name.
func (s *Store) Users(ctx context.Context) ([]User, error) {
	out := []User{}
	err := s.query(ctx, usersSQL, nil, func(rows *sql.Rows) error {
		u, err := scanUser(rows)
		if err != nil {
			return err
		}
		out = append(out, u)
		return nil
	})
	return out, err
}

const countUsersSQL = `SELECT count(*) FROM users`

// CountUsers returns how many users exist.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, countUsersSQL).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count users: %w", err)
	}
	return n, nil
}

const setPasswordSQL = `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`
const deleteUserSessionsSQL = `DELETE FROM sessions WHERE user_id = ?`

// SetPassword replaces a user's hash and, in the same transaction, ends
// all of that user's sessions (a changed password must log out a thief)
// and writes its audit event.
func (s *Store) SetPassword(ctx context.Context, userID int64, hash string, audit AuditEvent) error {
	now := time.Now().UTC().Format(time.RFC3339)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, setPasswordSQL, hash, now, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if _, err = tx.ExecContext(ctx, deleteUserSessionsSQL, userID); err != nil {
			return err
		}
		return addAudit(ctx, tx, audit)
	})
	if errors.Is(err, ErrNotFound) {
		return err
	}
	if err != nil {
		return fmt.Errorf("store: set password: %w", err)
	}
	return nil
}

const (
	deleteUserSQL     = `DELETE FROM users WHERE id = ?`
	revokeUserTokens  = `UPDATE api_tokens SET revoked_at = ? WHERE creator_id = ? AND revoked_at = ''`
	activeAdminsSQL   = `SELECT count(*) FROM users WHERE role = 'admin' AND disabled_at = 0`
	setRoleSQL        = `UPDATE users SET role = ?, updated_at = ? WHERE id = ?`
	setDisabledSQL    = `UPDATE users SET disabled_at = ?, updated_at = ? WHERE id = ?`
	userDisabledAtSQL = `SELECT disabled_at FROM users WHERE id = ?`
)

// adminChange runs fn, a change to one user, and writes its audit event
// in a transaction that fails with ErrLastAdmin when the change leaves no
// enabled admin where there was one. Counting in the same write
// transaction holds against parallel changes from any process: SQLite's
// write lock orders them.
func (s *Store) adminChange(ctx context.Context, what string, audit AuditEvent, fn func(tx *sql.Tx) error) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var before, after int
		if err := tx.QueryRowContext(ctx, activeAdminsSQL).Scan(&before); err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, activeAdminsSQL).Scan(&after); err != nil {
			return err
		}
		if before > 0 && after == 0 {
			return ErrLastAdmin
		}
		return addAudit(ctx, tx, audit)
	})
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrLastAdmin) {
		return err
	}
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return nil
}

func affectedOne(res sql.Result) error {
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteUser removes a user; its sessions go with it (ON DELETE CASCADE)
// and the tokens it created are revoked in the same transaction.
// ErrLastAdmin when it is the last enabled admin.
func (s *Store) DeleteUser(ctx context.Context, userID int64, audit AuditEvent) error {
	now := time.Now().UTC().Format(time.RFC3339)
	return s.adminChange(ctx, "delete user", audit, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, revokeUserTokens, now, userID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, deleteUserSQL, userID)
		if err != nil {
			return err
		}
		return affectedOne(res)
	})
}

// SetUserRole changes a user's role; sessions see it on their next
// request (the auth version moves). ErrLastAdmin when it demotes the last
// enabled admin.
func (s *Store) SetUserRole(ctx context.Context, userID int64, role model.Role, audit AuditEvent) error {
	now := time.Now().UTC().Format(time.RFC3339)
	return s.adminChange(ctx, "set role", audit, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, setRoleSQL, role, now, userID)
		if err != nil {
			return err
		}
		return affectedOne(res)
	})
}

// SetUserDisabled disables a user, ending the user's sessions in the same
// transaction, or enables one. Disabling twice keeps the first time.
// ErrLastAdmin when it disables the last enabled admin.
func (s *Store) SetUserDisabled(ctx context.Context, userID int64, disabled bool, at time.Time, audit AuditEvent) error {
	now := at.UTC().Format(time.RFC3339)
	return s.adminChange(ctx, "disable user", audit, func(tx *sql.Tx) error {
		var was int64
		if err := tx.QueryRowContext(ctx, userDisabledAtSQL, userID).Scan(&was); errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		var v int64
		if disabled {
			if v = was; v == 0 {
				v = max(at.Unix(), 1)
			}
		}
		if _, err := tx.ExecContext(ctx, setDisabledSQL, v, now, userID); err != nil {
			return err
		}
		if !disabled {
			return nil
		}
		_, err := tx.ExecContext(ctx, deleteUserSessionsSQL, userID)
		return err
	})
}

// SSOUser is who the identity provider says signed in, as costpilot keeps
// them.
type SSOUser struct {
	Issuer   string
	Subject  string
	Username string
	Role     model.Role
}

const (
	userBySSOSQL   = `SELECT ` + userColumns + ` FROM users WHERE sso_issuer = ? AND sso_subject = ?`
	insertSSOSQL   = `INSERT INTO users(username, password_hash, role, sso_issuer, sso_subject, created_at, updated_at) VALUES (?, '', ?, ?, ?, ?, ?)`
	updateSSOSQL   = `UPDATE users SET username = ?, role = ?, updated_at = ? WHERE id = ?`
	ssoUserAfterOp = `SELECT ` + userColumns + ` FROM users WHERE id = ?`
)

// UpsertSSOUser creates the user of a first single sign-on, with no
// password, or updates the name and role of a returning one: the
// identity provider is the source of both. Users are matched by issuer and
// subject, never by name, so a local user is never taken over: a name held
// by another user is ErrDuplicate. created says which happened. A user
// created or changed has its audit event (details.created added) in the
// same transaction.
func (s *Store) UpsertSSOUser(ctx context.Context, su SSOUser, audit AuditEvent) (u User, created bool, err error) {
	now := time.Now().UTC().Format(time.RFC3339)
	err = s.tx(ctx, func(tx *sql.Tx) error {
		old, err := scanUser(tx.QueryRowContext(ctx, userBySSOSQL, su.Issuer, su.Subject))
		var id int64
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res, err := tx.ExecContext(ctx, insertSSOSQL, su.Username, su.Role, su.Issuer, su.Subject, now, now)
			if err != nil {
				return err
			}
			if id, err = res.LastInsertId(); err != nil {
				return err
			}
			created = true
		case err != nil:
			return err
		default:
			id = old.ID
			if old.Username == su.Username && old.Role == su.Role {
				u = old
				return nil
			}
			if _, err := tx.ExecContext(ctx, updateSSOSQL, su.Username, su.Role, now, id); err != nil {
				return err
			}
			audit.Details = withDetail(audit.Details, "from_role", string(old.Role))
		}
		if u, err = scanUser(tx.QueryRowContext(ctx, ssoUserAfterOp, id)); err != nil {
			return err
		}
		audit.Details = withDetail(audit.Details, "created", created)
		return addAudit(ctx, tx, audit)
	})
	if isUniqueViolation(err) {
		return User{}, false, ErrDuplicate
	}
	if err != nil {
		return User{}, false, fmt.Errorf("store: sso user: %w", err)
	}
	return u, created, nil
}

// isUniqueViolation recognises SQLite's UNIQUE constraint error; the
// modernc driver reports it only in the message text.
func isUniqueViolation(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}
