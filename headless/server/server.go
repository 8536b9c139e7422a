// Package server is the headless dashboard (docs/api.md): the JSON /api
// over the backend Service, the login form and sessions, the built UI,
// /healthz and /metrics, behind rate limits and security middleware.
// Handlers hold no logic; the Service does the work.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/frontend"
)

// Request time limits: most requests finish in well under a second; the
// optimize pipeline, report generation and imports may take minutes.
const (
	shortTimeout = 60 * time.Second
	longTimeout  = 10 * time.Minute
)

// Server is the dashboard HTTP server.
type Server struct {
	svc         *service.Service
	cfg         config.DashboardConfig
	log         *slog.Logger
	now         func() time.Time
	authEnabled bool
	tls         bool
	proxies     []netip.Prefix
	limiter     *limiter
	metrics     *metrics
	health      *healthCache
	auth        *authCache
	resp        *respCache
	compute     chan struct{} // slots for uncached answers (warm.go)
	static      *staticFiles
	readTimeout time.Duration // dashboard.read_timeout: a body's time to arrive
	mux         *http.ServeMux
	served      map[string]bool // the mux patterns of real routes, not catch-alls
	handler     http.Handler
	hdrCSP      []string      // Content-Security-Policy, shared by every answer
	grace       time.Duration // shutdownGrace; tests shorten it
	warmEvery   time.Duration // warmEvery; tests shorten it
}

// New builds the server from the Service's configuration.
func New(svc *service.Service) (*Server, error) {
	cfg := svc.Config().Dashboard
	proxies, err := parseProxies(cfg.Security.TrustedProxies)
	if err != nil {
		return nil, err
	}
	if cfg.Auth.Enabled {
		if err := svc.CheckSecretKey(); err != nil {
			return nil, err
		}
	}
	var idp string
	if svc.SSOEnabled() {
		if err := svc.CheckSSO(); err != nil {
			return nil, err
		}
		idp = ssoOrigin(cfg.Auth.OIDC.Issuer)
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.MaxUploadBytes <= 0 {
		cfg.MaxUploadBytes = 512 << 20
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = 10
	}
	s := &Server{svc: svc, cfg: cfg, log: svc.Logger(), now: svc.Now, authEnabled: cfg.Auth.Enabled,
		tls: cfg.Security.SSLEnabled, proxies: proxies, mux: http.NewServeMux(), metrics: newMetrics(),
		readTimeout: time.Duration(cfg.ReadTimeout) * time.Second, hdrCSP: []string{csp(idp)}}
	s.limiter = newLimiter(s.now)
	s.health = &healthCache{}
	s.auth = newAuthCache()
	s.resp = newRespCache(respCacheMaxBytes)
	s.compute = make(chan struct{}, computeSlots())
	if s.static, err = newStaticFiles(frontend.Dist()); err != nil {
		return nil, fmt.Errorf("server: index the built UI: %w", err)
	}
	s.served = map[string]bool{}
	for _, rt := range routeTable() {
		pattern := rt.Method + " " + rt.Path
		s.mux.Handle(pattern, s.wrap(rt, rt.build(s)))
		s.served[pattern] = rt.Path != "/api/"
	}
	s.mux.Handle("/", s.unmatched())
	s.handler = s.observe(s.bodyDeadline(s.recoverer(s.clientAddr(s.originCheck(canonical(s.mux))))))
	return s, nil
}

// Handler is the whole server as an http.Handler (tests and benchmarks
// use it with httptest).
func (s *Server) Handler() http.Handler { return s.handler }

// Warnings lists what an operator should know about this configuration:
// auth or TLS off, no user to log in with.
func (s *Server) Warnings(ctx context.Context) []string {
	var out []string
	if !s.authEnabled {
		out = append(out, "dashboard.auth.enabled is false: anyone who can reach the dashboard can use it without logging in")
	} else if s.svc.SSOEnabled() {
		if ok, err := s.svc.HasLocalUsers(ctx); err == nil && !ok {
			out = append(out, "single sign-on is on and no local user exists: create one with `costpilot user add NAME` for when the identity provider is down")
		}
	} else if ok, err := s.svc.HasUsers(ctx); err == nil && !ok {
		out = append(out, "no dashboard user yet: create one with `costpilot user add NAME`")
	}
	if !s.tls {
		out = append(out, "dashboard.security.ssl_enabled is false: traffic is not encrypted; use TLS or a TLS-terminating proxy beyond localhost")
	}
	return out
}

// shutdownGrace is how long requests in flight may run on after a
// shutdown signal; then they are cancelled, and waited for (at most
// cancelWait) so none touches the store after the caller closes it.
const (
	shutdownGrace = 30 * time.Second
	cancelWait    = 10 * time.Second
)

// Serve answers on ln until ctx ends, then shuts down gracefully: it stops
// accepting, lets requests in flight finish (up to shutdownGrace), cancels
// those still running, waits for them, and returns.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	reqCtx, cancelReqs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelReqs()
	defer holdGCHeadroom()()
	var inflight sync.WaitGroup
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inflight.Add(1)
		defer inflight.Done()
		s.handler.ServeHTTP(w, r)
	})
	srv := &http.Server{
		Handler: handler,
		// Bodies have their own, shorter deadlines (bodyDeadline); this
		// bounds what those lift, as does each request's time limit.
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       longTimeout + time.Minute,
		WriteTimeout:      longTimeout + time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return reqCtx },
	}
	if s.tls {
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	// The warming stops, and is waited for, before Serve returns: the
	// caller closes the store next.
	warmCtx, stopWarm := context.WithCancel(reqCtx)
	warmDone := make(chan struct{})
	go func() { defer close(warmDone); s.warmOnChange(warmCtx) }()
	defer func() { stopWarm(); <-warmDone }()
	errc := make(chan error, 1)
	go func() {
		if s.tls {
			errc <- srv.ServeTLS(ln, s.cfg.Security.SSLCert, s.cfg.Security.SSLKey)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("server: %w", err)
	case <-ctx.Done():
	}
	s.log.Info("shutting down the dashboard")
	grace := s.grace
	if grace <= 0 {
		grace = shutdownGrace
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		// Past the grace: cancel what still runs and wait for it, so the
		// caller can close the store under no request.
		cancelReqs()
		done := make(chan struct{})
		go func() { inflight.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(cancelWait):
			s.log.Warn("requests still running after the shutdown's cancel")
		}
		return fmt.Errorf("server: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("server: %w", err)
	}
	return nil
}

// URL is how to reach a listener, for the startup message.
func (s *Server) URL(ln net.Listener) string {
	scheme := "http"
	if s.tls {
		scheme = "https"
	}
	addr := ln.Addr().String()
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if ip, err := netip.ParseAddr(host); err == nil && ip.IsUnspecified() {
			addr = net.JoinHostPort("localhost", port)
		}
	}
	return scheme + "://" + addr + "/"
}
