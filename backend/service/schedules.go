package service

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/schedule"
	"github.com/costpilot/costpilot/backend/store"
)

// Schedule sources.
const (
	ScheduleFromConfig    = "config"    // reports.schedules in the config file: edited there
	ScheduleFromDashboard = "dashboard" // made in the dashboard, the API or the CLI
)

// Audit events of schedules.
const (
	AuditScheduleSave   = "schedule_save"
	AuditScheduleDelete = "schedule_delete"
)

// Delivery tuning.
const (
	// scheduleClaimTTL: a delivery claimed this long ago whose sender never
	// began sending (it stopped while making the report) is taken over; a
	// report takes seconds to make.
	scheduleClaimTTL = 15 * time.Minute
	// maxAttachment bounds a report mailed as an attachment: most mail
	// servers refuse messages above 25 MB, and base64 adds a third.
	maxAttachment = 15 << 20
	// deliveriesShown is how many recent deliveries a schedule lists.
	deliveriesShown = 10
	// schedulesEvery is how often the background loop looks for due
	// deliveries and retries.
	schedulesEvery = time.Minute
)

// ScheduleView is a report schedule with where it comes from and how its
// deliveries stand: GET /api/schedules.
type ScheduleView struct {
	ID        int64           `json:"id"` // 0 for the config file's
	Source    string          `json:"source"`
	Schedule  config.Schedule `json:"schedule"`
	ChangedBy string          `json:"changed_by,omitempty"`
	ChangedAt string          `json:"changed_at,omitempty"`
	// NextDue is the next occurrence, RFC 3339 UTC.
	NextDue string `json:"next_due"`
	// LastDelivered is the newest delivery that arrived; LastError, when
	// the newest attempt failed, says what happened in a sentence, and
	// NextRetry when it is tried again ("" when it is not).
	LastDelivered *DeliveryView  `json:"last_delivered,omitempty"`
	LastError     string         `json:"last_error,omitempty"`
	NextRetry     string         `json:"next_retry,omitempty"`
	Deliveries    []DeliveryView `json:"deliveries"`
}

// DeliveryView is one delivery of a schedule's occurrence on one channel.
type DeliveryView struct {
	DueAt      string `json:"due_at"`
	Channel    string `json:"channel"` // email | webhook
	State      string `json:"state"`   // claimed | sending | delivered | failed | unknown
	Attempts   int    `json:"attempts"`
	FinishedAt string `json:"finished_at,omitempty"`
	NextRetry  string `json:"next_retry,omitempty"`
	To         string `json:"to,omitempty"` // the addresses, or the webhook's scheme and host
	Report     string `json:"report,omitempty"`
	Period     string `json:"period,omitempty"`
	Error      string `json:"error,omitempty"`
}

