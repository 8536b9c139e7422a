package service

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/costpilot/costpilot/backend/anomaly"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider/demo"
	"github.com/costpilot/costpilot/backend/store"
)

// auditedChange is one kind of state change and the audit event it must
// never go without.
type auditedChange struct {
	name  string
	event string
	// setup makes the state the change needs (a user to delete…).
	setup func(ctx context.Context, s *Service, dir string) error
	do    func(ctx context.Context, s *Service, dir string) error
	// probe is SQL whose answer the change moves.
	probe string
}

const patPassword = "a long enough password"

func addPat(ctx context.Context, s *Service, _ string) error {
	_, err := s.AddUser(ctx, NewUser{Username: "pat", Password: patPassword, Role: model.RoleViewer})
	return err
}

func tokenID(ctx context.Context, s *Service, name string) (int64, error) {
	ts, err := s.Tokens(ctx)
	if err != nil {
		return 0, err
	}
	for _, t := range ts {
		if t.Name == name {
			return t.ID, nil
		}
	}
	return 0, fmt.Errorf("no token %s", name)
}

func scheduleID(ctx context.Context, s *Service, name string) (int64, error) {
	vs, err := s.Schedules(ctx)
	if err != nil {
		return 0, err
	}
	for _, v := range vs {
		if v.Schedule.Name == name {
			return v.ID, nil
		}
	}
	return 0, fmt.Errorf("no schedule %s", name)
}

func budgetID(ctx context.Context, s *Service, name string) (int64, error) {
	bs, err := s.Budgets(ctx)
	if err != nil {
		return 0, err
	}
	for _, b := range bs {
		if b.Status.Budget.Name == name {
			return b.ID, nil
		}
	}
	return 0, fmt.Errorf("no budget %s", name)
}

var testSchedule = config.Schedule{Name: "weekly", Frequency: config.Weekly, Weekday: "friday", Hour: 7, Webhook: true}

var testBudget = config.Budget{Name: "aws monthly", Amount: 5000, Period: "monthly"}

const importCSV = "BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,EffectiveCost,ListCost,ProviderName,ServiceName\n" +
	"12.5,acct-1,USD,Usage,2026-06-01T00:00:00Z,12.5,12.5,AWS,Amazon EC2\n"

