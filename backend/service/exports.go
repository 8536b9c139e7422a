package service

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// loadExports imports the files and folders of a provider's export_paths
// when any file is new or changed since the last import. All of them are imported
// together, as ImportFiles does, so the parts of one delivery add up
// instead of replacing each other. It returns the daily lines imported (0
// when nothing changed). A bad file is an error naming it; the history
// keeps what it had.
func (s *Service) loadExports(ctx context.Context, k model.ProviderKey) (int, error) {
	ps := s.cfg.Provider(k)
	var files []string
	for _, pat := range ps.ExportPaths {
		m, err := filepath.Glob(expandHome(pat))
		if err != nil {
			return 0, apperr.E(apperr.Configuration, "%s.export_paths: bad pattern %q: %v", k, pat, err).WithDetail("field", string(k)+".export_paths")
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	var paths []string
	var states []store.ExportFile
	changed := false
	note := func(f string, st fs.FileInfo) error {
		abs, _ := filepath.Abs(f)
		cur := store.ExportFile{Path: abs, Size: st.Size(), MTime: st.ModTime().UnixNano()}
		prev, err := s.store.ExportFileState(ctx, abs)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		changed = changed || err != nil || prev != cur
		states = append(states, cur)
		return nil
	}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			continue
		}
		abs, _ := filepath.Abs(f)
		paths = append(paths, abs)
		if !st.IsDir() {
			if err := note(f, st); err != nil {
				return 0, err
			}
			continue
		}
		// A folder (a copy of an export bucket) changes when any file in it
		// does; ImportFiles walks it.
		err = filepath.WalkDir(f, func(q string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return note(q, info)
		})
		if err != nil {
			return 0, apperr.Wrap(apperr.Provider, err, "%s export %s: %v", k, f, err).WithProvider(string(k))
		}
	}
	if !changed || len(paths) == 0 {
		return 0, nil
	}
	res, err := s.importFiles(ctx, paths, ImportOptions{Provider: k})
	if err != nil {
		return 0, apperr.Wrap(apperr.Provider, err, "%s export: %v", k, err).WithProvider(string(k))
	}
	for _, cur := range states {
		if err := s.store.RecordExportFile(ctx, k, cur); err != nil {
			return 0, err
		}
	}
	lines := 0
	for _, f := range res.Files {
		lines += f.Lines
	}
	s.log.Info("imported changed export files", "provider", k, "files", len(res.Files), "lines", lines)
	return lines, nil
}

func expandHome(p string) string {
	if len(p) > 1 && p[:2] == "~/" {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}
