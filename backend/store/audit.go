package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// AuditEvent is one line of the audit log: logins, user and token
// changes. It never holds a password or token.
type AuditEvent struct {
	ID         int64          `json:"id"`
	Time       string         `json:"time"`
	Event      string         `json:"event"`
	Username   string         `json:"username"`
	ClientAddr string         `json:"client_addr"`
	Details    map[string]any `json:"details"`
}

const insertAuditSQL = `INSERT INTO audit_log(time, event, username, client_addr, details) VALUES (?, ?, ?, ?, ?)`

// AddAudit appends an event.
func (s *Store) AddAudit(ctx context.Context, e AuditEvent, at time.Time) error {
	e.Time = at.UTC().Format(time.RFC3339)
	return addAudit(ctx, s.w, e)
}

// execer is a database or a transaction.
type execer interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
}

// addAudit appends an event (its Time as given) through db, so a change
// and its audit line can share a transaction.
func addAudit(ctx context.Context, db execer, e AuditEvent) error {
	d := e.Details
	if d == nil {
		d = map[string]any{}
	}
	b, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("store: encode audit details: %w", err)
	}
	if _, err := db.ExecContext(ctx, insertAuditSQL, e.Time, e.Event, e.Username, e.ClientAddr, string(b)); err != nil {
		return fmt.Errorf("store: add audit event: %w", err)
	}
	return nil
}

// withDetail sets a detail of an audit event, making its map if needed.
func withDetail(d map[string]any, k string, v any) map[string]any {
	if d == nil {
		d = map[string]any{}
	}
	d[k] = v
	return d
}

const auditSQL = `SELECT id, time, event, username, client_addr, details FROM audit_log ORDER BY id DESC LIMIT ?`

// AuditEvents returns the newest events first.
func (s *Store) AuditEvents(ctx context.Context, limit int) ([]AuditEvent, error) {
	out := []AuditEvent{}
	err := s.query(ctx, auditSQL, []any{limit}, func(rows *sql.Rows) error {
		var e AuditEvent
		var d string
		if err := rows.Scan(&e.ID, &e.Time, &e.Event, &e.Username, &e.ClientAddr, &d); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(d), &e.Details); err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}
