// Package service is the single façade every front door (CLI, HTTP,
// desktop) calls. It owns the configuration, the store and the cache, and
// composes the domain packages; it holds no transport concerns.
package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/cache"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/demo"
	"github.com/costpilot/costpilot/backend/provider/live"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/sso"
	"github.com/costpilot/costpilot/backend/store"
)

// Version is the costpilot version, set at link time for releases.
var Version = "0.1.0-dev"

// LogLevels lists the values of Options.LogLevel, in any case.
var LogLevels = config.LogLevels

// Options say where the service finds its configuration and data.
type Options struct {
	ConfigPath string // --config; "" lets config.Locate decide
	DataDir    string // --data-dir; "" lets the config or XDG decide
	LogLevel   string // --log-level; overrides the config
	Now        func() time.Time
	Logger     *slog.Logger
	LogOutput  io.Writer          // where the default logger writes; nil: stderr
	Registry   *provider.Registry // nil: the demo providers only
	Creds      provider.Credentials
	NoLive     bool // tests that inject their own api providers
}

// Service is costpilot's backend.
type Service struct {
	cfg     *config.Config
	cfgPath string
	dataDir string
	store   *store.Store
	cache   *cache.Cache
	reg     *provider.Registry
	creds   provider.Credentials
	now     func() time.Time
	log     *slog.Logger

	syncMu sync.Mutex // one sync at a time

	ssoMu sync.Mutex
	sso   *sso.Client // built on first use (ssoClient)

	counters *monitor.Counters
	process  *monitor.Process

	// focusHTTP replaces the focus_sources' client (tests: a TLS test
	// server's).
	focusHTTP *http.Client

	gate     atomic.Pointer[demoGate]     // see demoGate
	findings atomic.Pointer[findingsMemo] // see findingsMemo
}

// Open loads and validates the configuration, then opens the data dir.
func Open(ctx context.Context, o Options) (*Service, error) {
	path, found, err := config.Locate(o.ConfigPath)
	if err != nil {
		return nil, err
	}
	if !found {
		path = ""
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	return OpenWith(ctx, cfg, o)
}

// OpenWith opens the service on an already loaded configuration.
func OpenWith(ctx context.Context, cfg *config.Config, o Options) (*Service, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LogLevel != "" {
		if !config.ValidLogLevel(o.LogLevel) {
			return nil, apperr.Invalid("log_level", o.LogLevel, config.LogLevels)
		}
		cfg.LogLevel = o.LogLevel
	}
	if o.Logger == nil {
		var w io.Writer = os.Stderr
		if o.LogOutput != nil {
			w = o.LogOutput
		}
		o.Logger = NewLogger(w, cfg.LogLevel)
	}
	if o.Registry == nil {
		o.Registry = provider.NewRegistry()
	}
	demo.Register(o.Registry, o.Now)
	if !o.NoLive {
		live.Register(o.Registry)
	}
	if o.Creds == nil {
		o.Creds = provider.NoCredentials{}
	}
	dir, err := DataDir(o.DataDir, cfg)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, dir)
	if err != nil {
		return nil, apperr.Wrap(apperr.Base, err, "cannot open the database in %s: %v", dir, rootCause(err))
	}
	c, err := cache.Open(dir, cfg.Performance.Cache.Enabled)
	if err != nil {
		st.Close()
		return nil, apperr.Wrap(apperr.Base, err, "cannot open the cache in %s: %v", dir, rootCause(err))
	}
	return &Service{cfg: cfg, cfgPath: cfg.Path, dataDir: dir, store: st, cache: c, reg: o.Registry,
		creds: o.Creds, now: o.Now, log: o.Logger, counters: &monitor.Counters{}, process: monitor.NewProcess()}, nil
}

func rootCause(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// DataDir resolves the data directory: flag, $COSTPILOT_DATA_DIR,
// data_dir in config, $XDG_DATA_HOME/costpilot (docs/configuration.md).
func DataDir(flag string, cfg *config.Config) (string, error) {
	dir := flag
	if dir == "" {
		dir = os.Getenv("COSTPILOT_DATA_DIR")
	}
	if dir == "" && cfg != nil {
		dir = cfg.DataDir
	}
	if dir == "" {
		base := os.Getenv("XDG_DATA_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", apperr.Wrap(apperr.Configuration, err, "no data dir: set --data-dir, COSTPILOT_DATA_DIR or data_dir")
			}
			base = filepath.Join(home, ".local", "share")
		}
		dir = filepath.Join(base, "costpilot")
	}
	if strings.HasPrefix(dir, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, dir[2:])
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", apperr.Wrap(apperr.Configuration, err, "data dir %s: %v", dir, err)
	}
	if err := security.PrivateDir(abs); err != nil {
		return "", apperr.Wrap(apperr.Configuration, err, "cannot create data dir %s: %v", abs, rootCause(err))
	}
	return abs, nil
}

// Close releases the store and cache.
func (s *Service) Close() error {
	ferr := s.FlushMetrics(context.Background())
	return errors.Join(ferr, s.cache.Close(), s.store.Close())
}