// schedules is every schedule: the config file's, then the stored ones.
func (s *Service) schedules(ctx context.Context) ([]ScheduleView, error) {
	var out []ScheduleView
	for _, sc := range s.cfg.Reports.Schedules {
		out = append(out, ScheduleView{Source: ScheduleFromConfig, Schedule: config.ScheduleDefaults(sc)})
	}
	stored, err := s.store.ReportSchedules(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range stored {
		out = append(out, ScheduleView{ID: r.ID, Source: ScheduleFromDashboard, Schedule: config.ScheduleDefaults(r.Schedule),
			ChangedBy: r.ChangedBy, ChangedAt: r.ChangedAt})
	}
	return out, nil
}

// Schedules is every report schedule with its next occurrence and how its
// recent deliveries went: what the Status page shows.
func (s *Service) Schedules(ctx context.Context) ([]ScheduleView, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	views, err := s.schedules(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	for i := range views {
		if err := s.describe(ctx, &views[i], now); err != nil {
			return nil, err
		}
	}
	if views == nil {
		views = []ScheduleView{}
	}
	return views, nil
}

// describe fills a schedule's next occurrence and deliveries.
func (s *Service) describe(ctx context.Context, v *ScheduleView, now time.Time) error {
	v.NextDue = stampTime(schedule.Next(v.Schedule, now))
	ds, err := s.store.Deliveries(ctx, v.Schedule.Name, deliveriesShown)
	if err != nil {
		return err
	}
	v.Deliveries = []DeliveryView{}
	for _, d := range ds {
		dv := DeliveryView{DueAt: d.DueAt, Channel: d.Channel, State: d.State, Attempts: d.Attempts, FinishedAt: d.FinishedAt,
			NextRetry: d.NextAttemptAt, To: d.Recipients, Report: d.Report, Period: d.Period, Error: d.Error}
		v.Deliveries = append(v.Deliveries, dv)
		if dv.State == store.DeliveryDelivered && (v.LastDelivered == nil || dv.FinishedAt > v.LastDelivered.FinishedAt) {
			c := dv
			v.LastDelivered = &c
		}
	}
	// The newest occurrence's failures are the news; an older one's were
	// overtaken by it.
	for _, d := range v.Deliveries {
		if d.DueAt != v.Deliveries[0].DueAt || (d.State != store.DeliveryFailed && d.State != store.DeliveryUnknown) {
			continue
		}
		v.LastError = failureSentence(d)
		v.NextRetry = d.NextRetry
		break
	}
	return nil
}

// failureSentence says in words what became of a failed delivery.
func failureSentence(d DeliveryView) string {
	what := "The email"
	if d.To != "" && d.Channel == store.ChannelEmail {
		what = "The email to " + d.To
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
	s := fmt.Sprintf("%s failed (attempt %d of %d) at %s: %s.", what, d.Attempts, schedule.MaxAttempts, d.FinishedAt, d.Error)
	if d.NextRetry != "" {
		return s + " It will be tried again at " + d.NextRetry + "."
	}
	return s + " It is not tried again: fix the cause, and the next occurrence is delivered as usual."
}

// checkSchedule is config.CheckSchedule as an error naming the first field.
func (s *Service) checkSchedule(sc config.Schedule) error {
	var err error
	config.CheckSchedule("", sc, s.cfg.MailConfigured(), strings.TrimSpace(s.cfg.Alerts.WebhookURL) != "", func(field, format string, args ...any) {
		if err == nil {
			err = apperr.E(apperr.Validation, "%s %s", field, fmt.Sprintf(format, args...)).WithDetail("field", field)
		}
	})
	return err
}

// SaveSchedule creates a report schedule (id 0) or changes one made in
// the dashboard; the config file's are changed in the file.
func (s *Service) SaveSchedule(ctx context.Context, id int64, sc config.Schedule, actor string) (ScheduleView, error) {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return ScheduleView{}, err
	}
	sc = config.ScheduleDefaults(sc)
	if err := s.checkSchedule(sc); err != nil {
		return ScheduleView{}, err
	}
	for _, c := range s.cfg.Reports.Schedules {
		if c.Name == sc.Name {
			return ScheduleView{}, apperr.E(apperr.Validation, "the config file has a schedule named %q: choose another name", sc.Name).WithDetail("field", "name")
		}
	}
	at := s.now().UTC().Format(time.RFC3339)
	ev := store.AuditEvent{Time: at, Event: AuditScheduleSave, Username: actor, Details: map[string]any{
		"name": sc.Name, "frequency": sc.Frequency, "type": sc.Type, "format": sc.Format, "period": sc.Period,
		"recipients": len(sc.Recipients), "webhook": sc.Webhook}}
	id, err := s.store.SaveReportSchedule(ctx, store.StoredSchedule{ID: id, Schedule: sc, ChangedBy: actor, ChangedAt: at}, ev)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return ScheduleView{}, apperr.E(apperr.NotFound, "no schedule %d made in the dashboard", id).WithDetail("field", "id")
	case errors.Is(err, store.ErrNameTaken):
		return ScheduleView{}, apperr.E(apperr.Validation, "a schedule named %q exists", sc.Name).WithDetail("field", "name")
	case err != nil:
		return ScheduleView{}, err
	}
	// A new schedule delivers from its next occurrence on.
	if _, err := s.store.ScheduleFirstSeen(ctx, sc.Name, s.now()); err != nil {
		return ScheduleView{}, err
	}
	v := ScheduleView{ID: id, Source: ScheduleFromDashboard, Schedule: sc, ChangedBy: actor, ChangedAt: at}
	return v, s.describe(ctx, &v, s.now())
}

// DeleteSchedule removes a report schedule made in the dashboard.
func (s *Service) DeleteSchedule(ctx context.Context, id int64, actor string) error {
	if err := s.can(ctx, model.PermAdmin); err != nil {
		return err
	}
	ev := store.AuditEvent{Time: s.now().UTC().Format(time.RFC3339), Event: AuditScheduleDelete, Username: actor,
		Details: map[string]any{"id": id}}
	err := s.store.DeleteReportSchedule(ctx, id, ev)
	if errors.Is(err, store.ErrNotFound) {
		return apperr.E(apperr.NotFound, "no schedule %d made in the dashboard (the config file's are removed there)", id).WithDetail("field", "id")
	}
	return err
}

// DeliveryRun says what DeliverSchedules did.
type DeliveryRun struct {
	Delivered []string `json:"delivered"` // "schedule (channel)" sent now
	Failed    []string `json:"failed"`    // to be tried again, or given up
	Errors    []string `json:"errors"`    // the failures, in words
}

// DeliverSchedules delivers every schedule's newest occurrence that is
// due and not yet delivered (or is due for a retry), by email and to the
// webhook. Each schedule, occurrence and channel is claimed in the store
// before anything is sent, so it is delivered at most once however many
// processes share the data dir. Occurrences due before a schedule was
// first seen are not delivered. The dashboard and the desktop call it
// every minute; `costpilot schedule run` calls it once.
func (s *Service) DeliverSchedules(ctx context.Context) (DeliveryRun, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return DeliveryRun{}, err
	}
	run := DeliveryRun{Delivered: []string{}, Failed: []string{}, Errors: []string{}}
	views, err := s.schedules(ctx)
	if err != nil {
		return run, err
	}
	for _, v := range views {
		if err := ctx.Err(); err != nil {
			return run, err
		}
		if err := s.deliver(ctx, v.Schedule, &run); err != nil {
			return run, err
		}
	}
	return run, nil
}