// auditedChanges lists every kind of change the audit log records.
var auditedChanges = []auditedChange{
	{name: "user add", event: AuditUserAdd, do: addPat, probe: `SELECT count(*) FROM users`},
	{name: "user password", event: AuditUserPassword, setup: addPat, probe: `SELECT password_hash FROM users WHERE username = 'pat'`,
		do: func(ctx context.Context, s *Service, _ string) error {
			return s.SetUserPassword(ctx, "pat", "another long password")
		}},
	{name: "user role", event: AuditUserRole, setup: addPat, probe: `SELECT role FROM users WHERE username = 'pat'`,
		do: func(ctx context.Context, s *Service, _ string) error {
			r := model.RoleEditor
			_, err := s.UpdateUser(ctx, "pat", UserChange{Role: &r})
			return err
		}},
	{name: "user disable", event: AuditUserDisable, setup: addPat, probe: `SELECT disabled_at FROM users WHERE username = 'pat'`,
		do: func(ctx context.Context, s *Service, _ string) error {
			yes := true
			_, err := s.UpdateUser(ctx, "pat", UserChange{Disabled: &yes})
			return err
		}},
	{name: "user enable", event: AuditUserEnable, probe: `SELECT disabled_at FROM users WHERE username = 'pat'`,
		setup: func(ctx context.Context, s *Service, dir string) error {
			if err := addPat(ctx, s, dir); err != nil {
				return err
			}
			yes := true
			_, err := s.UpdateUser(ctx, "pat", UserChange{Disabled: &yes})
			return err
		},
		do: func(ctx context.Context, s *Service, _ string) error {
			no := false
			_, err := s.UpdateUser(ctx, "pat", UserChange{Disabled: &no})
			return err
		}},
	{name: "user delete", event: AuditUserDelete, setup: addPat, probe: `SELECT count(*) FROM users`,
		do: func(ctx context.Context, s *Service, _ string) error { return s.DeleteUser(ctx, "pat") }},
	{name: "login", event: AuditLoginSuccess, setup: addPat, probe: `SELECT count(*) FROM sessions`,
		do: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.Login(ctx, LoginRequest{Username: "pat", Password: patPassword, ClientAddr: "127.0.0.1"})
			return err
		}},
	{name: "logout", event: AuditLogout, probe: `SELECT count(*) FROM sessions`,
		setup: func(ctx context.Context, s *Service, dir string) error {
			if err := addPat(ctx, s, dir); err != nil {
				return err
			}
			res, err := s.Login(ctx, LoginRequest{Username: "pat", Password: patPassword, ClientAddr: "127.0.0.1"})
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "cookie"), []byte(res.Session), 0o600)
		},
		do: func(ctx context.Context, s *Service, dir string) error {
			c, err := os.ReadFile(filepath.Join(dir, "cookie"))
			if err != nil {
				return err
			}
			_, err = s.Logout(ctx, string(c), "127.0.0.1")
			return err
		}},
	{name: "token create", event: AuditTokenCreate, probe: `SELECT count(*) FROM api_tokens`,
		do: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.CreateToken(ctx, TokenRequest{Name: "ci", Role: model.RoleAdmin})
			return err
		}},
	{name: "token revoke", event: AuditTokenRevoke, probe: `SELECT count(*) FROM api_tokens WHERE revoked_at <> ''`,
		setup: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.CreateToken(ctx, TokenRequest{Name: "ci"})
			return err
		},
		do: func(ctx context.Context, s *Service, _ string) error {
			id, err := tokenID(ctx, s, "ci")
			if err != nil {
				return err
			}
			return s.RevokeToken(ctx, id)
		}},
	{name: "rule set save", event: AuditRuleSetSave, probe: `SELECT count(*) FROM allocation_rules`,
		do: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.SaveRuleSet(ctx, "teams", model.AllocationRules{Method: "tag_based", Tags: []string{"team"}})
			return err
		}},
	{name: "view save", event: AuditViewSave, probe: `SELECT count(*) FROM saved_views`,
		do: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.SaveView(ctx, "aws month", model.ViewSpec{Days: 30, GroupBy: "service"}, "test", false)
			return err
		}},
	{name: "view delete", event: AuditViewDelete, probe: `SELECT count(*) FROM saved_views`,
		setup: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.SaveView(ctx, "aws month", model.ViewSpec{Days: 30, GroupBy: "service"}, "test", false)
			return err
		},
		do: func(ctx context.Context, s *Service, _ string) error { return s.DeleteView(ctx, "aws month") }},
	{name: "schedule save", event: AuditScheduleSave, probe: `SELECT count(*) FROM report_schedules`,
		do: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.SaveSchedule(ctx, 0, testSchedule, "test")
			return err
		}},
	{name: "schedule delete", event: AuditScheduleDelete, probe: `SELECT count(*) FROM report_schedules`,
		setup: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.SaveSchedule(ctx, 0, testSchedule, "test")
			return err
		},
		do: func(ctx context.Context, s *Service, _ string) error {
			id, err := scheduleID(ctx, s, testSchedule.Name)
			if err != nil {
				return err
			}
			return s.DeleteSchedule(ctx, id, "test")
		}},
	{name: "recommendation state", event: AuditRecState, probe: `SELECT count(*) FROM recommendation_states`,
		do: func(ctx context.Context, s *Service, _ string) error {
			recs, err := s.GenerateRecommendations(ctx)
			if err != nil {
				return err
			}
			if len(recs) == 0 {
				return errors.New("no recommendation on the demo")
			}
			_, err = s.SetRecommendationState(ctx, recs[0].ID, StateChange{State: "dismissed", Reason: "planned"}, "test")
			return err
		}},
	{name: "budget save", event: AuditBudgetSave, probe: `SELECT count(*) FROM budgets`,
		do: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.SaveBudget(ctx, 0, testBudget, "test")
			return err
		}},
	{name: "budget delete", event: AuditBudgetDelete, probe: `SELECT count(*) FROM budgets`,
		setup: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.SaveBudget(ctx, 0, testBudget, "test")
			return err
		},
		do: func(ctx context.Context, s *Service, _ string) error {
			id, err := budgetID(ctx, s, testBudget.Name)
			if err != nil {
				return err
			}
			return s.DeleteBudget(ctx, id, "test")
		}},
	{name: "anomaly decision", event: AuditAnomaly, probe: `SELECT count(*) FROM anomaly_decisions`,
		do: func(ctx context.Context, s *Service, _ string) error {
			days, svc := demo.Spikes(model.Azure, testNow)
			_, err := s.DecideAnomaly(ctx, anomaly.ID(model.Azure, days[0], svc), AnomalyDecisionRequest{Action: AnomalyIgnored, Reason: "planned"}, "test")
			return err
		}},
	{name: "import", event: AuditImport, probe: `SELECT (SELECT count(*) FROM imports) || ':' || (SELECT count(*) FROM account_names) || ':' || (SELECT count(*) FROM sync_state WHERE source = 'export')`,
		do: func(ctx context.Context, s *Service, _ string) error {
			_, err := s.Import(ctx, "focus.csv", strings.NewReader(importCSV), ImportOptions{})
			return err
		}},
}

func auditConfig() *config.Config {
	cfg := config.Default()
	cfg.Alerts.WebhookURL = "http://127.0.0.1:9/hook"
	return cfg
}

