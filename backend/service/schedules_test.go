package service

import (
	"bytes"
	"encoding/json"
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/internal/mailpit"
)

const smtpTestPassword = "mail-pw-7f3a"

// hookRecorder is a Slack-compatible webhook that keeps what it was sent.
type hookRecorder struct {
	mu     sync.Mutex
	bodies []map[string]any
	status atomic.Int32 // the answer; 0 is 200
}

func (h *hookRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err == nil {
		h.mu.Lock()
		h.bodies = append(h.bodies, body)
		h.mu.Unlock()
	}
	if c := h.status.Load(); c != 0 {
		w.WriteHeader(int(c))
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (h *hookRecorder) texts() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, b := range h.bodies {
		s, _ := b["text"].(string)
		out = append(out, s)
	}
	return out
}

// mailService is a demo service (OCI only) with reports.smtp pointing at
// a Mailpit that requires STARTTLS and a login, a webhook, and a clock
// the test moves.
func mailService(t *testing.T, schedules ...config.Schedule) (*Service, *atomic.Int64, *mailpit.Server, *hookRecorder) {
	t.Helper()
	mp := mailpit.Start(t, mailpit.Options{Username: "costpilot", Password: smtpTestPassword})
	hook := &hookRecorder{}
	hs := httptest.NewServer(hook)
	t.Cleanup(hs.Close)
	t.Setenv(config.SMTPPasswordEnv, smtpTestPassword)
	cfg := onlyProviders(t, model.OCI)
	cfg.Alerts.WebhookURL = hs.URL + "/services/T000/B000/secret-path"
	cfg.Dashboard.PublicURL = "https://costs.example.com/"
	cfg.Reports.SMTP = config.SMTPConfig{Host: mp.SMTPHost, Port: mp.SMTPPort, Security: config.SMTPStartTLS,
		From: "costpilot@example.com", Username: "costpilot", CAFile: mp.CAFile}
	cfg.Reports.Schedules = schedules
	if errs := cfg.Validate(); len(errs) > 0 {
		t.Fatal(errs)
	}
	s := openDemo(t, cfg)
	var now atomic.Int64
	now.Store(testNow.UnixNano())
	s.now = func() time.Time { return time.Unix(0, now.Load()).UTC() }
	return s, &now, mp, hook
}

// monthly is due on the 10th at 13:00 UTC: an hour after testNow.
var monthly = config.Schedule{Name: "monthly-summary", Frequency: config.Monthly, Day: 10, Hour: 13, Type: model.ReportSummary,
	Format: model.FormatPDF, Period: model.PeriodLastMonth, Recipients: []string{"finops@example.com"}, Webhook: true}

func setClock(now *atomic.Int64, t time.Time) { now.Store(t.UnixNano()) }

func deliverNow(t *testing.T, s *Service) DeliveryRun {
	t.Helper()
	run, err := s.DeliverSchedules(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func scheduleView(t *testing.T, s *Service, name string) ScheduleView {
	t.Helper()
	vs, err := s.Schedules(adminCtx())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Schedule.Name == name {
			return v
		}
	}
	t.Fatalf("no schedule %q in %+v", name, vs)
	return ScheduleView{}
}

// TestScheduledMonthlyReportDeliveredOnce is the acceptance test: a
// monthly PDF report reaches a real SMTP server (Mailpit, STARTTLS and a
// login) with the PDF attached, and the webhook gets the headline
// numbers, exactly once however often the schedule is looked at.
func TestScheduledMonthlyReportDeliveredOnce(t *testing.T) {
	s, now, mp, hook := mailService(t, monthly)

	// Before the due time: the schedule is first seen, nothing is sent
	// (May 10's occurrence was before it existed).
	if run := deliverNow(t, s); len(run.Delivered)+len(run.Failed) != 0 {
		t.Fatalf("delivered before due: %+v", run)
	}
	if v := scheduleView(t, s, monthly.Name); v.NextDue != "2026-06-10T13:00:00Z" || v.Source != ScheduleFromConfig {
		t.Fatalf("view before due %+v", v)
	}

	setClock(now, testNow.Add(61*time.Minute))
	run := deliverNow(t, s)
	if len(run.Delivered) != 2 || len(run.Failed) != 0 {
		t.Fatalf("run %+v", run)
	}
	msgs := mp.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages arrived, want 1", len(msgs))
	}
	m := mp.Message(msgs[0].ID)
	if len(m.To) != 1 || m.To[0].Address != "finops@example.com" || !strings.Contains(m.Subject, "May 2026") {
		t.Fatalf("message %+v", m.Summary)
	}
	if !strings.Contains(m.Text, "Total ") || !strings.Contains(m.Text, "https://costs.example.com/api/reports/") {
		t.Fatalf("mail text %q", m.Text)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].ContentType != "application/pdf" {
		t.Fatalf("attachments %+v", m.Attachments)
	}
	pdf := mp.Attachment(m.ID, m.Attachments[0].PartID)
	onDisk, err := os.ReadFile(filepath.Join(s.OutputDir(), m.Attachments[0].FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF")) || !bytes.Equal(pdf, onDisk) {
		t.Fatalf("the attachment (%d bytes) is not the report written (%d bytes)", len(pdf), len(onDisk))
	}
	if !strings.HasPrefix(m.Attachments[0].FileName, "costpilot-summary-") {
		t.Fatalf("attachment name %q", m.Attachments[0].FileName)
	}

	texts := hook.texts()
	if len(texts) != 1 {
		t.Fatalf("%d webhook messages, want 1", len(texts))
	}
	a, err := s.Costs(adminCtx(), CostRequest{Period: string(model.PeriodLastMonth)})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"May 2026", "2026-05-01 to 2026-05-31", "Total " + moneyfmt.Format(a.Summary.TotalCost, a.Summary.Currency), "on the previous period",
		"<https://costs.example.com/api/reports/" + m.Attachments[0].FileName + "|"} {
		if !strings.Contains(texts[0], want) {
			t.Errorf("webhook text %q lacks %q", texts[0], want)
		}
	}

	// Later ticks of the same period send nothing more.
	for _, later := range []time.Duration{62 * time.Minute, 5 * time.Hour, 20 * 24 * time.Hour} {
		setClock(now, testNow.Add(later))
		if run := deliverNow(t, s); len(run.Delivered)+len(run.Failed) != 0 {
			t.Fatalf("at +%s: %+v", later, run)
		}
	}
	if n := len(mp.Messages()); n != 1 {
		t.Fatalf("%d messages after more ticks, want 1", n)
	}
	if n := len(hook.texts()); n != 1 {
		t.Fatalf("%d webhook messages after more ticks, want 1", n)
	}
	v := scheduleView(t, s, monthly.Name)
	if v.LastDelivered == nil || v.LastDelivered.DueAt != "2026-06-10T13:00:00Z" || v.LastError != "" || v.NextDue != "2026-07-10T13:00:00Z" {
		t.Fatalf("view after delivery %+v", v)
	}
	var to []string
	for _, d := range v.Deliveries {
		to = append(to, d.Channel+":"+d.To)
		if strings.Contains(d.To, "secret-path") {
			t.Fatalf("the webhook's secret path is shown: %q", d.To)
		}
	}
	if strings.Join(to, " ") != "email:finops@example.com webhook:"+monitor.RedactURL(s.cfg.Alerts.WebhookURL) &&
		strings.Join(to, " ") != "webhook:"+monitor.RedactURL(s.cfg.Alerts.WebhookURL)+" email:finops@example.com" {
		t.Fatalf("delivered to %v", to)
	}
}

// TestScheduledReportRetriedAfterFailures: the mail server is down, then
// refuses the login; each failure is recorded and shown in words with the
// next try, retried on the backoff, and the report arrives once when the
// server works again. The webhook, which worked, is not sent again.
func TestScheduledReportRetriedAfterFailures(t *testing.T) {
	s, now, mp, hook := mailService(t, monthly)
	deliverNow(t, s) // first seen
	mp.Stop()

	due := testNow.Add(time.Hour)
	setClock(now, due.Add(time.Minute))
	run := deliverNow(t, s)
	if len(run.Failed) != 1 || run.Failed[0] != "monthly-summary (email)" || len(run.Delivered) != 1 {
		t.Fatalf("run with the server down %+v", run)
	}
	v := scheduleView(t, s, monthly.Name)
	if v.NextRetry != "2026-06-10T13:06:00Z" {
		t.Fatalf("next retry %q, want 5 minutes after the failure", v.NextRetry)
	}
	for _, want := range []string{"The email to finops@example.com of May 2026 failed (attempt 1 of 5)", "connect to the mail server", "tried again at 2026-06-10T13:06:00Z"} {
		if !strings.Contains(v.LastError, want) {
			t.Errorf("last error %q lacks %q", v.LastError, want)
		}
	}

	// Not yet due for a retry.
	setClock(now, due.Add(3*time.Minute))
	if run := deliverNow(t, s); len(run.Delivered)+len(run.Failed) != 0 {
		t.Fatalf("retried early: %+v", run)
	}

	// The server is back but refuses the password.
	mp.Restart()
	t.Setenv(config.SMTPPasswordEnv, "not-the-password")
	setClock(now, due.Add(6*time.Minute))
	if run := deliverNow(t, s); len(run.Failed) != 1 || !strings.Contains(run.Errors[0], "authentication as costpilot") {
		t.Fatalf("run with a wrong password %+v", run)
	}
	v = scheduleView(t, s, monthly.Name)
	if !strings.Contains(v.LastError, "attempt 2 of 5") || v.NextRetry != "2026-06-10T13:16:00Z" || strings.Contains(v.LastError, "not-the-password") {
		t.Fatalf("after the second failure: %q, next %q", v.LastError, v.NextRetry)
	}

	t.Setenv(config.SMTPPasswordEnv, smtpTestPassword)
	setClock(now, due.Add(16*time.Minute))
	if run := deliverNow(t, s); len(run.Delivered) != 1 || len(run.Failed) != 0 {
		t.Fatalf("run when the server works %+v", run)
	}
	msgs := mp.Messages()
	if len(msgs) != 1 || msgs[0].Attachments != 1 {
		t.Fatalf("messages %+v, want one with the report", msgs)
	}
	if n := len(hook.texts()); n != 1 {
		t.Fatalf("%d webhook messages, want 1", n)
	}
	v = scheduleView(t, s, monthly.Name)
	if v.LastError != "" || v.NextRetry != "" || v.LastDelivered == nil || v.LastDelivered.Attempts != 3 {
		t.Fatalf("after delivery %+v", v)
	}
	setClock(now, due.Add(time.Hour))
	if run := deliverNow(t, s); len(run.Delivered)+len(run.Failed) != 0 || len(mp.Messages()) != 1 {
		t.Fatalf("sent again: %+v", run)
	}
}

// TestScheduledReportGivesUp: after the last attempt nothing more is
// tried, and the Status sentence says so.
func TestScheduledReportGivesUp(t *testing.T) {
	hookOnly := monthly
	hookOnly.Name, hookOnly.Recipients = "hook-only", nil
	s, now, _, hook := mailService(t, hookOnly)
	hook.status.Store(http.StatusGone) // a revoked hook: permanent, no retries within a send
	deliverNow(t, s)
	at := testNow.Add(61 * time.Minute)
	for i := range 8 {
		setClock(now, at)
		deliverNow(t, s)
		at = at.Add(3 * time.Hour)
		_ = i
	}
	if n := len(hook.texts()); n != 5 {
		t.Fatalf("%d tries, want 5", n)
	}
	v := scheduleView(t, s, hookOnly.Name)
	if !strings.Contains(v.LastError, "attempt 5 of 5") || !strings.Contains(v.LastError, "not tried again") || v.NextRetry != "" {
		t.Fatalf("after giving up: %q (next %q)", v.LastError, v.NextRetry)
	}
}

// TestScheduledReportOnceAcrossProcesses: two services on one data dir
// tick at the same moment; the mail server gets one message.
func TestScheduledReportOnceAcrossProcesses(t *testing.T) {
	a, now, mp, _ := mailService(t, monthly)
	b := openIn(t, a.cfg, a.DataDirPath())
	b.now = a.now
	deliverNow(t, a)
	setClock(now, testNow.Add(61*time.Minute))
	var wg sync.WaitGroup
	runs := make([]DeliveryRun, 2)
	for i, s := range []*Service{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := s.DeliverSchedules(adminCtx())
			if err != nil {
				t.Error(err)
			}
			runs[i] = r
		}()
	}
	wg.Wait()
	if n := len(runs[0].Delivered) + len(runs[1].Delivered); n != 2 {
		t.Fatalf("deliveries %+v", runs)
	}
	if n := len(mp.Messages()); n != 1 {
		t.Fatalf("%d messages, want 1", n)
	}
}

