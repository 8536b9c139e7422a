package server

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/model"
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
		return anonymous, nil
	}
	if bearer {
		if h := r.Header.Get("Authorization"); h != "" {
			scheme, tok, ok := strings.Cut(h, " ")
			if ok && strings.EqualFold(scheme, "Bearer") {
				tok = strings.TrimSpace(tok)
				return s.authenticate(r, "t:"+tok, func(ctx context.Context) (service.Principal, error) {
					return s.svc.AuthenticateToken(ctx, tok)
				})
			}
		}
	}
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	p, err := s.authenticate(r, "c:"+c.Value, func(ctx context.Context) (service.Principal, error) {
		return s.svc.Authenticate(ctx, c.Value)
	})
	if err != nil {
		return nil, nil
	}
	return p, nil
}

// anonymous is the caller of every request when auth is disabled: anyone
// may do anything.
var anonymous = &service.Principal{Kind: service.PrincipalAnonymous, Role: model.RoleAdmin}

// authenticate checks a credential through the Service, or answers from
// the auth cache when the same credential passed within the last second
// and no session, token, password or user has changed since in any
// process (the auth version). Failures are never cached.
func (s *Server) authenticate(r *http.Request, key string, check func(context.Context) (service.Principal, error)) (*service.Principal, error) {
	v, verr := s.versionsOf(r)
	now := s.now()
	if verr == nil {
		if p := s.auth.get(key, v.Auth, now); p != nil {
			return p, nil
		}
	}
	p, err := check(r.Context())
	if err != nil {
		return nil, err
	}
	if verr == nil {
		// v was read before the check, so a change made in between moves
		// the version past it and the entry is never used.
		s.auth.put(key, &p, v.Auth, now)
	}
	return &p, nil
}

// authCacheTTL is how long a checked credential is trusted without the
// database; the auth version ends it sooner. A token is looked up again
// at least this often, which keeps its last-use time current.
const authCacheTTL = time.Second

// authCacheMax bounds the entries: one per credential in use.
const authCacheMax = 10000

// authCache keeps credentials that passed a check, briefly.
type authCache struct {
	mu sync.RWMutex
	m  map[string]authEntry
}

type authEntry struct {
	p       *service.Principal
	version int64
	until   time.Time
}

func newAuthCache() *authCache { return &authCache{m: map[string]authEntry{}} }

func (c *authCache) get(key string, version int64, now time.Time) *service.Principal {
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if !ok || e.version != version || !now.Before(e.until) {
		return nil
	}
	return e.p
}

func (c *authCache) put(key string, p *service.Principal, version int64, now time.Time) {
	until := now.Add(authCacheTTL)
	if !p.ExpiresAt.IsZero() && p.ExpiresAt.Before(until) {
		until = p.ExpiresAt
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= authCacheMax {
		for k, e := range c.m {
			if e.version != version || !now.Before(e.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= authCacheMax {
			return // all in use within the last second: check those beyond uncached
		}
	}
	c.m[key] = authEntry{p: p, version: version, until: until}
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
