package server

import (
	"net/http"
	"net/url"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/service"
)

// ssoCookie ties a login sent to the identity provider to the browser
// that started it (login CSRF): it holds the signed state, only for the
// callback's path and for as long as the login may take.
const (
	ssoCookie     = "costpilot_sso"
	ssoCookiePath = "/auth/oidc/"
)

// ssoLogin is GET /auth/oidc/login: it starts a login at the identity
// provider and sends the browser there.
func (s *Server) ssoLogin() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.svc.SSOEnabled() {
			s.ssoFailed(w, r, apperr.E(apperr.NotFound, "single sign-on is not configured"))
			return
		}
		st, err := s.svc.StartSSO(r.Context())
		if err != nil {
			s.ssoFailed(w, r, err)
			return
		}
		// SameSite=Lax: the provider sends the browser back with a top-level
		// GET, which carries Lax cookies; a cross-site POST would not.
		http.SetCookie(w, &http.Cookie{Name: ssoCookie, Value: st.Binding, Path: ssoCookiePath, MaxAge: st.MaxAge,
			Expires: time.Now().Add(time.Duration(st.MaxAge) * time.Second), HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, st.URL, http.StatusSeeOther)
	})
}

// ssoCallback is GET /auth/oidc/callback, where the identity provider
// sends the browser back. Success: 303 to / with a new session cookie, as
// a local login. Refusal: the login page with the reason (403 for a
// refused user or state, 401 when the provider did not log the user in).
func (s *Server) ssoCallback() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.svc.SSOEnabled() {
			s.ssoFailed(w, r, apperr.E(apperr.NotFound, "single sign-on is not configured"))
			return
		}
		q := r.URL.Query()
		cb := service.SSOCallback{State: q.Get("state"), Code: q.Get("code"), Error: q.Get("error"),
			ErrorDescription: q.Get("error_description"), ClientAddr: infoOf(r).addr}
		if c, err := r.Cookie(ssoCookie); err == nil {
			cb.Binding = c.Value
		}
		if c, err := r.Cookie(cookieName); err == nil {
			cb.Previous = c.Value
		}
		// The login is over either way: the state is used once.
		http.SetCookie(w, &http.Cookie{Name: ssoCookie, Value: "", Path: ssoCookiePath, MaxAge: -1,
			HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
		res, err := s.svc.FinishSSO(r.Context(), cb)
		if err != nil {
			s.ssoFailed(w, r, err)
			return
		}
		setSessionCookie(w, res.Session, res.MaxAge)
		http.Redirect(w, r, "/", http.StatusSeeOther)
	})
}

// ssoFailed shows the login page with what went wrong; single sign-on
// refusals say why (they hold no secret), other failures are generic.
func (s *Server) ssoFailed(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	if wantsJSON(r) || status == http.StatusInternalServerError {
		writeError(w, r, err)
		return
	}
	infoOf(r).err = err
	msg := "Single sign-on failed."
	if e, ok := apperr.As(err); ok {
		msg = "Single sign-on failed: " + e.Text()
	}
	s.renderLogin(w, status, loginView{Error: msg})
}

// ssoOrigin is the identity provider's origin, which the logout form may
// be redirected to (CSP form-action); "" without single sign-on.
func ssoOrigin(issuer string) string {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
