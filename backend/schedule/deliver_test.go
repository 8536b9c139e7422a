package schedule

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/store"
)

// memStore is the delivery claims in memory: one claim per schedule,
// occurrence and channel, refused while delivered or in flight.
type memStore struct {
	firstSeen time.Time
	claimErr  error
	refuse    bool // every claim is held elsewhere
	claims    []store.ClaimOptions
	started   map[int64]string // id → recipients recorded
	finished  map[int64]finishCall
	next      int64
}

type finishCall struct {
	err  string
	next time.Time
}

func newMemStore(firstSeen time.Time) *memStore {
	return &memStore{firstSeen: firstSeen, started: map[int64]string{}, finished: map[int64]finishCall{}}
}

func (m *memStore) ScheduleFirstSeen(context.Context, string, time.Time) (time.Time, error) {
	return m.firstSeen, nil
}

func (m *memStore) ClaimDelivery(_ context.Context, sched string, due time.Time, ch string, o store.ClaimOptions) (store.Delivery, bool, error) {
	m.claims = append(m.claims, o)
	if m.claimErr != nil || m.refuse {
		return store.Delivery{}, false, m.claimErr
	}
	m.next++
	return store.Delivery{ID: m.next, Schedule: sched, DueAt: Stamp(due), Channel: ch, Attempts: 1}, true, nil
}

func (m *memStore) StartSending(_ context.Context, id int64, _ time.Time, to, _, _ string) error {
	m.started[id] = to
	return nil
}

func (m *memStore) FinishDelivery(_ context.Context, id int64, _ time.Time, sendErr string, next time.Time) error {
	m.finished[id] = finishCall{err: sendErr, next: next}
	return nil
}

// hook records the messages posted to a webhook.
type hook struct {
	mu   sync.Mutex
	msgs []string
}

func (h *hook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.msgs = append(h.msgs, string(b))
	h.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

type delivererSetup struct {
	d      *Deliverer
	st     *memStore
	mailed *int
	hook   *hook
}

func newDeliverer(t *testing.T, now time.Time, mailErr, reportErr error) delivererSetup {
	t.Helper()
	h := &hook{}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	st := newMemStore(now.AddDate(0, -3, 0))
	mailed := 0
	d := &Deliverer{Store: st, Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Report: func(context.Context, config.Schedule, time.Time) (Mail, Headline, error) {
			return Mail{Attachment: Attachment{Name: "r.pdf"}}, Headline{Schedule: "monthly", Period: "May 2026", Report: "r.pdf"}, reportErr
		},
		Email: func(context.Context, config.Schedule, time.Time, Mail, Headline) error {
			mailed++
			return mailErr
		},
		Webhook:       &monitor.Webhook{URL: srv.URL, Attempts: 1},
		WebhookTarget: "http://hook.example"}
	return delivererSetup{d: d, st: st, mailed: &mailed, hook: h}
}

func TestDeliverSendsEachChannelOnce(t *testing.T) {
	now := time.Date(2026, 6, 1, 9, 30, 0, 0, time.UTC)
	sc := config.Schedule{Name: "monthly", Frequency: config.Monthly, Day: 1, Hour: 8, Recipients: []string{"a@example.com", "b@example.com"}, Webhook: true}
	s := newDeliverer(t, now, nil, nil)
	res, err := s.d.Deliver(context.Background(), sc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Delivered, ",") != "monthly (email),monthly (webhook)" || len(res.Failed) != 0 {
		t.Fatalf("result = %+v, want both channels delivered", res)
	}
	if *s.mailed != 1 || len(s.hook.msgs) != 1 || !strings.Contains(s.hook.msgs[0], "May 2026") {
		t.Errorf("mailed %d, webhook got %q: want one of each with the headline", *s.mailed, s.hook.msgs)
	}
	if s.st.started[1] != "a@example.com, b@example.com" || s.st.started[2] != "http://hook.example" {
		t.Errorf("recorded recipients = %v, want the addresses and the webhook's redacted target", s.st.started)
	}
	for id, f := range s.st.finished {
		if f.err != "" || !f.next.IsZero() {
			t.Errorf("delivery %d finished with %+v, want success", id, f)
		}
	}
	for _, o := range s.st.claims {
		if o.StaleAfter != ClaimTTL || o.MaxAttempts != MaxAttempts || !o.Now.Equal(now) {
			t.Errorf("claim options = %+v", o)
		}
	}
}

func TestDeliverFailures(t *testing.T) {
	daily := config.Schedule{Name: "daily", Frequency: config.Daily, Hour: 8, Recipients: []string{"a@example.com"}}
	mailErr := errors.New("550 mailbox unavailable")
	tests := []struct {
		name      string
		now       time.Time
		reportErr error
		wantNext  bool
		wantMail  int
		wantStart bool
	}{
		{name: "retried later", now: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC), wantNext: true, wantMail: 1, wantStart: true},
		// The retry would come after the next occurrence is due: it takes over.
		{name: "next occurrence takes over", now: time.Date(2026, 6, 2, 7, 58, 0, 0, time.UTC), wantMail: 1, wantStart: true},
		{name: "report not made", now: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC), reportErr: errors.New("no data"), wantNext: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newDeliverer(t, tt.now, mailErr, tt.reportErr)
			res, err := s.d.Deliver(context.Background(), daily)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Failed) != 1 || res.Failed[0] != "daily (email)" || len(res.Errors) != 1 || len(res.Delivered) != 0 {
				t.Fatalf("result = %+v, want one failed email", res)
			}
			if *s.mailed != tt.wantMail {
				t.Errorf("mailed %d times, want %d", *s.mailed, tt.wantMail)
			}
			if _, ok := s.st.started[1]; ok != tt.wantStart {
				t.Errorf("started sending = %v, want %v", ok, tt.wantStart)
			}
			f := s.st.finished[1]
			if f.err == "" {
				t.Errorf("the failure was not recorded: %+v", f)
			}
			if want := RetryAt(1, tt.now); tt.wantNext && !f.next.Equal(want) {
				t.Errorf("next try = %v, want %v", f.next, want)
			}
			if !tt.wantNext && !f.next.IsZero() {
				t.Errorf("next try = %v, want none", f.next)
			}
		})
	}
}

