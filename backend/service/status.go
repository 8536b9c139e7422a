package service

import (
	"context"
	"os"
	"path/filepath"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// ProviderStatus is GET /api/status: for each
// enabled provider, whether it is connected (its source answers).
func (s *Service) ProviderStatus(ctx context.Context) (model.ProviderStatus, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.ProviderStatus{}, err
	}
	details, err := s.ProviderDetails(ctx)
	if err != nil {
		return nil, err
	}
	out := model.ProviderStatus{}
	for _, d := range details {
		if d.Enabled {
			out[d.Provider] = d.Connected
		}
	}
	return out, nil
}

// ProviderDetails is the detailed status: source, connection, the error
// when not connected, and the extent of the stored history.
func (s *Service) ProviderDetails(ctx context.Context) ([]model.ProviderDetail, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	return s.providerDetails(ctx)
}

// providerDetails is ProviderDetails without the permission check, for the
// Service's own use.
func (s *Service) providerDetails(ctx context.Context) ([]model.ProviderDetail, error) {
	stats, err := s.store.Stats(ctx)
	if err != nil {
		return nil, err
	}
	var out []model.ProviderDetail
	for _, k := range s.knownProviders() {
		ps := s.cfg.Provider(k)
		d := model.ProviderDetail{Provider: k, Name: s.providerName(k), Enabled: ps.Enabled, Source: ps.Source}
		if !k.Cloud() && !ps.Enabled {
			// Imported from FOCUS files: no connector or credentials to
			// check; it is there because it has history.
			d.Enabled, d.Source, d.Imported, d.Connected = true, model.SourceExport, true, true
			d.DemoHidden = s.demoHidden(k)
			for _, h := range stats {
				if h.Provider == k && h.Source == model.SourceExport {
					d.FirstDay, d.LastDay, d.LastSync, d.Lines = h.FirstDay, h.LastDay, h.SyncedAt, h.Lines
				}
			}
		} else if ps.Enabled {
			d.Source = s.source(ctx, k)
			d.DemoHidden = s.demoHidden(k)
			if err := s.check(ctx, k); err != nil {
				d.Error = apperr.Text(err)
			} else {
				d.Connected = true
			}
			for _, h := range stats {
				if h.Provider == k && h.Source == d.Source {
					d.FirstDay, d.LastDay, d.LastSync, d.Lines = h.FirstDay, h.LastDay, h.SyncedAt, h.Lines
					if h.Status == "error" && d.Error == "" {
						d.Error = "last sync failed: " + h.Error
					}
				}
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// check tests one provider's source: the demo always answers; export
// needs its files (or imported history); api asks the cloud.
func (s *Service) check(ctx context.Context, k model.ProviderKey) error {
	src := s.source(ctx, k)
	if src == model.SourceExport {
		return s.checkExport(ctx, k)
	}
	p, err := s.reg.Build(s.cfg, k, s.creds)
	if err != nil {
		return apperr.Wrap(apperr.Provider, err, "%v", err).WithProvider(string(k))
	}
	if err := p.Check(ctx); err != nil {
		return wrapProvider(k, err, "credential check")
	}
	return nil
}

func (s *Service) checkExport(ctx context.Context, k model.ProviderKey) error {
	paths := s.cfg.Provider(k).ExportPaths
	for _, pat := range paths {
		if m, _ := filepath.Glob(pat); len(m) > 0 {
			return nil
		}
	}
	stats, err := s.store.Stats(ctx)
	if err == nil {
		for _, h := range stats {
			if h.Provider == k && h.Source == model.SourceExport && h.Lines > 0 {
				return nil
			}
		}
	}
	if len(paths) == 0 {
		return apperr.E(apperr.Provider, "no billing export imported yet: run costpilot import FILE").WithProvider(string(k))
	}
	return apperr.E(apperr.Provider, "no file matches %s.export_paths %v", k, paths).WithProvider(string(k))
}

// ValidateCredentials is POST /api/credentials/validate.
func (s *Service) ValidateCredentials(ctx context.Context) (map[model.ProviderKey]model.CredentialCheck, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return nil, err
	}
	out := map[model.ProviderKey]model.CredentialCheck{}
	for _, k := range s.cfg.EnabledProviders() {
		if err := s.check(ctx, k); err != nil {
			out[k] = model.CredentialCheck{Valid: false, Error: apperr.Text(err)}
		} else {
			out[k] = model.CredentialCheck{Valid: true}
		}
	}
	return out, nil
}

// ConfigValidation is validate_config's result.
type ConfigValidation struct {
	Valid  bool                `json:"valid"`
	Errors []config.FieldError `json:"errors"`
	Path   string              `json:"path"`
}

// ValidateConfig is costpilot validate-config for the file at path
// ("" for the located one): every error, not just the first. A file that
// is not valid YAML is reported as one error with its line.
func ValidateConfig(path string) (ConfigValidation, error) {
	p, found, err := config.Locate(path)
	if err != nil {
		return ConfigValidation{}, err
	}
	if !found {
		p = ""
	}
	cfg, err := config.Read(p)
	if err != nil {
		return ConfigValidation{Path: p}, err
	}
	errs := cfg.Validate()
	return ConfigValidation{Valid: len(errs) == 0, Errors: append([]config.FieldError{}, errs...), Path: p}, nil
}

// LoadConfig loads and validates the configuration at path (the search
// order of docs/configuration.md when path is empty).
func LoadConfig(path string) (*config.Config, error) {
	p, found, err := config.Locate(path)
	if err != nil {
		return nil, err
	}
	if !found {
		p = ""
	}
	return config.Load(p)
}

// InitConfig writes the commented template to path (the default config
// path when empty). It refuses to overwrite unless force is set.
func InitConfig(path string, force bool) (string, error) {
	if path == "" {
		path = config.DefaultPath()
	}
	abs, _ := filepath.Abs(path)
	if _, err := os.Stat(abs); err == nil && !force {
		return abs, apperr.E(apperr.Configuration, "%s already exists: use --force to overwrite it", abs)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return abs, apperr.Wrap(apperr.Configuration, err, "cannot create %s: %v", filepath.Dir(abs), err)
	}
	tmp := abs + ".tmp"
	if err := os.WriteFile(tmp, []byte(config.Template), 0o600); err != nil {
		return abs, apperr.Wrap(apperr.Configuration, err, "cannot write %s: %v", tmp, err)
	}
	if err := os.Rename(tmp, abs); err != nil {
		return abs, apperr.Wrap(apperr.Configuration, err, "cannot write %s: %v", abs, err)
	}
	return abs, nil
}
