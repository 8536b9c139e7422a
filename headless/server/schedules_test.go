package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestSchedulesAPI: an admin makes, changes and deletes a report schedule
// beside the config file's (read-only) one; bad fields are named; a
// failing delivery shows on GET /api/schedules in words with the next try.
func TestSchedulesAPI(t *testing.T) {
	var posts atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		posts.Add(1)
		w.WriteHeader(http.StatusNotFound) // a removed hook
	}))
	defer hook.Close()
	e := newEnv(t, func(c *config.Config) {
		c.Dashboard.RateLimit.Enabled = false
		c.Alerts.WebhookURL = hook.URL + "/services/secret-path"
		c.Reports.Schedules = []config.Schedule{{Name: "from-file", Frequency: config.Daily, Hour: 6, Webhook: true}}
	})
	admin := e.mustLogin()
	must := func(method, path, body string, status int, want ...string) response {
		t.Helper()
		res := e.do(req{method: method, path: path, cookie: admin, body: body})
		if res.status != status {
			t.Fatalf("%s %s: %s, want %d", method, path, fmtRes(res), status)
		}
		for _, w := range want {
			if !strings.Contains(res.body, w) {
				t.Fatalf("%s %s: %s, want %s in it", method, path, fmtRes(res), w)
			}
		}
		return res
	}
	must("GET", "/api/schedules", "", 200, `"source":"config"`, `"name":"from-file"`, `"next_due":"`)

	scenarios := []struct {
		body  string
		field string
	}{
		{`{"name":"w","frequency":"hourly","webhook":true}`, `"field":"frequency"`},
		{`{"name":"w","frequency":"weekly","weekday":"caturday","webhook":true}`, `"field":"weekday"`},
		{`{"name":"w","frequency":"daily","hour":-1,"webhook":true}`, `"field":"hour"`},
		{`{"name":"w","frequency":"daily","type":"full","webhook":true}`, `"field":"type"`},
		{`{"name":"w","frequency":"daily","format":"doc","webhook":true}`, `"field":"format"`},
		{`{"name":"w","frequency":"daily","period":"forever","webhook":true}`, `"field":"period"`},
		{`{"name":"w","frequency":"daily","recipients":["x@example.com"]}`, `"field":"recipients"`}, // no mail server
		{`{"name":"from-file","frequency":"daily","webhook":true}`, `"field":"name"`},
		{`{"name":"w","frequency":"daily","webhook":true,"extra":1}`, `unknown field`},
	}
	for _, sc := range scenarios {
		must("POST", "/api/schedules", sc.body, 400, "ValidationError", sc.field)
	}
	res := must("POST", "/api/schedules", `{"name":"weekly","frequency":"weekly","weekday":"wednesday","hour":13,"webhook":true}`, 200,
		`"source":"dashboard"`, `"changed_by":"alice"`, `"next_due":"`)
	var made struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(res.body), &made); err != nil || made.ID == 0 {
		t.Fatalf("%s: %v", res.body, err)
	}
	id := jsonInt(made.ID)
	must("PUT", "/api/schedules/"+id, `{"name":"weekly","frequency":"weekly","weekday":"wednesday","hour":14,"type":"recommendations","format":"json","webhook":true}`, 200,
		`"hour":14`, `"format":"json"`)
	must("PUT", "/api/schedules/999", `{"name":"x","frequency":"daily","webhook":true}`, 404, "NotFoundError")

	// testNow is a Wednesday before 14:00: move past the weekly one's hour.
	if testNow.Weekday() != time.Wednesday || testNow.Hour() >= 14 {
		t.Fatalf("the test expects testNow on a Wednesday before 14:00, got %s", testNow)
	}
	e.now.Store(time.Date(testNow.Year(), testNow.Month(), testNow.Day(), 14, 1, 0, 0, time.UTC).UnixNano())
	admin = e.mustLogin() // two hours on, the first session has expired
	run, err := e.svc.DeliverSchedules(adminCtx())
	if err != nil || len(run.Failed) != 1 || posts.Load() != 1 {
		t.Fatalf("deliver: %+v %v (%d posts)", run, err, posts.Load())
	}
	body := must("GET", "/api/schedules", "", 200, `"state":"failed"`,
		`"last_error":"The webhook message of `, `failed (attempt 1 of 5)`, `answered 404`, `"next_retry":"`).body
	if strings.Contains(body, "secret-path") {
		t.Fatalf("the webhook's path is in the answer: %s", body)
	}
	if _, err := e.svc.AddUser(adminCtx(), service.NewUser{Username: "vic", Password: testPassword, Role: model.RoleViewer}); err != nil {
		t.Fatal(err)
	}
	viewer, vres := e.login("vic", testPassword)
	if viewer == nil {
		t.Fatal(fmtRes(vres))
	}
	if res := e.do(req{method: "GET", path: "/api/schedules", cookie: viewer}); res.status != 200 || !strings.Contains(res.body, `"last_error"`) {
		t.Fatalf("a viewer reads the status: %s", fmtRes(res))
	}
	if res := e.do(req{method: "DELETE", path: "/api/schedules/" + id, cookie: viewer}); res.status != 403 {
		t.Fatalf("a viewer deleted a schedule: %s", fmtRes(res))
	}
	must("DELETE", "/api/schedules/"+id, "", 200, `"deleted":true`)
	must("DELETE", "/api/schedules/"+id, "", 404)
}
