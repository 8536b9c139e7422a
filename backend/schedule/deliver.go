package schedule

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/store"
)

const (
	// ClaimTTL: a delivery claimed this long ago whose sender never began
	// sending (it stopped while making the report) is taken over; a
	// report takes seconds to make.
	ClaimTTL = 15 * time.Minute
	// MaxAttachment bounds a report mailed as an attachment: most mail
	// servers refuse messages above 25 MB, and base64 adds a third.
	MaxAttachment = 15 << 20
)

// Store is what delivering needs of the store (*store.Store): the first
// time a schedule was seen, and the claim, start and end of a delivery.
type Store interface {
	ScheduleFirstSeen(ctx context.Context, name string, now time.Time) (time.Time, error)
	ClaimDelivery(ctx context.Context, schedule string, due time.Time, channel string, o store.ClaimOptions) (store.Delivery, bool, error)
	StartSending(ctx context.Context, id int64, now time.Time, recipients, report, period string) error
	FinishDelivery(ctx context.Context, id int64, now time.Time, sendErr string, next time.Time) error
}

// Deliverer delivers a schedule's due occurrence on each channel it can
// claim. Each schedule, occurrence and channel is claimed in the store
// before anything is sent, so it is delivered at most once however many
// processes share the data dir.
type Deliverer struct {
	Store Store
	Now   func() time.Time
	Log   *slog.Logger
	// Report makes a schedule's report and its headline numbers.
	Report func(ctx context.Context, sc config.Schedule, due time.Time) (Mail, Headline, error)
	// Email mails a made report to the schedule's recipients.
	Email func(ctx context.Context, sc config.Schedule, due time.Time, m Mail, h Headline) error
	// Webhook posts the headline message (the alerts webhook);
	// WebhookTarget is its URL as recorded (scheme and host only).
	Webhook       *monitor.Webhook
	WebhookTarget string
}

// Result is what delivering did: "schedule (channel)" labels sent and
// failed, and the failures in words.
type Result struct {
	Delivered []string
	Failed    []string
	Errors    []string
}

// Deliver delivers sc's newest occurrence that is due and not yet
// delivered (or is due for a retry). Occurrences due before the schedule
// was first seen are not delivered. Delivery failures are recorded and
// reported in the result; the error is for the store failing.
func (d *Deliverer) Deliver(ctx context.Context, sc config.Schedule) (Result, error) {
	var res Result
	now := d.Now()
	due := Last(sc, now)
	if due.IsZero() {
		return res, nil
	}
	seen, err := d.Store.ScheduleFirstSeen(ctx, sc.Name, now)
	if err != nil || due.Before(seen) {
		return res, err
	}
	var channels []string
	if len(sc.Recipients) > 0 {
		channels = append(channels, store.ChannelEmail)
	}
	if sc.Webhook {
		channels = append(channels, store.ChannelWebhook)
	}
	var claimed []store.Delivery
	for _, ch := range channels {
		c, ok, err := d.Store.ClaimDelivery(ctx, sc.Name, due, ch, store.ClaimOptions{Now: now, StaleAfter: ClaimTTL, MaxAttempts: MaxAttempts})
		if err != nil {
			return res, err
		}
		if ok {
			claimed = append(claimed, c)
		}
	}
	if len(claimed) == 0 {
		return res, nil
	}
	// Whatever happens from here is recorded, even if ctx ends: a claim
	// left open would hold the delivery until it goes stale.
	rec := context.WithoutCancel(ctx)
	finish := func(c store.Delivery, sendErr error) error {
		label := sc.Name + " (" + c.Channel + ")"
		if sendErr == nil {
			res.Delivered = append(res.Delivered, label)
			return d.Store.FinishDelivery(rec, c.ID, d.Now(), "", time.Time{})
		}
		msg := sendErr.Error()
		next := RetryAt(c.Attempts, d.Now())
		// The next occurrence takes over: no retry after it is due.
		if !next.IsZero() && !next.Before(Next(sc, due)) {
			next = time.Time{}
		}
		res.Failed = append(res.Failed, label)
		res.Errors = append(res.Errors, label+": "+msg)
		d.Log.Warn("scheduled report not delivered", "schedule", sc.Name, "channel", c.Channel, "attempt", c.Attempts, "retry_at", Stamp(next), "err", msg)
		return d.Store.FinishDelivery(rec, c.ID, d.Now(), msg, next)
	}
	rep, head, err := d.Report(ctx, sc, due)
	if err != nil {
		for _, c := range claimed {
			if ferr := finish(c, fmt.Errorf("the report could not be made: %w", err)); ferr != nil {
				return res, ferr
			}
		}
		return res, nil
	}
	for _, c := range claimed {
		to := strings.Join(sc.Recipients, ", ")
		if c.Channel == store.ChannelWebhook {
			to = d.WebhookTarget
		}
		if err := d.Store.StartSending(rec, c.ID, d.Now(), to, rep.Attachment.Name, head.Period); err != nil {
			return res, err
		}
		var sendErr error
		if c.Channel == store.ChannelEmail {
			sendErr = d.Email(ctx, sc, due, rep, head)
		} else {
			sendErr = d.Webhook.Post(ctx, head.WebhookMessage())
		}
		if err := finish(c, sendErr); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ReadReport reads a report to attach, refusing one too large to mail.
func ReadReport(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, apperr.Wrap(apperr.Report, err, "cannot read the report %s", filepath.Base(path))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxAttachment+1))
	if err != nil {
		return nil, apperr.Wrap(apperr.Report, err, "cannot read the report %s", filepath.Base(path))
	}
	if len(b) > MaxAttachment {
		return nil, apperr.E(apperr.Report, "the report %s is larger than %d MB, too large to mail", filepath.Base(path), MaxAttachment>>20)
	}
	return b, nil
}

