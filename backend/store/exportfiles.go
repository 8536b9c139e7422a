package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// ExportFile is the state of a file loaded from export_paths.
type ExportFile struct {
	Path  string
	Size  int64
	MTime int64
}

// ExportFileState returns what was recorded for path, or ErrNotFound.
func (s *Store) ExportFileState(ctx context.Context, path string) (ExportFile, error) {
	f := ExportFile{Path: path}
	err := s.r.QueryRowContext(ctx, `SELECT size, mtime FROM export_files WHERE path = ?`, path).Scan(&f.Size, &f.MTime)
	if errors.Is(err, sql.ErrNoRows) {
		return f, ErrNotFound
	}
	if err != nil {
		return f, fmt.Errorf("store: export file state: %w", err)
	}
	return f, nil
}

// RecordExportFile remembers that path was imported at this size and time.
func (s *Store) RecordExportFile(ctx context.Context, p model.ProviderKey, f ExportFile) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO export_files(path, provider, size, mtime, imported_at) VALUES (?,?,?,?,?)
		ON CONFLICT(path) DO UPDATE SET provider = excluded.provider, size = excluded.size, mtime = excluded.mtime,
			imported_at = excluded.imported_at`, f.Path, p, f.Size, f.MTime, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("store: record export file: %w", err)
	}
	return nil
}