func TestDeliverSkips(t *testing.T) {
	now := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	sc := config.Schedule{Name: "daily", Frequency: config.Daily, Hour: 8, Recipients: []string{"a@example.com"}}
	claimErr := errors.New("database is locked")
	tests := []struct {
		name    string
		sc      config.Schedule
		setup   func(*memStore)
		claims  int
		wantErr error
	}{
		{name: "due before first seen", sc: sc, setup: func(m *memStore) { m.firstSeen = now.Add(-time.Minute) }},
		{name: "invalid frequency", sc: config.Schedule{Name: "x", Frequency: "hourly"}, setup: func(*memStore) {}},
		{name: "claimed elsewhere", sc: sc, setup: func(m *memStore) { m.refuse = true }, claims: 1},
		{name: "no channel", sc: config.Schedule{Name: "quiet", Frequency: config.Daily, Hour: 8}, setup: func(*memStore) {}},
		{name: "store fails", sc: sc, setup: func(m *memStore) { m.claimErr = claimErr }, claims: 1, wantErr: claimErr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newDeliverer(t, now, nil, nil)
			tt.setup(s.st)
			res, err := s.d.Deliver(context.Background(), tt.sc)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if len(s.st.claims) != tt.claims || *s.mailed != 0 || len(res.Delivered)+len(res.Failed) != 0 {
				t.Errorf("claims %d mailed %d result %+v: want %d claims and nothing sent", len(s.st.claims), *s.mailed, res, tt.claims)
			}
		})
	}
}

func TestStandingOf(t *testing.T) {
	failed := store.Delivery{DueAt: "2026-06-01T08:00:00Z", Channel: store.ChannelEmail, State: store.DeliveryFailed, Attempts: 2,
		FinishedAt: "2026-06-01T08:10:00Z", NextAttemptAt: "2026-06-01T08:20:00Z", Recipients: "a@example.com", Period: "May 2026", Error: "550"}
	okOld := store.Delivery{DueAt: "2026-05-01T08:00:00Z", Channel: store.ChannelEmail, State: store.DeliveryDelivered, FinishedAt: "2026-05-01T08:01:00Z"}
	okNew := store.Delivery{DueAt: "2026-06-01T08:00:00Z", Channel: store.ChannelWebhook, State: store.DeliveryDelivered, FinishedAt: "2026-06-01T08:02:00Z"}
	oldFail := store.Delivery{DueAt: "2026-05-01T08:00:00Z", Channel: store.ChannelWebhook, State: store.DeliveryFailed, Error: "timeout"}
	tests := []struct {
		name      string
		ds        []store.Delivery
		delivered string // FinishedAt of LastDelivered
		wantErr   bool
		wantRetry string
	}{
		{name: "none", ds: nil},
		{name: "newest failed", ds: []store.Delivery{failed, okNew, okOld}, delivered: okNew.FinishedAt, wantErr: true, wantRetry: failed.NextAttemptAt},
		{name: "an older occurrence's failure is not news", ds: []store.Delivery{okNew, oldFail, okOld}, delivered: okNew.FinishedAt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := StandingOf(tt.ds)
			got := ""
			if st.LastDelivered != nil {
				got = st.LastDelivered.FinishedAt
			}
			if got != tt.delivered || (st.LastError != "") != tt.wantErr || st.NextRetry != tt.wantRetry {
				t.Errorf("StandingOf = delivered %q error %q retry %q", got, st.LastError, st.NextRetry)
			}
		})
	}
}

