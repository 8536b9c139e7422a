package service

import (
	"context"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// Audit events.
const (
	AuditLoginSuccess = "login_success"
	AuditLoginFailure = "login_failure"
	AuditLoginLocked  = "login_refused_locked"
	AuditLogout       = "logout"
	AuditUserAdd      = "user_add"
	AuditUserPassword = "user_password"
	AuditUserDelete   = "user_delete"
	AuditTokenCreate  = "token_create"
	AuditTokenRevoke  = "token_revoke"
	AuditUserRole     = "user_role"
	AuditUserDisable  = "user_disable"
	AuditUserEnable   = "user_enable"
	AuditLoginRefused = "login_refused_disabled"
	AuditRuleSetSave  = "rule_set_save"
	AuditViewSave     = "view_save"
	AuditViewDelete   = "view_delete"
	AuditImport       = "import"
)

// auditEvent is an audit line of event, now; the username and address
// are bounded, since a failed login's username is whatever the caller
// sent. A state change hands it to the store, which writes both in one
// transaction.
func (s *Service) auditEvent(event, username, addr string, details map[string]any) store.AuditEvent {
	if details == nil {
		details = map[string]any{}
	}
	return store.AuditEvent{Time: s.now().UTC().Format(time.RFC3339), Event: event, Username: Bounded(username, maxAuditLen),
		ClientAddr: Bounded(addr, maxAuditLen), Details: details}
}

// auditBy is the audit line of event done by p: it names p and p's address.
func (s *Service) auditBy(p Principal, event string, details map[string]any) store.AuditEvent {
	return s.auditEvent(event, p.Name(), p.ClientAddr, details)
}

// audit appends an event that changes nothing else (a refused login). It
// fails the call when it cannot be written: nothing goes unaudited.
func (s *Service) audit(ctx context.Context, event, username, addr string, details map[string]any) error {
	e := s.auditEvent(event, username, addr, details)
	if err := s.store.AddAudit(ctx, e, s.now()); err != nil {
		s.log.Error("cannot write the audit log", "event", event, "err", err)
		return err
	}
	return nil
}

// Audit log bounds: GET /api/audit?limit=.
const (
	AuditDefault = 100
	AuditMax     = 1000
)

// AuditLog returns the newest limit events of the audit log (0: 100; at
// most 1000). Admin only.
func (s *Service) AuditLog(ctx context.Context, limit int) ([]store.AuditEvent, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return nil, err
	}
	if limit == 0 {
		limit = AuditDefault
	}
	if limit < 1 || limit > AuditMax {
		return nil, apperr.E(apperr.Validation, "limit must be 1 to %d, got %d", AuditMax, limit).WithDetail("field", "limit")
	}
	return s.store.AuditEvents(ctx, limit)
}