// ContentType is the MIME type a report of format is attached as.
func ContentType(f model.ReportFormat) string {
	return map[model.ReportFormat]string{model.FormatPDF: "application/pdf", model.FormatHTML: "text/html; charset=utf-8",
		model.FormatJSON: "application/json"}[f]
}

// Sender mails scheduled reports through reports.smtp.
type Sender struct {
	SMTP config.SMTPConfig
	// Password is the SMTP password, read at each send so a changed
	// secret needs no restart; called only when SMTP.Username is set.
	Password func() (string, error)
	Now      func() time.Time
}

// Send mails a schedule's report to its recipients.
func (s Sender) Send(ctx context.Context, sc config.Schedule, due time.Time, m Mail, h Headline) error {
	c := s.SMTP
	if c.Host == "" || c.From == "" {
		return apperr.E(apperr.Configuration, "no mail server: set reports.smtp.host and reports.smtp.from")
	}
	mailer := &Mailer{Host: c.Host, Port: c.Port, Security: c.Security, Username: c.Username}
	if c.Username != "" {
		pw, err := s.Password()
		if err != nil {
			return err
		}
		mailer.Password = pw
	}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return apperr.Wrap(apperr.Configuration, err, "reports.smtp.ca_file %s cannot be read: %s", c.CAFile, ErrorText(err))
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return apperr.E(apperr.Configuration, "reports.smtp.ca_file %s holds no PEM certificate", c.CAFile)
		}
		mailer.RootCAs = pool
	}
	m.From, m.To, m.Subject, m.Body, m.Date = c.From, sc.Recipients, h.Subject(), h.MailBody(), s.Now()
	m.MessageID = MessageID(sc.Name, due, c.From)
	return mailer.Send(ctx, m)
}

// MessageID is the Message-ID of every try of one occurrence: the same
// one lets a receiver that drops duplicate ids keep one copy.
func MessageID(schedule string, due time.Time, from string) string {
	sum := sha256.Sum256([]byte(schedule + "\x00" + Stamp(due)))
	return "costpilot." + hex.EncodeToString(sum[:12]) + "@" + from[strings.LastIndexByte(from, '@')+1:]
}

// Credentials is the credential store (the desktop's OS keyring).
type Credentials interface {
	Get(p model.ProviderKey, field string) (string, error)
}

// SMTPPassword reads the SMTP password from COSTPILOT_SMTP_PASSWORD or the
// file COSTPILOT_SMTP_PASSWORD_FILE names, else from creds. It is never
// logged, stored or returned to a caller.
func SMTPPassword(creds Credentials) (string, error) {
	if v := os.Getenv(config.SMTPPasswordEnv); v != "" {
		return v, nil
	}
	if f := os.Getenv(config.SMTPPasswordEnv + "_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", apperr.Wrap(apperr.Configuration, err, "%s_FILE names %s, which cannot be read: %s", config.SMTPPasswordEnv, f, ErrorText(err))
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	v, err := creds.Get(model.ProviderKey(model.SMTP), model.SMTPPassword)
	if err != nil {
		return "", err
	}
	if v != "" {
		return v, nil
	}
	return "", apperr.E(apperr.Configuration, "reports.smtp.username is set but no password is: set %s or %s_FILE, or store it in the desktop app's credentials", config.SMTPPasswordEnv, config.SMTPPasswordEnv)
}

// ErrorText is an OS error's reason without the path it repeats.
func ErrorText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Stamp is a time in RFC 3339 UTC, "" for the zero time.
func Stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// FailureSentence says in words what became of a failed delivery.
func FailureSentence(d store.Delivery) string {
	what := "The email"
	if d.Recipients != "" && d.Channel == store.ChannelEmail {
		what = "The email to " + d.Recipients
	}
	if d.Channel == store.ChannelWebhook {
		what = "The webhook message"
	}
	if d.Period != "" {
		what += " of " + d.Period
	}
	if d.State == store.DeliveryUnknown {
		return fmt.Sprintf("%s may not have arrived: %s.", what, d.Error)
	}
	s := fmt.Sprintf("%s failed (attempt %d of %d) at %s: %s.", what, d.Attempts, MaxAttempts, d.FinishedAt, d.Error)
	if d.NextAttemptAt != "" {
		return s + " It will be tried again at " + d.NextAttemptAt + "."
	}
	return s + " It is not tried again: fix the cause, and the next occurrence is delivered as usual."
}

// Standing is how a schedule's recent deliveries stand.
type Standing struct {
	// LastDelivered is the newest delivery that arrived.
	LastDelivered *store.Delivery
	// LastError says what happened to the newest occurrence's failed
	// delivery, NextRetry when it is tried again ("" when it is not).
	LastError string
	NextRetry string
}

// StandingOf reads recent deliveries, newest occurrence first. Only the
// newest occurrence's failures are the news; an older one's were
// overtaken by it.
func StandingOf(ds []store.Delivery) Standing {
	var st Standing
	for i, d := range ds {
		if d.State == store.DeliveryDelivered && (st.LastDelivered == nil || d.FinishedAt > st.LastDelivered.FinishedAt) {
			st.LastDelivered = &ds[i]
		}
	}
	for _, d := range ds {
		if d.DueAt != ds[0].DueAt || (d.State != store.DeliveryFailed && d.State != store.DeliveryUnknown) {
			continue
		}
		st.LastError = FailureSentence(d)
		st.NextRetry = d.NextAttemptAt
		break
	}
	return st
}