func TestSaveScheduleValidation(t *testing.T) {
	s, _, _, _ := mailService(t, monthly)
	ctx := adminCtx()
	ok := config.Schedule{Name: "weekly", Frequency: config.Weekly, Weekday: "friday", Hour: 7, Recipients: []string{"a@example.com"}}
	tests := []struct {
		name  string
		edit  func(config.Schedule) config.Schedule
		kind  apperr.Kind
		field string
	}{
		{"bad frequency", func(c config.Schedule) config.Schedule { c.Frequency = "hourly"; return c }, apperr.Validation, "frequency"},
		{"bad weekday", func(c config.Schedule) config.Schedule { c.Weekday = "someday"; return c }, apperr.Validation, "weekday"},
		{"bad hour", func(c config.Schedule) config.Schedule { c.Hour = 25; return c }, apperr.Validation, "hour"},
		{"bad type", func(c config.Schedule) config.Schedule { c.Type = "full"; return c }, apperr.Validation, "type"},
		{"bad format", func(c config.Schedule) config.Schedule { c.Format = "xls"; return c }, apperr.Validation, "format"},
		{"bad period", func(c config.Schedule) config.Schedule { c.Period = "custom"; return c }, apperr.Validation, "period"},
		{"bad recipient", func(c config.Schedule) config.Schedule { c.Recipients = []string{"a@example.com", "nobody"}; return c }, apperr.Validation, "recipients[1]"},
		{"the config file's name", func(c config.Schedule) config.Schedule { c.Name = monthly.Name; return c }, apperr.Validation, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.SaveSchedule(ctx, 0, tt.edit(ok), "ann")
			e, isApp := apperr.As(err)
			if !isApp || e.Kind != tt.kind || e.Details["field"] != tt.field {
				t.Fatalf("err %v (details %v), want %s on %s", err, e, tt.kind, tt.field)
			}
		})
	}
	v, err := s.SaveSchedule(ctx, 0, ok, "ann")
	if err != nil || v.ID == 0 || v.Source != ScheduleFromDashboard || v.Schedule.Format != model.FormatPDF || v.NextDue != "2026-06-12T07:00:00Z" {
		t.Fatalf("saved %+v %v", v, err)
	}
	if _, err := s.SaveSchedule(ctx, 0, ok, "ann"); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("same name twice: %v", err)
	}
	ok.Hour = 9
	if v, err = s.SaveSchedule(ctx, v.ID, ok, "bob"); err != nil || v.Schedule.Hour != 9 || v.ChangedBy != "bob" {
		t.Fatalf("changed %+v %v", v, err)
	}
	all, err := s.Schedules(ctx)
	if err != nil || len(all) != 2 {
		t.Fatalf("schedules %+v %v", all, err)
	}
	if err := s.DeleteSchedule(ctx, v.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSchedule(ctx, v.ID, "bob"); apperr.KindOf(err) != apperr.NotFound {
		t.Fatalf("second delete: %v", err)
	}
	ev, err := s.store.AuditEvents(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, e := range ev {
		events = append(events, e.Event)
	}
	if !strings.Contains(strings.Join(events, " "), AuditScheduleDelete) || !strings.Contains(strings.Join(events, " "), AuditScheduleSave) {
		t.Fatalf("audit log %v", events)
	}
}

// keyringCreds stands for the desktop's credential store.
type keyringCreds map[string]string

func (k keyringCreds) Get(p model.ProviderKey, field string) (string, error) {
	return k[string(p)+"."+field], nil
}

// TestScheduledReportPasswordFromKeyring: without COSTPILOT_SMTP_PASSWORD
// the mail server's password comes from the credential store (the
// desktop's keyring); with neither, the failure says where to put it.
func TestScheduledReportPasswordFromKeyring(t *testing.T) {
	s, now, mp, _ := mailService(t, monthly)
	t.Setenv(config.SMTPPasswordEnv, "")
	deliverNow(t, s) // first seen
	setClock(now, testNow.Add(61*time.Minute))
	run := deliverNow(t, s)
	if len(run.Failed) == 0 || len(mp.Messages()) != 0 {
		t.Fatalf("delivered without a password: %+v", run)
	}
	if v := scheduleView(t, s, monthly.Name); !strings.Contains(v.LastError, "credentials") || strings.Contains(v.LastError, smtpTestPassword) {
		t.Fatalf("last error %q", v.LastError)
	}
	s.creds = keyringCreds{"smtp.password": smtpTestPassword}
	v := scheduleView(t, s, monthly.Name)
	if v.NextRetry == "" {
		t.Fatalf("no retry after the failure: %+v", v)
	}
	retry, err := time.Parse(time.RFC3339, v.NextRetry)
	if err != nil {
		t.Fatal(err)
	}
	setClock(now, retry.Add(time.Second))
	run = deliverNow(t, s)
	if msgs := mp.Messages(); len(msgs) != 1 || len(run.Failed) != 0 {
		t.Fatalf("with the keyring's password: %d messages, run %+v", len(msgs), run)
	}
}
