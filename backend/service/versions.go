package service

import (
	"context"

	"github.com/costpilot/costpilot/backend/store"
)

// ChangeVersions returns the data dir's change counters. Every process's
// history writes and auth changes move them, so a long-running front door
// compares them to know when what it keeps in memory (answers, logins) is
// stale, whichever process made the change.
func (s *Service) ChangeVersions(ctx context.Context) (store.Versions, error) {
	return s.store.Versions(ctx)
}

// historyVersion is the history version for keys of cached results: a
// result computed from older history is then never found under a newer
// version, even when its Put lands after another process's write. -1 when
// unreadable (the store is failing then anyway).
func (s *Service) historyVersion(ctx context.Context) int64 {
	v, err := s.store.Versions(ctx)
	if err != nil {
		return -1
	}
	return v.History
}
