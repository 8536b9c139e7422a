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
	paths, states, changed, err := s.changedExports(ctx, ps.ExportPaths, string(k), string(k)+".export_paths")
	if e := (*apperr.Error)(nil); errors.As(err, &e) && e.Kind == apperr.Provider {
		return 0, e.WithProvider(string(k))
	}
	if err != nil {
		return 0, err
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

// changedExports expands the files, globs and folders of field (of who)
// into the paths to import, with the size and time of every file under
// them, and whether any file is new or changed since it was last imported.
func (s *Service) changedExports(ctx context.Context, patterns []string, who, field string) (paths []string, states []store.ExportFile, changed bool, err error) {
	var files []string
	for _, pat := range patterns {
		m, err := filepath.Glob(expandHome(pat))
		if err != nil {
			return nil, nil, false, apperr.E(apperr.Configuration, "%s: bad pattern %q: %v", field, pat, err).WithDetail("field", field)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
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
				return nil, nil, false, err
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
			return nil, nil, false, apperr.Wrap(apperr.Provider, err, "%s export %s: %v", who, f, err)
		}
	}
	return paths, states, changed, nil
}

func expandHome(p string) string {
	if len(p) > 1 && p[:2] == "~/" {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, p[2:])
		}
	}
	return p
}
