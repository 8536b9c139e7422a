package service

import (
	"context"
	"errors"
	"fmt"
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

const (
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
	v.NextDue = schedule.Stamp(schedule.Next(v.Schedule, now))
	ds, err := s.store.Deliveries(ctx, v.Schedule.Name, deliveriesShown)
	if err != nil {
		return err
	}
	v.Deliveries = []DeliveryView{}
	for _, d := range ds {
		v.Deliveries = append(v.Deliveries, deliveryView(d))
	}
	st := schedule.StandingOf(ds)
	if st.LastDelivered != nil {
		dv := deliveryView(*st.LastDelivered)
		v.LastDelivered = &dv
	}
	v.LastError, v.NextRetry = st.LastError, st.NextRetry
	return nil
}

func deliveryView(d store.Delivery) DeliveryView {
	return DeliveryView{DueAt: d.DueAt, Channel: d.Channel, State: d.State, Attempts: d.Attempts, FinishedAt: d.FinishedAt,
		NextRetry: d.NextAttemptAt, To: d.Recipients, Report: d.Report, Period: d.Period, Error: d.Error}
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
	d := s.deliverer()
	for _, v := range views {
		if err := ctx.Err(); err != nil {
			return run, err
		}
		res, err := d.Deliver(ctx, v.Schedule)
		run.Delivered = append(run.Delivered, res.Delivered...)
		run.Failed = append(run.Failed, res.Failed...)
		run.Errors = append(run.Errors, res.Errors...)
		if err != nil {
			return run, err
		}
	}
	return run, nil
}

// deliverer is schedule delivery wired to this Service's store, clock,
// reports, mail server and webhook.
func (s *Service) deliverer() *schedule.Deliverer {
	url := strings.TrimSpace(s.cfg.Alerts.WebhookURL)
	return &schedule.Deliverer{Store: s.store, Now: s.now, Log: s.log, Report: s.scheduledReport,
		Email: schedule.Sender{SMTP: s.cfg.Reports.SMTP, Now: s.now,
			Password: func() (string, error) { return schedule.SMTPPassword(s.creds) }}.Send,
		Webhook:       &monitor.Webhook{URL: url, AllowMetadata: s.cfg.Outbound.AllowMetadataAddresses},
		WebhookTarget: monitor.RedactURL(s.cfg.Alerts.WebhookURL)}
}

// scheduledReport makes a schedule's report, covering its period as it
// stands now, and the headline numbers of that period.
func (s *Service) scheduledReport(ctx context.Context, sc config.Schedule, due time.Time) (schedule.Mail, schedule.Headline, error) {
	res, err := s.GenerateReport(ctx, model.ReportRequest{Type: sc.Type, Format: sc.Format, Period: sc.Period})
	if err != nil {
		return schedule.Mail{}, schedule.Headline{}, err
	}
	data, err := schedule.ReadReport(res.Path)
	if err != nil {
		return schedule.Mail{}, schedule.Headline{}, err
	}
	a, err := s.Costs(ctx, CostRequest{Period: string(sc.Period)})
	if err != nil {
		return schedule.Mail{}, schedule.Headline{}, err
	}
	name := filepath.Base(res.Path)
	h := schedule.HeadlineOf(sc, a.Summary, name, s.cfg.Dashboard.PublicURL)
	return schedule.Mail{Attachment: schedule.Attachment{Name: name, ContentType: schedule.ContentType(sc.Format), Data: data}}, h, nil
}
