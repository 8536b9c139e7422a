package server

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/service"
)

//go:embed assets
var assets embed.FS

var loginTmpl = template.Must(template.ParseFS(assets, "assets/login.html"))

// appName is shown on the login page.
const appName = "costpilot"

type loginView struct {
	App, Version, Error, Username string
	SSO                           bool   // offer "Sign in with SSO"
	Next                          string // where to go after logging in
}

// safeNext returns the same-origin path a login may return to, or "/":
// only a path of this server, never another host (an open redirect).
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\x00\r\n\t") {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/login") || strings.HasPrefix(u.Path, "/api/") {
		return "/"
	}
	return next
}

// loginURL is the login page that returns to the page r asked for.
func loginURL(r *http.Request) string {
	if next := safeNext(r.URL.RequestURI()); next != "/" {
		return "/login?next=" + url.QueryEscape(next)
	}
	return "/login"
}

// renderLogin writes the login page with status and an optional message.
// With single sign-on the page offers it first and keeps the form for
// local users (break-glass).
func (s *Server) renderLogin(w http.ResponseWriter, status int, v loginView) {
	v.App, v.Version, v.SSO = appName, service.Version, s.svc.SSOEnabled()
	var buf bytes.Buffer
	if err := loginTmpl.Execute(&buf, v); err != nil {
		http.Error(w, "cannot render the login page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// wantsJSON reports whether the client asked for JSON (a script rather
// than the form).
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

func (s *Server) loginPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := infoOf(r).principal; p != nil || !s.authEnabled {
			http.Redirect(w, r, safeNext(r.URL.Query().Get("next")), http.StatusSeeOther)
			return
		}
		s.renderLogin(w, http.StatusOK, loginView{Next: safeNext(r.URL.Query().Get("next"))})
	})
}

// login takes the form's username and password. Success: 303 to / with a
// new session cookie. Failure: 401 and one generic message; while locked:
// 429 with Retry-After.
func (s *Server) login() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.authEnabled {
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		if err := r.ParseForm(); err != nil {
			s.loginFailed(w, r, "", bodyError(err))
			return
		}
		req := service.LoginRequest{Username: r.PostForm.Get("username"), Password: r.PostForm.Get("password"), ClientAddr: infoOf(r).addr}
		if c, err := r.Cookie(cookieName); err == nil {
			req.Previous = c.Value
		}
		res, err := s.svc.Login(r.Context(), req)
		if err != nil {
			s.loginFailed(w, r, req.Username, err)
			return
		}
		setSessionCookie(w, res.Session, res.MaxAge)
		http.Redirect(w, r, safeNext(r.PostForm.Get("next")), http.StatusSeeOther)
	})
}

func (s *Server) loginFailed(w http.ResponseWriter, r *http.Request, username string, err error) {
	status := statusOf(err)
	if wantsJSON(r) || (status >= 500 && status != http.StatusServiceUnavailable) {
		writeError(w, r, err)
		return
	}
	infoOf(r).err = err
	msg := "Invalid username or password."
	if e, ok := apperr.As(err); ok {
		switch e.Kind {
		case apperr.RateLimited:
			sec, _ := e.Details["retry_after"].(int)
			w.Header().Set("Retry-After", strconv.Itoa(sec))
			msg = "Too many failed attempts. Try again in " + humanSeconds(sec) + "."
			if status == http.StatusServiceUnavailable {
				msg = "The server is busy. Try again in " + humanSeconds(sec) + "."
			}
		case apperr.Validation:
			msg = e.Text()
		}
	}
	if len(username) > service.MaxUsernameLen {
		// No user has such a name: echoing it would only let a request
		// make the page as large as its body.
		username = ""
	}
	s.renderLogin(w, status, loginView{Error: msg, Username: username, Next: safeNext(r.PostForm.Get("next"))})
}

func humanSeconds(sec int) string {
	if sec >= 120 {
		return strconv.Itoa((sec+59)/60) + " minutes"
	}
	return strconv.Itoa(sec) + " seconds"
}

// logout ends the session and returns to the login page, by way of the
// identity provider's logout for a user of single sign-on when the
// provider offers one.
func (s *Server) logout() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next := "/login"
		if c, err := r.Cookie(cookieName); err == nil && s.authEnabled {
			u, err := s.svc.Logout(r.Context(), c.Value, infoOf(r).addr)
			if err != nil {
				writeError(w, r, err)
				return
			}
			if u != "" {
				next = u
			}
		}
		clearSessionCookie(w)
		http.Redirect(w, r, next, http.StatusSeeOther)
	})
}

func (s *Server) loginCSS() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		infoOf(r).route = routeStatic
		b, err := assets.ReadFile("assets/login.css")
		if err != nil {
			writeError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write(b)
	})
}