// auditDir is a data dir holding the demo history, with the change's
// setup done and the service closed.
func auditDir(t *testing.T, c auditedChange) string {
	t.Helper()
	s := openDemo(t, auditConfig())
	dir := filepath.Dir(s.store.Path())
	if c.setup != nil {
		if err := c.setup(adminCtx(), s, dir); err != nil {
			t.Fatalf("setup: %v", err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// rawDB opens the data dir's database behind the service's back.
func rawDB(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, store.FileName)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func probe(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var v string
	if err := db.QueryRow(`SELECT CAST((` + q + `) AS TEXT)`).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

func events(t *testing.T, db *sql.DB, event string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM audit_log WHERE event = ?`, event).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEveryChangeAndItsAuditEventLandTogether: for every kind of change,
// (1) when its audit event cannot be written the change fails and leaves
// nothing; (2) a process killed between the change and its audit event
// (a trigger on the audit insert calls a function that SIGKILLs the
// process, inside the change's transaction) leaves neither; (3) otherwise
// both are there.
func TestEveryChangeAndItsAuditEventLandTogether(t *testing.T) {
	for _, c := range auditedChanges {
		t.Run(c.name, func(t *testing.T) {
			ctx := adminCtx()

			// (1) the audit insert fails.
			dir := auditDir(t, c)
			db := rawDB(t, dir)
			before := probe(t, db, c.probe)
			if _, err := db.Exec(fmt.Sprintf(`CREATE TRIGGER audit_fails BEFORE INSERT ON audit_log WHEN NEW.event = '%s'
				BEGIN SELECT RAISE(ABORT, 'injected audit failure'); END`, c.event)); err != nil {
				t.Fatal(err)
			}
			s := openIn(t, auditConfig(), dir)
			if err := c.do(ctx, s, dir); err == nil {
				t.Fatal("the change succeeded without its audit event")
			}
			if after := probe(t, db, c.probe); after != before {
				t.Fatalf("the change landed without its audit event: %s -> %s", before, after)
			}
			if _, err := db.Exec(`DROP TRIGGER audit_fails`); err != nil {
				t.Fatal(err)
			}
			// (3) both.
			if err := c.do(ctx, s, dir); err != nil {
				t.Fatalf("the change without a fault: %v", err)
			}
			if after := probe(t, db, c.probe); after == before {
				t.Fatalf("the probe %q did not move (%s)", c.probe, before)
			}
			if n := events(t, db, c.event); n != 1 {
				t.Fatalf("%d %s events after one change", n, c.event)
			}

			// (2) the process dies between the change and its event.
			dir = auditDir(t, c)
			db = rawDB(t, dir)
			before = probe(t, db, c.probe)
			if _, err := db.Exec(fmt.Sprintf(`CREATE TRIGGER audit_crash BEFORE INSERT ON audit_log WHEN NEW.event = '%s'
				BEGIN SELECT costpilot_test_crash(); END`, c.event)); err != nil {
				t.Fatal(err)
			}
			cctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(cctx, os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, crashChangeEnv+"="+c.name)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the child was not killed at the audit insert: %v\n%s", err, out)
			}
			if _, err := db.Exec(`DROP TRIGGER audit_crash`); err != nil {
				t.Fatal(err)
			}
			if after := probe(t, db, c.probe); after != before {
				t.Fatalf("killed between the change and its audit event, the change is there without it: %s -> %s", before, after)
			}
			if n := events(t, db, c.event); n != 0 {
				t.Fatalf("%d %s events without the change", n, c.event)
			}
			var ok string
			if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
				t.Fatalf("integrity after the kill: %s %v", ok, err)
			}
		})
	}
}

const (
	crashChildEnv  = "COSTPILOT_TEST_AUDIT_CRASH_DIR"
	crashChangeEnv = "COSTPILOT_TEST_AUDIT_CRASH_CHANGE"
)

// auditCrashChild is the child of TestEveryChangeAndItsAuditEventLandTogether:
// it makes one change on dir with a SQL function that kills the process,
// which the data dir's trigger calls at the audit insert.
func auditCrashChild(dir, name string) int {
	sqlite.MustRegisterScalarFunction("costpilot_test_crash", 0, func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal ends the process
	})
	s, err := OpenWith(adminCtx(), auditConfig(), Options{DataDir: dir, Now: func() time.Time { return testNow },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), NoLive: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	defer s.Close()
	for _, c := range auditedChanges {
		if c.name == name {
			err := c.do(adminCtx(), s, dir)
			fmt.Fprintf(os.Stderr, "the change returned (%v) instead of dying at its audit event\n", err)
			return 4
		}
	}
	fmt.Fprintf(os.Stderr, "no change %q\n", name)
	return 5
}
