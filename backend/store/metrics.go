package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// RequestMetrics are the dashboard's request counters of one UTC day (or
// their sum over several days, with Day empty).
type RequestMetrics struct {
	Day         string `json:"day,omitempty"`
	Requests    int64  `json:"requests"`
	Errors      int64  `json:"errors"`
	DurationUS  int64  `json:"duration_us"`
	CacheHits   int64  `json:"cache_hits"`
	CacheMisses int64  `json:"cache_misses"`
}

// Zero reports whether nothing was counted.
func (m RequestMetrics) Zero() bool {
	return m.Requests == 0 && m.Errors == 0 && m.DurationUS == 0 && m.CacheHits == 0 && m.CacheMisses == 0
}

// AddRequestMetrics adds the counts of each day to what is stored, in one
// transaction. Adding (rather than setting) lets the dashboard and CLI
// commands flush into the same days without losing each other's counts.
func (s *Store) AddRequestMetrics(ctx context.Context, days []RequestMetrics) error {
	const q = `INSERT INTO request_metrics(day, requests, errors, duration_us, cache_hits, cache_misses)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(day) DO UPDATE SET
			requests = requests + excluded.requests, errors = errors + excluded.errors,
			duration_us = duration_us + excluded.duration_us,
			cache_hits = cache_hits + excluded.cache_hits, cache_misses = cache_misses + excluded.cache_misses`
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, d := range days {
			if _, err := time.Parse(model.DateLayout, d.Day); err != nil {
				return fmt.Errorf("request metrics day %q: %w", d.Day, err)
			}
			if d.Zero() {
				continue
			}
			if _, err := tx.ExecContext(ctx, q, d.Day, d.Requests, d.Errors, d.DurationUS, d.CacheHits, d.CacheMisses); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: add request metrics: %w", err)
	}
	return nil
}

// RequestMetricsDays returns the stored days in [from, to] (inclusive;
// empty bounds are open), oldest first.
func (s *Store) RequestMetricsDays(ctx context.Context, from, to string) ([]RequestMetrics, error) {
	const q = `SELECT day, requests, errors, duration_us, cache_hits, cache_misses FROM request_metrics
		WHERE (? = '' OR day >= ?) AND (? = '' OR day <= ?) ORDER BY day`
	var out []RequestMetrics
	err := s.query(ctx, q, []any{from, from, to, to}, func(rows *sql.Rows) error {
		var m RequestMetrics
		if err := rows.Scan(&m.Day, &m.Requests, &m.Errors, &m.DurationUS, &m.CacheHits, &m.CacheMisses); err != nil {
			return err
		}
		out = append(out, m)
		return nil
	})
	return out, err
}

// RequestMetricsTotal sums every stored day.
func (s *Store) RequestMetricsTotal(ctx context.Context) (RequestMetrics, error) {
	const q = `SELECT COALESCE(SUM(requests), 0), COALESCE(SUM(errors), 0), COALESCE(SUM(duration_us), 0),
		COALESCE(SUM(cache_hits), 0), COALESCE(SUM(cache_misses), 0) FROM request_metrics`
	var m RequestMetrics
	if err := s.r.QueryRowContext(ctx, q).Scan(&m.Requests, &m.Errors, &m.DurationUS, &m.CacheHits, &m.CacheMisses); err != nil {
		return m, fmt.Errorf("store: request metrics total: %w", err)
	}
	return m, nil
}

// Alert deliveries are kept in the audit log as "alert_delivery" events
// whose details hold the alert id and a state; the newest event of an id
// decides. The log is append-only, and every attempt stays visible there.
const alertDeliveryEvent = "alert_delivery"

// Alert delivery states.
const (
	DeliverySending   = "sending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

type deliveryDetails struct {
	AlertID string `json:"alert_id"`
	State   string `json:"state"`
	Target  string `json:"target,omitempty"`
	Error   string `json:"error,omitempty"`
}

// ClaimAlertDelivery marks alert id as being sent, unless it was already
// delivered or another sender claimed it less than staleAfter ago; it
// reports whether the caller now owns the delivery. The check and the
// claim are one write transaction, so two processes never both send.
func (s *Store) ClaimAlertDelivery(ctx context.Context, id, target string, staleAfter time.Duration, now time.Time) (bool, error) {
	claimed := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		state, at, err := lastDelivery(ctx, tx, id)
		if err != nil {
			return err
		}
		switch state {
		case DeliveryDelivered:
			return nil
		case DeliverySending:
			if t, err := time.Parse(time.RFC3339, at); err == nil && now.Sub(t) < staleAfter {
				return nil
			}
		}
		claimed = true
		return insertDelivery(ctx, tx, now, deliveryDetails{AlertID: id, State: DeliverySending, Target: target})
	})
	if err != nil {
		return false, fmt.Errorf("store: claim alert delivery: %w", err)
	}
	return claimed, nil
}

// FinishAlertDelivery records the outcome of a claimed delivery: with a
// nil sendErr the alert is delivered for good; otherwise it may be tried
// again.
func (s *Store) FinishAlertDelivery(ctx context.Context, id, target string, sendErr error, now time.Time) error {
	d := deliveryDetails{AlertID: id, State: DeliveryDelivered, Target: target}
	if sendErr != nil {
		d.State, d.Error = DeliveryFailed, sendErr.Error()
	}
	err := s.tx(ctx, func(tx *sql.Tx) error { return insertDelivery(ctx, tx, now, d) })
	if err != nil {
		return fmt.Errorf("store: finish alert delivery: %w", err)
	}
	return nil
}

// AlertDeliveryState returns the newest delivery state of alert id ("" when
// it was never tried).
func (s *Store) AlertDeliveryState(ctx context.Context, id string) (string, error) {
	const q = `SELECT json_extract(details, '$.state') FROM audit_log
		WHERE event = ? AND json_extract(details, '$.alert_id') = ? ORDER BY id DESC LIMIT 1`
	var state string
	err := s.r.QueryRowContext(ctx, q, alertDeliveryEvent, id).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: alert delivery state: %w", err)
	}
	return state, nil
}

func lastDelivery(ctx context.Context, tx *sql.Tx, id string) (state, at string, err error) {
	const q = `SELECT json_extract(details, '$.state'), time FROM audit_log
		WHERE event = ? AND json_extract(details, '$.alert_id') = ? ORDER BY id DESC LIMIT 1`
	err = tx.QueryRowContext(ctx, q, alertDeliveryEvent, id).Scan(&state, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", nil
	}
	return state, at, err
}

func insertDelivery(ctx context.Context, tx *sql.Tx, now time.Time, d deliveryDetails) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO audit_log(time, event, details) VALUES (?, ?, ?)`,
		now.UTC().Format(time.RFC3339), alertDeliveryEvent, string(b))
	return err
}
