package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrDuplicate is returned when a row with the same unique name exists.
var ErrDuplicate = errors.New("store: already exists")

// User is a dashboard user. The hash never leaves the
// backend: it is not serialised.
type User struct {
	ID           int64  `json:"id"`
	Username     string `json:"username"`
	PasswordHash string `json:"-"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
}

const insertUserSQL = `INSERT INTO users(username, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?)`

// CreateUser adds a user; ErrDuplicate when the name is taken.
func (s *Store) CreateUser(ctx context.Context, username, hash string) (User, error) {
	now := time.Now().UTC().Format(time.RFC3339)
	res, err := s.w.ExecContext(ctx, insertUserSQL, username, hash, now, now)
	if err != nil {
		if isUniqueViolation(err) {
			return User{}, ErrDuplicate
		}
		return User{}, fmt.Errorf("store: create user: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return User{}, fmt.Errorf("store: create user: %w", err)
	}
	return User{ID: id, Username: username, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}, nil
}

const userByNameSQL = `SELECT id, username, password_hash, created_at, updated_at FROM users WHERE username = ?`

// UserByName returns the user called username; ErrNotFound if none.
func (s *Store) UserByName(ctx context.Context, username string) (User, error) {
	var u User
	err := s.r.QueryRowContext(ctx, userByNameSQL, username).Scan(&u.ID, &u.Username, &u.PasswordHash, &u.CreatedAt, &u.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("store: user: %w", err)
	}
	return u, nil
}

const usersSQL = `SELECT id, username, password_hash, created_at, updated_at FROM users ORDER BY username`

// Users lists every user by name.
func (s *Store) Users(ctx context.Context) ([]User, error) {
	out := []User{}
	err := s.query(ctx, usersSQL, nil, func(rows *sql.Rows) error {
		var u User
		if err := rows.Scan(&u.ID, &u.Username, &u.PasswordHash, &u.CreatedAt, &u.UpdatedAt); err != nil {
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
// all of that user's sessions (a changed password must log out a thief).
func (s *Store) SetPassword(ctx context.Context, userID int64, hash string) error {
	now := time.Now().UTC().Format(time.RFC3339)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, setPasswordSQL, hash, now, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		_, err = tx.ExecContext(ctx, deleteUserSessionsSQL, userID)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return err
	}
	if err != nil {
		return fmt.Errorf("store: set password: %w", err)
	}
	return nil
}

const deleteUserSQL = `DELETE FROM users WHERE id = ?`

// DeleteUser removes a user; its sessions go with it (ON DELETE CASCADE).
func (s *Store) DeleteUser(ctx context.Context, userID int64) error {
	res, err := s.w.ExecContext(ctx, deleteUserSQL, userID)
	if err != nil {
		return fmt.Errorf("store: delete user: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// isUniqueViolation recognises SQLite's UNIQUE constraint error; the
// modernc driver reports it only in the message text.
func isUniqueViolation(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}
