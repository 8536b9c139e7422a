// Package testop is an OpenID Provider for tests only: the certified
// provider library github.com/zitadel/oidc/v3/pkg/op over an in-memory
// store of fixed users and clients, with a password form to log in. It
// serves costpilot's single sign-on tests on loopback (backend/sso,
// headless/server) and the browser end-to-end test (tools/testop). It is
// never part of the product.
package testop

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// ScopeGroups asks for the groups claim, as many providers do.
const ScopeGroups = "groups"

// User is a person who can log in at the provider.
type User struct {
	ID              string   `json:"id"` // the subject
	Username        string   `json:"username"`
	Password        string   `json:"password"`
	Email           string   `json:"email"`
	EmailUnverified bool     `json:"email_unverified,omitempty"`
	Name            string   `json:"name"`
	Groups          []string `json:"groups"`
}

// Client is a relying party registered at the provider.
type Client struct {
	ID                     string   `json:"id"`
	Secret                 string   `json:"secret"`
	RedirectURIs           []string `json:"redirect_uris"`
	PostLogoutRedirectURIs []string `json:"post_logout_redirect_uris"`
	// ClaimsFromUserinfoOnly leaves email, profile and groups out of the
	// ID token: the relying party must ask the userinfo endpoint.
	ClaimsFromUserinfoOnly bool `json:"claims_from_userinfo_only,omitempty"`
}

// Config describes a provider.
type Config struct {
	Issuer  string       `json:"issuer"` // where it is served, e.g. http://127.0.0.1:9998
	Users   []User       `json:"users"`
	Clients []Client     `json:"clients"`
	Logger  *slog.Logger `json:"-"` // nil: silent
}

const (
	loginPath     = "/login"
	loggedOutPath = "/logged-out"
)

// New returns the provider's HTTP handler, to be served at cfg.Issuer.
func New(cfg Config) (http.Handler, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("testop: signing key: %w", err)
	}
	kid, err := randomID()
	if err != nil {
		return nil, err
	}
	st := &storage{users: map[string]User{}, clients: map[string]Client{}, key: key, keyID: kid,
		requests: map[string]*authRequest{}, codes: map[string]string{}, tokens: map[string]accessToken{}}
	for _, u := range cfg.Users {
		st.users[u.ID] = u
	}
	for _, c := range cfg.Clients {
		st.clients[c.ID] = c
	}
	var crypto [32]byte
	if _, err := rand.Read(crypto[:]); err != nil {
		return nil, fmt.Errorf("testop: key: %w", err)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	opts := []op.Option{op.WithAllowInsecure(), op.WithLogger(cfg.Logger)} // http on loopback
	p, err := op.NewProvider(&op.Config{
		CryptoKey:                crypto,
		DefaultLogoutRedirectURI: loggedOutPath,
		CodeMethodS256:           true,
		AuthMethodPost:           true,
		SupportedUILocales:       []language.Tag{language.English},
	}, st, op.StaticIssuer(cfg.Issuer), opts...)
	if err != nil {
		return nil, fmt.Errorf("testop: provider: %w", err)
	}
	callback := op.AuthCallbackURL(p)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+loginPath, func(w http.ResponseWriter, r *http.Request) {
		renderLogin(w, http.StatusOK, r.URL.Query().Get("authRequestID"), "")
	})
	mux.HandleFunc("POST "+loginPath, func(w http.ResponseWriter, r *http.Request) {
		id := r.PostFormValue("authRequestID")
		u, ok := st.byUsername(r.PostFormValue("username"))
		if !ok || u.Password != r.PostFormValue("password") {
			renderLogin(w, http.StatusUnauthorized, id, "Wrong username or password.")
			return
		}
		if err := st.login(id, u.ID); err != nil {
			renderLogin(w, http.StatusBadRequest, id, "This login request is unknown or finished.")
			return
		}
		http.Redirect(w, r, callback(op.ContextWithIssuer(r.Context(), cfg.Issuer), id), http.StatusFound)
	})
	mux.HandleFunc("GET "+loggedOutPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Signed out</title><h1>Signed out of the test provider</h1>`))
	})
	mux.Handle("/", p)
	return mux, nil
}

func (s *storage) byUsername(name string) (User, bool) {
	for _, u := range s.users {
		if strings.EqualFold(u.Username, name) {
			return u, true
		}
	}
	return User{}, false
}

var loginTmpl = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body>
<h1>Test identity provider</h1>
{{if .Error}}<p role="alert">{{.Error}}</p>{{end}}
<form method="post" action="/login">
<input type="hidden" name="authRequestID" value="{{.ID}}">
<label for="username">Username</label> <input id="username" name="username" autocomplete="username">
<label for="password">Password</label> <input id="password" name="password" type="password">
<button type="submit">Sign in</button>
</form>
</body></html>`))

func renderLogin(w http.ResponseWriter, status int, id, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = loginTmpl.Execute(w, struct{ ID, Error string }{id, msg})
}

func randomID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("testop: random: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Start serves a provider on a free loopback port, with cfg.Issuer set to
// its URL (srv.URL). Close the server when done.
func Start(cfg Config) (*httptest.Server, error) {
	srv := httptest.NewUnstartedServer(nil)
	cfg.Issuer = "http://" + srv.Listener.Addr().String()
	h, err := New(cfg)
	if err != nil {
		srv.Close()
		return nil, err
	}
	srv.Config.Handler = h
	srv.Start()
	return srv, nil
}
