package service

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/egress"
	"github.com/costpilot/costpilot/backend/focusfetch"
	"github.com/costpilot/costpilot/backend/model"
)

// focusTimeout bounds one download of a FOCUS source (a month of a large
// gateway's export is a few hundred MB).
const focusTimeout = 10 * time.Minute

// syncFocusSources brings in the configured focus_sources: each url
// source due (its every hours since the last look; all of them when
// force) is fetched when it changed, then every source whose files are
// new or changed is imported, its rows keeping their providers. One
// source failing does not stop the others; the errors are joined.
func (s *Service) syncFocusSources(ctx context.Context, force bool) ([]SyncResult, error) {
	var out []SyncResult
	var errs []error
	for _, f := range s.cfg.FocusSources {
		res, err := s.syncFocusSource(ctx, f, force)
		if err != nil {
			res.Error = apperr.Text(err)
			errs = append(errs, err)
		}
		out = append(out, res)
	}
	return out, errors.Join(errs...)
}

func (s *Service) syncFocusSource(ctx context.Context, f config.FocusSource, force bool) (SyncResult, error) {
	res := SyncResult{FocusSource: f.Name, Source: model.SourceExport}
	who := "FOCUS source " + f.Name
	pattern := f.Path
	if f.URL != "" {
		dir := filepath.Join(s.dataDir, "focus-sources", f.Name)
		prev, err := focusfetch.LoadState(dir)
		if err != nil {
			return res, err
		}
		if !force && !prev.CheckedAt.IsZero() && s.now().Before(prev.CheckedAt.Add(time.Duration(f.EveryHours())*time.Hour)) {
			res.Skipped = true
			return res, nil
		}
		token, err := s.focusToken(f)
		if err != nil {
			return res, err
		}
		r, err := focusfetch.Fetch(ctx, focusfetch.Request{Source: f.Name, URL: f.URL, Token: token, MaxBytes: f.Limit(), Dir: dir, HTTP: s.focusClient()}, prev)
		if err != nil {
			return res, err
		}
		r.State.CheckedAt = s.now().UTC()
		// The state is kept at once: whether the file is imported is the
		// import's own record (a failed import is tried again at the next
		// refresh, the file being unchanged since).
		if err := focusfetch.SaveState(dir, r.State); err != nil {
			return res, err
		}
		if r.State.File == "" {
			return res, nil
		}
		pattern = r.State.File
	}
	paths, states, changed, err := s.changedExports(ctx, []string{pattern}, who, "focus_sources "+f.Name)
	if err != nil {
		return res, err
	}
	if !changed || len(paths) == 0 {
		return res, nil
	}
	imp, err := s.importFiles(ctx, paths, ImportOptions{Format: "focus"})
	if err != nil {
		res.Error = apperr.Text(err)
		return res, apperr.Wrap(apperr.KindOf(err), err, "%s: %s", who, apperr.Text(err))
	}
	for _, st := range states {
		if err := s.store.RecordExportFile(ctx, model.FocusSources, st); err != nil {
			return res, err
		}
	}
	for _, file := range imp.Files {
		res.Lines += file.Lines
		for _, p := range file.Providers {
			if !slices.Contains(res.Providers, p) {
				res.Providers = append(res.Providers, p)
			}
		}
		res.Warnings = append(res.Warnings, file.Warnings...)
	}
	s.log.Info("imported a FOCUS source", "source", f.Name, "files", len(imp.Files), "lines", res.Lines)
	return res, nil
}

// focusToken is the bearer token of url source f: its token_env, else
// the credential store's focus token ("" when neither is set).
func (s *Service) focusToken(f config.FocusSource) (string, error) {
	if f.TokenEnv != "" {
		if v := os.Getenv(f.TokenEnv); v != "" {
			return v, nil
		}
	}
	if s.creds == nil {
		return "", nil
	}
	v, err := s.creds.Get(model.FocusSources, model.FocusToken)
	if err != nil {
		return "", apperr.Wrap(apperr.Security, err, "FOCUS source %s: cannot read the stored token", f.Name)
	}
	return v, nil
}

// focusClient is the client of the url sources: never to a link-local or
// metadata address.
func (s *Service) focusClient() *http.Client {
	if s.focusHTTP != nil {
		return s.focusHTTP
	}
	return egress.Client(focusTimeout)
}
