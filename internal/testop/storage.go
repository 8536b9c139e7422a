package testop

import (
	"context"
	"crypto/rsa"
	"errors"
	"slices"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// storage is an in-memory op.Storage: the users and clients of a Config,
// the auth requests in flight and the access tokens issued. Refresh
// tokens, JWT profile grants and introspection are not offered.
type storage struct {
	users   map[string]User   // by ID
	clients map[string]Client // by ID
	key     *rsa.PrivateKey
	keyID   string

	mu       sync.Mutex
	requests map[string]*authRequest // by ID
	codes    map[string]string       // code -> request ID
	tokens   map[string]accessToken  // by ID
}

type accessToken struct {
	subject  string
	clientID string
	scopes   []string
	expires  time.Time
}

var errNotFound = errors.New("testop: not found")

func (s *storage) CreateAuthRequest(_ context.Context, req *oidc.AuthRequest, userID string) (op.AuthRequest, error) {
	// A relying party that does not send PKCE with S256 fails here, so the
	// tests prove it does.
	if req.CodeChallenge == "" || req.CodeChallengeMethod != oidc.CodeChallengeMethodS256 {
		return nil, oidc.ErrInvalidRequest().WithDescription("this provider requires PKCE with S256")
	}
	if req.Nonce == "" {
		return nil, oidc.ErrInvalidRequest().WithDescription("this provider requires a nonce")
	}
	id, err := randomID()
	if err != nil {
		return nil, err
	}
	ar := &authRequest{id: id, req: *req, subject: userID, created: time.Now()}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[id] = ar
	return ar, nil
}

func (s *storage) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ar, ok := s.requests[id]
	if !ok {
		return nil, errNotFound
	}
	return ar, nil
}

func (s *storage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	id, ok := s.codes[code]
	s.mu.Unlock()
	if !ok {
		return nil, errNotFound
	}
	return s.AuthRequestByID(ctx, id)
}

func (s *storage) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = id
	return nil
}

// DeleteAuthRequest runs after a code is exchanged: the code is single-use.
func (s *storage) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.requests, id)
	for c, rid := range s.codes {
		if rid == id {
			delete(s.codes, c)
		}
	}
	return nil
}

// login marks request id as authenticated by user userID.
func (s *storage) login(id, userID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ar, ok := s.requests[id]
	if !ok {
		return errNotFound
	}
	ar.subject, ar.done, ar.authTime = userID, true, time.Now()
	return nil
}

func (s *storage) CreateAccessToken(_ context.Context, req op.TokenRequest) (string, time.Time, error) {
	id, err := randomID()
	if err != nil {
		return "", time.Time{}, err
	}
	t := accessToken{subject: req.GetSubject(), scopes: req.GetScopes(), expires: time.Now().Add(5 * time.Minute)}
	if ar, ok := req.(op.AuthRequest); ok {
		t.clientID = ar.GetClientID()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[id] = t
	return id, t.expires, nil
}

var errUnsupported = errors.New("testop: not supported by this test provider")

func (s *storage) CreateAccessAndRefreshTokens(context.Context, op.TokenRequest, string) (string, string, time.Time, error) {
	return "", "", time.Time{}, errUnsupported
}

func (s *storage) TokenRequestByRefreshToken(context.Context, string) (op.RefreshTokenRequest, error) {
	return nil, op.ErrInvalidRefreshToken
}

// TerminateSession has nothing to end: the provider keeps no login
// session, so every authorization asks for the password again.
func (s *storage) TerminateSession(context.Context, string, string) error { return nil }

func (s *storage) RevokeToken(_ context.Context, token, _, _ string) *oidc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tokens, token)
	return nil
}

func (s *storage) GetRefreshTokenInfo(context.Context, string, string) (string, string, error) {
	return "", "", op.ErrInvalidRefreshToken
}

func (s *storage) SigningKey(context.Context) (op.SigningKey, error) {
	return signingKey{s.keyID, s.key}, nil
}

func (s *storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (s *storage) KeySet(context.Context) ([]op.Key, error) {
	return []op.Key{publicKey{s.keyID, &s.key.PublicKey}}, nil
}

func (s *storage) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	c, ok := s.clients[id]
	if !ok {
		return nil, oidc.ErrInvalidClient().WithDescription("unknown client")
	}
	return client{c}, nil
}

func (s *storage) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	c, ok := s.clients[id]
	if !ok || c.Secret == "" || c.Secret != secret {
		return oidc.ErrInvalidClient().WithDescription("bad client credentials")
	}
	return nil
}

// SetUserinfoFromScopes fills the ID token's claims, unless the client
// wants them from the userinfo endpoint only.
func (s *storage) SetUserinfoFromScopes(_ context.Context, ui *oidc.UserInfo, userID, clientID string, scopes []string) error {
	if s.clients[clientID].ClaimsFromUserinfoOnly {
		u, ok := s.users[userID]
		if !ok {
			return errNotFound
		}
		ui.Subject = u.ID
		return nil
	}
	return s.fill(ui, userID, scopes)
}