func TestFailureSentence(t *testing.T) {
	tests := []struct {
		name string
		d    store.Delivery
		want string
	}{
		{"retried", store.Delivery{Channel: store.ChannelEmail, State: store.DeliveryFailed, Attempts: 2, FinishedAt: "T1",
			NextAttemptAt: "T2", Recipients: "a@example.com", Period: "May 2026", Error: "550"},
			"The email to a@example.com of May 2026 failed (attempt 2 of 5) at T1: 550. It will be tried again at T2."},
		{"given up", store.Delivery{Channel: store.ChannelWebhook, State: store.DeliveryFailed, Attempts: 5, FinishedAt: "T1", Error: "410"},
			"The webhook message failed (attempt 5 of 5) at T1: 410. It is not tried again: fix the cause, and the next occurrence is delivered as usual."},
		{"unknown", store.Delivery{Channel: store.ChannelEmail, State: store.DeliveryUnknown, Error: "stopped while sending"},
			"The email may not have arrived: stopped while sending."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FailureSentence(tt.d); got != tt.want {
				t.Errorf("FailureSentence =\n%q, want\n%q", got, tt.want)
			}
		})
	}
}

func TestHeadlineOf(t *testing.T) {
	sc := config.Schedule{Name: "monthly", Period: model.PeriodLastMonth}
	sum := model.CostSummary{TotalCost: 120, Currency: "USD", Previous: &model.Comparison{TotalCost: 100},
		Period: &model.PeriodInfo{Label: "May 2026", Start: "2026-05-01", End: "2026-05-31"}}
	h := HeadlineOf(sc, sum, "costs.pdf", " https://costs.example.com/ ")
	if h.Period != "May 2026" || h.Start != "2026-05-01" || h.End != "2026-05-31" || h.Previous == nil || *h.Previous != 100 {
		t.Errorf("HeadlineOf = %+v", h)
	}
	if h.Link != "https://costs.example.com/api/reports/costs.pdf" {
		t.Errorf("Link = %q", h.Link)
	}
	if h := HeadlineOf(sc, model.CostSummary{}, "costs.pdf", ""); h.Link != "" || h.Previous != nil || h.Period != string(sc.Period) {
		t.Errorf("without a public address or a previous period: %+v", h)
	}
}

func TestReadReportRefusesOneTooLargeToMail(t *testing.T) {
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small.pdf"), filepath.Join(dir, "large.pdf")
	if err := os.WriteFile(small, []byte("%PDF"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(large)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxAttachment + 1); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	if b, err := ReadReport(small); err != nil || string(b) != "%PDF" {
		t.Errorf("ReadReport(small) = %q, %v", b, err)
	}
	if _, err := ReadReport(large); apperr.KindOf(err) != apperr.Report {
		t.Errorf("ReadReport(large) = %v, want a Report error", err)
	}
	if _, err := ReadReport(filepath.Join(dir, "missing.pdf")); apperr.KindOf(err) != apperr.Report {
		t.Errorf("ReadReport(missing) = %v, want a Report error", err)
	}
}

func TestMessageIDIsTheSameForEveryTry(t *testing.T) {
	due := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
	a, b := MessageID("monthly", due, "costs@example.com"), MessageID("monthly", due, "costs@example.com")
	if a != b || !strings.HasSuffix(a, "@example.com") {
		t.Errorf("MessageID = %q and %q, want equal ids at the sender's domain", a, b)
	}
	if MessageID("monthly", due.AddDate(0, 1, 0), "costs@example.com") == a || MessageID("weekly", due, "costs@example.com") == a {
		t.Error("another occurrence or schedule has the same Message-ID")
	}
}

type credsFunc func() (string, error)

func (f credsFunc) Get(model.ProviderKey, string) (string, error) { return f() }

func TestSMTPPassword(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(file, []byte("from-file\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keyring := credsFunc(func() (string, error) { return "from-keyring", nil })
	empty := credsFunc(func() (string, error) { return "", nil })
	tests := []struct {
		name     string
		env      string
		envFile  string
		creds    Credentials
		want     string
		wantKind apperr.Kind
	}{
		{name: "env first", env: "from-env", envFile: file, creds: keyring, want: "from-env"},
		{name: "file without its line end", envFile: file, creds: keyring, want: "from-file"},
		{name: "keyring", creds: keyring, want: "from-keyring"},
		{name: "unreadable file", envFile: file + ".missing", creds: keyring, wantKind: apperr.Configuration},
		{name: "none", creds: empty, wantKind: apperr.Configuration},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(config.SMTPPasswordEnv, tt.env)
			t.Setenv(config.SMTPPasswordEnv+"_FILE", tt.envFile)
			got, err := SMTPPassword(tt.creds)
			if tt.wantKind != "" {
				if apperr.KindOf(err) != tt.wantKind {
					t.Fatalf("err = %v, want kind %s", err, tt.wantKind)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("SMTPPassword = %q, %v, want %q", got, err, tt.want)
			}
		})
	}
}

func TestSendWithoutAMailServer(t *testing.T) {
	s := Sender{Now: time.Now, Password: func() (string, error) { return "", nil }}
	if err := s.Send(context.Background(), config.Schedule{}, time.Time{}, Mail{}, Headline{}); apperr.KindOf(err) != apperr.Configuration {
		t.Errorf("Send = %v, want a Configuration error", err)
	}
}
