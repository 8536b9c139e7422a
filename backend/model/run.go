package model

import "encoding/json"

// Run is one pipeline run (optimize, sync, import).
type Run struct {
	ID         int64           `json:"id"`
	Kind       string          `json:"kind"`
	StartedAt  string          `json:"started_at"`
	FinishedAt string          `json:"finished_at"`
	Status     string          `json:"status"`
	Summary    json.RawMessage `json:"summary"`
	Error      string          `json:"error,omitempty"`
}