func (s *storage) SetUserinfoFromToken(_ context.Context, ui *oidc.UserInfo, tokenID, _, _ string) error {
	s.mu.Lock()
	t, ok := s.tokens[tokenID]
	s.mu.Unlock()
	if !ok || time.Now().After(t.expires) {
		return errNotFound
	}
	return s.fill(ui, t.subject, t.scopes)
}

// fill sets the claims of user userID that scopes ask for: sub (openid),
// email and email_verified (email), name and preferred_username (profile),
// groups (groups).
func (s *storage) fill(ui *oidc.UserInfo, userID string, scopes []string) error {
	u, ok := s.users[userID]
	if !ok {
		return errNotFound
	}
	for _, sc := range scopes {
		switch sc {
		case oidc.ScopeOpenID:
			ui.Subject = u.ID
		case oidc.ScopeEmail:
			ui.Email, ui.EmailVerified = u.Email, oidc.Bool(!u.EmailUnverified)
			if u.EmailUnverified {
				// oidc.UserInfo leaves a false email_verified out; providers
				// send it.
				ui.AppendClaims("email_verified", false)
			}
		case oidc.ScopeProfile:
			ui.Name, ui.PreferredUsername = u.Name, u.Username
		case ScopeGroups:
			ui.AppendClaims("groups", slices.Clone(u.Groups))
		}
	}
	return nil
}

func (s *storage) SetIntrospectionFromToken(context.Context, *oidc.IntrospectionResponse, string, string, string) error {
	return errUnsupported
}

func (s *storage) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}

func (s *storage) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errUnsupported
}

func (s *storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errUnsupported
}

func (s *storage) Health(context.Context) error { return nil }

// authRequest is one authorization in flight.
type authRequest struct {
	id       string
	req      oidc.AuthRequest
	subject  string
	done     bool
	created  time.Time
	authTime time.Time
}

func (a *authRequest) GetID() string          { return a.id }
func (a *authRequest) GetACR() string         { return "" }
func (a *authRequest) GetAMR() []string       { return []string{"pwd"} }
func (a *authRequest) GetAudience() []string  { return []string{a.req.ClientID} }
func (a *authRequest) GetAuthTime() time.Time { return a.authTime }
func (a *authRequest) GetClientID() string    { return a.req.ClientID }
func (a *authRequest) GetNonce() string       { return a.req.Nonce }
func (a *authRequest) GetRedirectURI() string { return a.req.RedirectURI }
func (a *authRequest) GetScopes() []string    { return a.req.Scopes }
func (a *authRequest) GetState() string       { return a.req.State }
func (a *authRequest) GetSubject() string     { return a.subject }
func (a *authRequest) Done() bool             { return a.done }
func (a *authRequest) GetResponseMode() oidc.ResponseMode {
	return a.req.ResponseMode
}
func (a *authRequest) GetResponseType() oidc.ResponseType {
	return a.req.ResponseType
}
func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge {
	return &oidc.CodeChallenge{Challenge: a.req.CodeChallenge, Method: a.req.CodeChallengeMethod}
}

// client is a Client as op.Client: a confidential web client using the
// authorization code flow.
type client struct{ c Client }

func (c client) GetID() string                    { return c.c.ID }
func (c client) RedirectURIs() []string           { return c.c.RedirectURIs }
func (c client) PostLogoutRedirectURIs() []string { return c.c.PostLogoutRedirectURIs }
func (c client) ApplicationType() op.ApplicationType {
	return op.ApplicationTypeWeb
}
func (c client) AuthMethod() oidc.AuthMethod { return oidc.AuthMethodBasic }
func (c client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c client) GrantTypes() []oidc.GrantType         { return []oidc.GrantType{oidc.GrantTypeCode} }
func (c client) LoginURL(id string) string            { return loginPath + "?authRequestID=" + id }
func (c client) AccessTokenType() op.AccessTokenType  { return op.AccessTokenTypeBearer }
func (c client) IDTokenLifetime() time.Duration       { return 5 * time.Minute }
func (c client) DevMode() bool                        { return true } // http redirect URIs on loopback
func (c client) IsScopeAllowed(string) bool           { return true }
func (c client) IDTokenUserinfoClaimsAssertion() bool { return !c.c.ClaimsFromUserinfoOnly }
func (c client) ClockSkew() time.Duration             { return 0 }
func (c client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

type signingKey struct {
	id  string
	key *rsa.PrivateKey
}

func (k signingKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k signingKey) Key() any                                    { return k.key }
func (k signingKey) ID() string                                  { return k.id }

type publicKey struct {
	id  string
	key *rsa.PublicKey
}

func (k publicKey) ID() string                         { return k.id }
func (k publicKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k publicKey) Use() string                        { return "sig" }
func (k publicKey) Key() any                           { return k.key }