// deliver delivers one schedule's due occurrence on the channels it can
// claim. Delivery failures are recorded and reported in run; the error is
// for the store failing.
func (s *Service) deliver(ctx context.Context, sc config.Schedule, run *DeliveryRun) error {
	now := s.now()
	due := schedule.Last(sc, now)
	if due.IsZero() {
		return nil
	}
	seen, err := s.store.ScheduleFirstSeen(ctx, sc.Name, now)
	if err != nil || due.Before(seen) {
		return err
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
		d, ok, err := s.store.ClaimDelivery(ctx, sc.Name, due, ch, store.ClaimOptions{Now: now, StaleAfter: scheduleClaimTTL, MaxAttempts: schedule.MaxAttempts})
		if err != nil {
			return err
		}
		if ok {
			claimed = append(claimed, d)
		}
	}
	if len(claimed) == 0 {
		return nil
	}
	// Whatever happens from here is recorded, even if ctx ends: a claim
	// left open would hold the delivery until it goes stale.
	rec := context.WithoutCancel(ctx)
	finish := func(d store.Delivery, sendErr error) error {
		label := sc.Name + " (" + d.Channel + ")"
		if sendErr == nil {
			run.Delivered = append(run.Delivered, label)
			return s.store.FinishDelivery(rec, d.ID, s.now(), "", time.Time{})
		}
		msg := sendErr.Error()
		next := schedule.RetryAt(d.Attempts, s.now())
		// The next occurrence takes over: no retry after it is due.
		if !next.IsZero() && !next.Before(schedule.Next(sc, due)) {
			next = time.Time{}
		}
		run.Failed = append(run.Failed, label)
		run.Errors = append(run.Errors, label+": "+msg)
		s.log.Warn("scheduled report not delivered", "schedule", sc.Name, "channel", d.Channel, "attempt", d.Attempts, "retry_at", stampTime(next), "err", msg)
		return s.store.FinishDelivery(rec, d.ID, s.now(), msg, next)
	}
	rep, head, err := s.scheduledReport(ctx, sc, due)
	if err != nil {
		for _, d := range claimed {
			if ferr := finish(d, fmt.Errorf("the report could not be made: %w", err)); ferr != nil {
				return ferr
			}
		}
		return nil
	}
	for _, d := range claimed {
		to := strings.Join(sc.Recipients, ", ")
		if d.Channel == store.ChannelWebhook {
			to = redactURL(s.cfg.Alerts.WebhookURL)
		}
		if err := s.store.StartSending(rec, d.ID, s.now(), to, rep.Attachment.Name, head.Period); err != nil {
			return err
		}
		var sendErr error
		if d.Channel == store.ChannelEmail {
			sendErr = s.mail(ctx, sc, due, rep, head)
		} else {
			sendErr = (&monitor.Webhook{URL: strings.TrimSpace(s.cfg.Alerts.WebhookURL), AllowMetadata: s.cfg.Outbound.AllowMetadataAddresses}).Post(ctx, head.WebhookMessage())
		}
		if err := finish(d, sendErr); err != nil {
			return err
		}
	}
	return nil
}

