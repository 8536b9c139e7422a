package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// StoredSchedule is a report schedule made in the dashboard, the API or
// the CLI.
type StoredSchedule struct {
	ID        int64
	Schedule  config.Schedule
	ChangedBy string
	ChangedAt string
}

// ReportSchedules lists the stored report schedules by name.
func (s *Store) ReportSchedules(ctx context.Context) ([]StoredSchedule, error) {
	const q = `SELECT id, name, frequency, weekday, day, hour, type, format, period, recipients, webhook, changed_by, changed_at
		FROM report_schedules ORDER BY name`
	var out []StoredSchedule
	err := s.query(ctx, q, nil, func(rows *sql.Rows) error {
		var r StoredSchedule
		var freq, typ, format, period, recipients string
		x := &r.Schedule
		if err := rows.Scan(&r.ID, &x.Name, &freq, &x.Weekday, &x.Day, &x.Hour, &typ, &format, &period, &recipients,
			&x.Webhook, &r.ChangedBy, &r.ChangedAt); err != nil {
			return err
		}
		x.Frequency, x.Type, x.Format, x.Period = config.Frequency(freq), model.ReportType(typ), model.ReportFormat(format), model.PeriodKind(period)
		if err := json.Unmarshal([]byte(recipients), &x.Recipients); err != nil {
			return fmt.Errorf("schedule %d recipients: %w", r.ID, err)
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// SaveReportSchedule creates (ID 0) or replaces a report schedule, with
// its audit line in the same transaction, and returns its id. A name in
// use is ErrNameTaken.
func (s *Store) SaveReportSchedule(ctx context.Context, r StoredSchedule, audit AuditEvent) (int64, error) {
	id := r.ID
	x := r.Schedule
	recipients, err := json.Marshal(x.Recipients)
	if err != nil {
		return 0, fmt.Errorf("store: save schedule: %w", err)
	}
	args := []any{x.Name, string(x.Frequency), x.Weekday, x.Day, x.Hour, string(x.Type), string(x.Format), string(x.Period),
		string(recipients), x.Webhook, r.ChangedBy, r.ChangedAt}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if id == 0 {
			err = tx.QueryRowContext(ctx, `INSERT INTO report_schedules(name, frequency, weekday, day, hour, type, format, period,
				recipients, webhook, changed_by, changed_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`, args...).Scan(&id)
		} else {
			var res sql.Result
			res, err = tx.ExecContext(ctx, `UPDATE report_schedules SET name = ?, frequency = ?, weekday = ?, day = ?, hour = ?,
				type = ?, format = ?, period = ?, recipients = ?, webhook = ?, changed_by = ?, changed_at = ? WHERE id = ?`, append(args, id)...)
			if err == nil {
				if n, _ := res.RowsAffected(); n == 0 {
					return ErrNotFound
				}
			}
		}
		if err != nil {
			if strings.Contains(err.Error(), "UNIQUE") {
				return ErrNameTaken
			}
			return err
		}
		if audit.Details == nil {
			audit.Details = map[string]any{}
		}
		audit.Details["id"] = id
		return addAudit(ctx, tx, audit)
	})
	if err != nil {
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrNameTaken) {
			return 0, err
		}
		return 0, fmt.Errorf("store: save schedule: %w", err)
	}
	return id, nil
}

// DeleteReportSchedule removes a stored report schedule. Its deliveries
// stay: made again under the same name, it does not deliver an occurrence
// twice.
func (s *Store) DeleteReportSchedule(ctx context.Context, id int64, audit AuditEvent) error {
	return deleteAudited(ctx, s.tx, "report_schedules", "schedule", "id", id, audit)
}

// ScheduleFirstSeen returns when the schedule named name was first seen,
// recording now if it never was.
func (s *Store) ScheduleFirstSeen(ctx context.Context, name string, now time.Time) (time.Time, error) {
	var at string
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO report_schedule_seen(schedule, first_seen) VALUES (?, ?) ON CONFLICT DO NOTHING`,
			name, stamp(now)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT first_seen FROM report_schedule_seen WHERE schedule = ?`, name).Scan(&at)
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("store: schedule first seen: %w", err)
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: schedule first seen %q: %w", at, err)
	}
	return t, nil
}

// Delivery states (report_deliveries.state).
const (
	DeliveryClaimed = "claimed" // the report is being made; nothing was sent
	// DeliverySending, DeliveryDelivered and DeliveryFailed are shared
	// with alert deliveries.
	DeliveryUnknown = "unknown" // the sender stopped while sending
)

// Delivery channels.
const (
	ChannelEmail   = "email"
	ChannelWebhook = "webhook"
)

// Delivery is one delivery of a schedule's occurrence on one channel.
type Delivery struct {
	ID            int64
	Schedule      string
	DueAt         string
	Channel       string
	State         string
	Attempts      int
	ClaimedAt     string
	FinishedAt    string
	NextAttemptAt string
	Recipients    string
	Report        string
	Period        string
	Error         string
}

const deliveryCols = `id, schedule, due_at, channel, state, attempts, claimed_at, finished_at, next_attempt_at, recipients, report, period, error`

