package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Run is one pipeline run (model.Run).
type Run = model.Run

// StartRun records the start of a run and returns its id.
func (s *Store) StartRun(ctx context.Context, kind string) (int64, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO runs(kind, started_at) VALUES (?, ?)`, kind, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return 0, fmt.Errorf("store: start run: %w", err)
	}
	return res.LastInsertId()
}

// FinishRun records the outcome of a run and, in the same transaction,
// the results to keep with it (kind → JSON-encodable value).
func (s *Store) FinishRun(ctx context.Context, id int64, runErr error, summary any, results map[string]any) error {
	sum, err := json.Marshal(summary)
	if err != nil {
		return fmt.Errorf("store: encode run summary: %w", err)
	}
	status, msg := "ok", ""
	if runErr != nil {
		status, msg = "error", runErr.Error()
	}
	now := time.Now().UTC().Format(time.RFC3339)
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET finished_at = ?, status = ?, summary = ?, error = ? WHERE id = ?`,
			now, status, string(sum), msg, id); err != nil {
			return err
		}
		for kind, v := range results {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO saved_results(run_id, kind, data, created_at) VALUES (?,?,?,?)`,
				id, kind, string(b), now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: finish run: %w", err)
	}
	return nil
}

// Runs lists the latest runs, newest first.
func (s *Store) Runs(ctx context.Context, limit int) ([]Run, error) {
	var out []Run
	err := s.query(ctx, `SELECT id, kind, started_at, finished_at, status, summary, error FROM runs ORDER BY id DESC LIMIT ?`,
		[]any{limit}, func(rows *sql.Rows) error {
			var r Run
			var sum string
			if err := rows.Scan(&r.ID, &r.Kind, &r.StartedAt, &r.FinishedAt, &r.Status, &sum, &r.Error); err != nil {
				return err
			}
			r.Summary = json.RawMessage(sum)
			out = append(out, r)
			return nil
		})
	return out, err
}

// DeleteResults removes every run and saved result.
func (s *Store) DeleteResults(ctx context.Context) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM saved_results`)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		_, err = tx.ExecContext(ctx, `DELETE FROM runs`)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: delete results: %w", err)
	}
	return n, nil
}

// writeImportLog writes an import's account names, its line in the
// imports log and its audit event in the import's transaction.
func writeImportLog(ctx context.Context, tx *sql.Tx, l ImportLog) error {
	for p, names := range l.AccountNames {
		if err := setAccountNames(ctx, tx, p, names); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO imports(path, format, rows, providers, first_day, last_day, imported_at) VALUES (?,?,?,?,?,?,?)`,
		l.Path, l.Format, l.Rows, l.Providers, l.First, l.Last, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("store: record import: %w", err)
	}
	return addAudit(ctx, tx, l.Audit)
}
