package service

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// loadExports imports the files of a provider's export_paths that are new
// or changed since they were last imported. A bad file is an error naming
// it; the history keeps what it had.
func (s *Service) loadExports(ctx context.Context, k model.ProviderKey) error {
	ps := s.cfg.Provider(k)
	var files []string
	for _, pat := range ps.ExportPaths {
		m, err := filepath.Glob(expandHome(pat))
		if err != nil {
			return apperr.E(apperr.Configuration, "%s.export_paths: bad pattern %q: %v", k, pat, err).WithDetail("field", string(k)+".export_paths")
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil || st.IsDir() {
			continue
		}
		abs, _ := filepath.Abs(f)
		cur := store.ExportFile{Path: abs, Size: st.Size(), MTime: st.ModTime().UnixNano()}
		prev, err := s.store.ExportFileState(ctx, abs)
		if err == nil && prev == cur {
			continue
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		fr, err := billing.ParseFile(ctx, abs, s.parseOptions(ImportOptions{Provider: k}))
		if err != nil {
			return apperr.Wrap(apperr.Provider, err, "%s export %s: %v", k, abs, err).WithProvider(string(k))
		}
		_, err = s.commitImport(ctx, fr, false)
		fr.Close()
		if err != nil {
			return err
		}
		if err := s.store.RecordExportFile(ctx, k, cur); err != nil {
			return err
		}
	}
	return nil
}

func expandHome(p string) string {
	if len(p) > 1 && p[:2] == "~/" {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}