// scheduledReport makes a schedule's report, covering its period as it
// stands now, and the headline numbers of that period.
func (s *Service) scheduledReport(ctx context.Context, sc config.Schedule, due time.Time) (schedule.Mail, schedule.Headline, error) {
	res, err := s.GenerateReport(ctx, model.ReportRequest{Type: sc.Type, Format: sc.Format, Period: sc.Period})
	if err != nil {
		return schedule.Mail{}, schedule.Headline{}, err
	}
	data, err := readReport(res.Path)
	if err != nil {
		return schedule.Mail{}, schedule.Headline{}, err
	}
	a, err := s.Costs(ctx, CostRequest{Period: string(sc.Period)})
	if err != nil {
		return schedule.Mail{}, schedule.Headline{}, err
	}
	name := filepath.Base(res.Path)
	h := schedule.Headline{Schedule: sc.Name, Total: a.Summary.TotalCost, Currency: a.Summary.Currency, Report: name,
		Start: a.Summary.AnalysisPeriod.StartDate, End: a.Summary.AnalysisPeriod.EndDate, Period: string(sc.Period)}
	if p := a.Summary.Period; p != nil {
		h.Period, h.Start, h.End = p.Label, p.Start, p.End
	}
	if prev := a.Summary.Previous; prev != nil {
		v := prev.TotalCost
		h.Previous = &v
	}
	if base := strings.TrimSpace(s.cfg.Dashboard.PublicURL); base != "" {
		if link, err := url.JoinPath(base, "api", "reports", name); err == nil {
			h.Link = link
		}
	}
	ct := map[model.ReportFormat]string{model.FormatPDF: "application/pdf", model.FormatHTML: "text/html; charset=utf-8",
		model.FormatJSON: "application/json"}[sc.Format]
	return schedule.Mail{Attachment: schedule.Attachment{Name: name, ContentType: ct, Data: data}}, h, nil
}

// readReport reads a report to attach, refusing one too large to mail.
func readReport(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, apperr.Wrap(apperr.Report, err, "cannot read the report %s", filepath.Base(path))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxAttachment+1))
	if err != nil {
		return nil, apperr.Wrap(apperr.Report, err, "cannot read the report %s", filepath.Base(path))
	}
	if len(b) > maxAttachment {
		return nil, apperr.E(apperr.Report, "the report %s is larger than %d MB, too large to mail", filepath.Base(path), maxAttachment>>20)
	}
	return b, nil
}

// mail sends a schedule's report to its recipients through reports.smtp.
func (s *Service) mail(ctx context.Context, sc config.Schedule, due time.Time, m schedule.Mail, h schedule.Headline) error {
	c := s.cfg.Reports.SMTP
	if !s.cfg.MailConfigured() {
		return apperr.E(apperr.Configuration, "no mail server: set reports.smtp.host and reports.smtp.from")
	}
	mailer := &schedule.Mailer{Host: c.Host, Port: c.Port, Security: c.Security, Username: c.Username}
	if c.Username != "" {
		pw, err := s.smtpPassword()
		if err != nil {
			return err
		}
		mailer.Password = pw
	}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return apperr.Wrap(apperr.Configuration, err, "reports.smtp.ca_file %s cannot be read: %s", c.CAFile, errorText(err))
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
	m.From, m.To, m.Subject, m.Body, m.Date = c.From, sc.Recipients, h.Subject(), h.MailBody(), s.now()
	// The same Message-ID for every try of one occurrence lets a receiver
	// that drops duplicate ids keep one copy.
	sum := sha256.Sum256([]byte(sc.Name + "\x00" + stampTime(due)))
	m.MessageID = "costpilot." + hex.EncodeToString(sum[:12]) + "@" + c.From[strings.LastIndexByte(c.From, '@')+1:]
	return mailer.Send(ctx, m)
}

// smtpPassword reads the SMTP password from COSTPILOT_SMTP_PASSWORD or the
// file COSTPILOT_SMTP_PASSWORD_FILE names, else from the credential store
// (the desktop's OS keyring), at each send, so a changed secret needs no
// restart. It is never logged, stored or returned.
func (s *Service) smtpPassword() (string, error) {
	if v := os.Getenv(config.SMTPPasswordEnv); v != "" {
		return v, nil
	}
	if f := os.Getenv(config.SMTPPasswordEnv + "_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", apperr.Wrap(apperr.Configuration, err, "%s_FILE names %s, which cannot be read: %s", config.SMTPPasswordEnv, f, errorText(err))
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	v, err := s.creds.Get(model.ProviderKey(model.SMTP), model.SMTPPassword)
	if err != nil {
		return "", err
	}
	if v != "" {
		return v, nil
	}
	return "", apperr.E(apperr.Configuration, "reports.smtp.username is set but no password is: set %s or %s_FILE, or store it in the desktop app's credentials", config.SMTPPasswordEnv, config.SMTPPasswordEnv)
}

// errorText is an OS error's reason without the path it repeats.
func errorText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// stampTime is a time in RFC 3339 UTC, "" for the zero time.
func stampTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
