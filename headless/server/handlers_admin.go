package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// Administration: users, API tokens and the audit log. The Service
// decides who may (admins) and what is allowed; these only translate.

func (s *Server) users() http.Handler {
	return endpoint(none, noInput(s.svc.Users))
}

func (s *Server) addUser() http.Handler {
	return endpoint(jsonBody[service.NewUser], s.svc.AddUser)
}

// userChange is PATCH /api/users/{name}.
type userChange struct {
	name   string
	change service.UserChange
}

func (s *Server) updateUser() http.Handler {
	return endpoint(func(r *http.Request) (userChange, error) {
		c, err := jsonBody[service.UserChange](r)
		return userChange{name: r.PathValue("name"), change: c}, err
	}, func(ctx context.Context, in userChange) (model.User, error) {
		return s.svc.UpdateUser(ctx, in.name, in.change)
	})
}

// deleted is the answer of a DELETE.
type deleted struct {
	Deleted bool `json:"deleted"`
}

func (s *Server) deleteUser() http.Handler {
	return endpoint(func(r *http.Request) (string, error) { return r.PathValue("name"), nil },
		func(ctx context.Context, name string) (deleted, error) {
			return deleted{true}, s.svc.DeleteUser(ctx, name)
		})
}

func (s *Server) tokens() http.Handler {
	return endpoint(none, noInput(s.svc.Tokens))
}

func (s *Server) createToken() http.Handler {
	return endpoint(jsonBody[service.TokenRequest], s.svc.CreateToken)
}

// revoked is the answer of DELETE /api/tokens/{id}.
type revoked struct {
	Revoked bool `json:"revoked"`
}

func (s *Server) revokeToken() http.Handler {
	return endpoint(func(r *http.Request) (int64, error) {
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if err != nil {
			return 0, apperr.E(apperr.Validation, "token id must be a number").WithDetail("field", "id")
		}
		return id, nil
	}, func(ctx context.Context, id int64) (revoked, error) {
		return revoked{true}, s.svc.RevokeToken(ctx, id)
	})
}

func (s *Server) auditLog() http.Handler {
	return endpoint(func(r *http.Request) (int, error) { return intParam(r, "limit", 0) }, s.svc.AuditLog)
}