// Config returns the configuration in force. Callers must not modify it.
func (s *Service) Config() *config.Config { return s.cfg }

// DataDirPath is the data directory in use.
func (s *Service) DataDirPath() string { return s.dataDir }

// Cache returns the cache.
func (s *Service) Cache() *cache.Cache { return s.cache }

// Logger returns the service's logger.
func (s *Service) Logger() *slog.Logger { return s.log }

// Now returns the service clock's time.
func (s *Service) Now() time.Time { return s.now() }

// OutputDir is where reports go: output_dir, else <data dir>/reports.
func (s *Service) OutputDir() string {
	if s.cfg.OutputDir != "" {
		if abs, err := filepath.Abs(s.cfg.OutputDir); err == nil {
			return abs
		}
		return s.cfg.OutputDir
	}
	return filepath.Join(s.dataDir, "reports")
}

// SecretKey returns the key that signs sessions:
// dashboard.security.secret_key or $COSTPILOT_SECRET_KEY, else a random key
// generated once and kept in the data dir with mode 0600.
func (s *Service) SecretKey() (string, error) {
	if k := s.cfg.Dashboard.Security.SecretKey; k != "" {
		return k, nil
	}
	path := filepath.Join(s.dataDir, "secret.key")
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", apperr.Wrap(apperr.Security, err, "cannot read the secret key file %s", path)
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return "", apperr.Wrap(apperr.Security, err, "cannot generate a secret key")
	}
	key := hex.EncodeToString(buf)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return s.SecretKey() // another process won the race; use its key
	}
	if err != nil {
		return "", apperr.Wrap(apperr.Security, err, "cannot write the secret key file %s", path)
	}
	if _, err := f.WriteString(key + "\n"); err != nil {
		f.Close()
		return "", apperr.Wrap(apperr.Security, err, "cannot write the secret key file %s", path)
	}
	if err := f.Close(); err != nil {
		return "", apperr.Wrap(apperr.Security, err, "cannot write the secret key file %s", path)
	}
	return key, nil
}

// NewLogger returns a text logger on w at the named level.
func NewLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	switch strings.ToUpper(level) {
	case "DEBUG":
		l = slog.LevelDebug
	case "WARN", "WARNING":
		l = slog.LevelWarn
	case "ERROR":
		l = slog.LevelError
	default:
		l = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}

// source is the source whose history a provider's analysis shows. With no
// config file (the built-in demo defaults), a provider that has imported
// export data shows it instead of the demo, so `costpilot import` works
// without writing a config first.
func (s *Service) source(ctx context.Context, k model.ProviderKey) model.SourceKind {
	var states []store.HistoryStats
	if s.cfgPath == "" {
		states, _ = s.store.SyncStates(ctx) // on error: the configured source
	}
	return sourceFrom(s.cfg, s.cfgPath, states, k)
}

func sourceFrom(cfg *config.Config, cfgPath string, states []store.HistoryStats, k model.ProviderKey) model.SourceKind {
	if !k.Cloud() {
		// A provider beyond the clouds is imported, unless it is an AI
		// vendor whose connector is on (its synced history is shown then).
		if cfg.Provider(k).Enabled {
			return model.SourceAPI
		}
		return model.SourceExport
	}
	src := cfg.Provider(k).Source
	if cfgPath == "" && src == model.SourceDemo {
		for _, h := range states {
			if h.Provider == k && h.Source == model.SourceExport && h.LastDay != "" {
				return model.SourceExport
			}
		}
	}
	return src
}

// providers returns the enabled providers, narrowed to only when given.
func (s *Service) providers(only model.ProviderKey) ([]model.ProviderKey, error) {
	if only != "" {
		if err := apperr.OneOf("provider", only, s.knownProviders()); err != nil {
			return nil, err
		}
	}
	var out []model.ProviderKey
	for _, k := range s.enabledProviders() {
		if s.demoHidden(k) {
			if only == k {
				return nil, s.errDemoHidden(k)
			}
			continue
		}
		if only == "" || only == k {
			out = append(out, k)
		}
	}
	if only != "" && len(out) == 0 {
		return nil, apperr.E(apperr.Validation, "provider %s is not enabled", only).WithProvider(string(only))
	}
	return out, nil
}

func (s *Service) scope(ctx context.Context, keys []model.ProviderKey) store.Scope {
	sc := store.Scope{Sources: map[model.ProviderKey]model.SourceKind{}}
	for _, k := range keys {
		sc.Sources[k] = s.source(ctx, k)
	}
	return sc
}

func yesterday(now time.Time) string {
	return demo.Today(now).AddDate(0, 0, -1).Format(model.DateLayout)
}

// wrapProvider makes a provider failure a ProviderError naming it.
func wrapProvider(k model.ProviderKey, err error, what string) error {
	if e, ok := apperr.As(err); ok {
		if e.Provider == "" {
			e.Provider = string(k)
		}
		return e
	}
	return apperr.Wrap(apperr.Provider, err, "%s: %s: %v", k, what, err).WithProvider(string(k))
}
