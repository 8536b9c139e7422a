package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/service"
)

// cookieName is the session cookie. It holds a signed random id; the
// store keeps only the id's hash.
const cookieName = "costpilot_session"

// identify returns who makes the request, or nil for nobody. A bearer
// token counts only where bearer is true (/api and /metrics); a bad one is
// an error, so the client learns its token is wrong. A bad or expired
// cookie is just no session.
func (s *Server) identify(r *http.Request, bearer bool) (*service.Principal, error) {
	if !s.authEnabled {
		return &service.Principal{Kind: service.PrincipalAnonymous}, nil
	}
	if bearer {
		if h := r.Header.Get("Authorization"); h != "" {
			scheme, tok, ok := strings.Cut(h, " ")
			if ok && strings.EqualFold(scheme, "Bearer") {
				p, err := s.svc.AuthenticateToken(r.Context(), strings.TrimSpace(tok))
				if err != nil {
					return nil, err
				}
				return &p, nil
			}
		}
	}
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	p, err := s.svc.Authenticate(r.Context(), c.Value)
	if err != nil {
		return nil, nil
	}
	return &p, nil
}

// setSessionCookie sets the cookie: HttpOnly (no script can read it),
// Secure (browsers still accept it on http://localhost), SameSite=Lax.
func setSessionCookie(w http.ResponseWriter, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: value, Path: "/", MaxAge: maxAge,
		Expires:  time.Now().Add(time.Duration(maxAge) * time.Second),
		HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode,
	})
}

func clearSessionCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
}

// cacheIdentity separates cached answers per caller.
func cacheIdentity(p *service.Principal) string {
	switch {
	case p == nil:
		return "-"
	case p.Kind == service.PrincipalSession:
		return "u:" + p.Username
	case p.Kind == service.PrincipalToken:
		return "t"
	}
	return "a"
}