func scanDelivery(sc interface{ Scan(...any) error }) (Delivery, error) {
	var d Delivery
	err := sc.Scan(&d.ID, &d.Schedule, &d.DueAt, &d.Channel, &d.State, &d.Attempts, &d.ClaimedAt, &d.FinishedAt,
		&d.NextAttemptAt, &d.Recipients, &d.Report, &d.Period, &d.Error)
	return d, err
}

// ClaimOptions say when a delivery may be claimed.
type ClaimOptions struct {
	Now time.Time
	// StaleAfter: a claim this old whose sender never got to sending (it
	// stopped while making the report) may be taken over; a delivery
	// stopped while sending becomes unknown instead.
	StaleAfter  time.Duration
	MaxAttempts int
}

// ClaimDelivery claims the delivery of schedule's occurrence due on
// channel, unless it was delivered, is being made or sent by another
// sender, failed and is not yet due for a retry, or has had MaxAttempts
// tries. It reports whether the caller now owns it, with its state. The
// check and the claim are one write transaction (the writer begins
// immediate transactions), so two processes on one data dir never both
// own a delivery.
func (s *Store) ClaimDelivery(ctx context.Context, schedule string, due time.Time, channel string, o ClaimOptions) (Delivery, bool, error) {
	var d Delivery
	claimed := false
	now := stamp(o.Now)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		d, err = scanDelivery(tx.QueryRowContext(ctx, `SELECT `+deliveryCols+` FROM report_deliveries
			WHERE schedule = ? AND due_at = ? AND channel = ?`, schedule, stamp(due), channel))
		if errors.Is(err, sql.ErrNoRows) {
			claimed = true
			d, err = scanDelivery(tx.QueryRowContext(ctx, `INSERT INTO report_deliveries(schedule, due_at, channel, state, attempts, claimed_at)
				VALUES (?, ?, ?, ?, 1, ?) RETURNING `+deliveryCols, schedule, stamp(due), channel, DeliveryClaimed, now))
			return err
		}
		if err != nil {
			return err
		}
		stale := func() bool {
			t, err := time.Parse(time.RFC3339, d.ClaimedAt)
			return err != nil || o.Now.Sub(t) >= o.StaleAfter
		}
		switch {
		case d.State == DeliverySending && stale():
			// The message may have reached the server: sending it again
			// could deliver it twice, so it is left for a person to judge.
			d.State, d.FinishedAt = DeliveryUnknown, now
			d.Error = "the sender stopped while sending at " + d.ClaimedAt + ": it may or may not have arrived, so it is not sent again"
			_, err = tx.ExecContext(ctx, `UPDATE report_deliveries SET state = ?, finished_at = ?, error = ? WHERE id = ?`,
				d.State, d.FinishedAt, d.Error, d.ID)
			return err
		case d.Attempts >= o.MaxAttempts:
			return nil
		case d.State == DeliveryFailed && d.NextAttemptAt != "" && d.NextAttemptAt <= now,
			d.State == DeliveryClaimed && stale():
			claimed = true
			d.State, d.Attempts, d.ClaimedAt = DeliveryClaimed, d.Attempts+1, now
			_, err = tx.ExecContext(ctx, `UPDATE report_deliveries SET state = ?, attempts = ?, claimed_at = ? WHERE id = ?`,
				d.State, d.Attempts, d.ClaimedAt, d.ID)
			return err
		}
		return nil
	})
	if err != nil {
		return Delivery{}, false, fmt.Errorf("store: claim delivery: %w", err)
	}
	return d, claimed, nil
}

// StartSending records that a claimed delivery is being handed to the
// server, with what it sends.
func (s *Store) StartSending(ctx context.Context, id int64, now time.Time, recipients, report, period string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE report_deliveries SET state = ?, claimed_at = ?, recipients = ?, report = ?, period = ?
		WHERE id = ?`, DeliverySending, stamp(now), recipients, report, period, id)
	if err != nil {
		return fmt.Errorf("store: delivery sending: %w", err)
	}
	return nil
}

// FinishDelivery records the outcome of a claimed delivery: delivered
// when sendErr is empty, else failed, to be tried again at next (zero:
// never).
func (s *Store) FinishDelivery(ctx context.Context, id int64, now time.Time, sendErr string, next time.Time) error {
	state, nextAt := DeliveryDelivered, ""
	if sendErr != "" {
		state = DeliveryFailed
		if !next.IsZero() {
			nextAt = stamp(next)
		}
	}
	_, err := s.w.ExecContext(ctx, `UPDATE report_deliveries SET state = ?, finished_at = ?, next_attempt_at = ?, error = ? WHERE id = ?`,
		state, stamp(now), nextAt, sendErr, id)
	if err != nil {
		return fmt.Errorf("store: finish delivery: %w", err)
	}
	return nil
}

// Deliveries lists the newest deliveries of a schedule, newest
// occurrence first.
func (s *Store) Deliveries(ctx context.Context, schedule string, limit int) ([]Delivery, error) {
	var out []Delivery
	err := s.query(ctx, `SELECT `+deliveryCols+` FROM report_deliveries WHERE schedule = ? ORDER BY due_at DESC, id DESC LIMIT ?`,
		[]any{schedule, limit}, func(rows *sql.Rows) error {
			d, err := scanDelivery(rows)
			out = append(out, d)
			return err
		})
	return out, err
}

// stamp is a time as the delivery tables keep it: RFC 3339 in UTC, whole
// seconds, so that the text sorts in time order.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
