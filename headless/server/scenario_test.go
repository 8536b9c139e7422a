package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/backend/store"
)

// scenario is one request of a handler test and what it must do. The
// scenarios of a test run in order on one server, so a scenario can use
// what an earlier one made: "{prev.a.0.b}" in the path or body is that
// value of the previous scenario's JSON answer.
type scenario struct {
	name   string
	method string     // GET when empty
	path   string     // with the query string
	role   model.Role // the caller: a session of a user with this role; "" for no credentials
	token  bool       // a bearer token of role instead of a session
	body   string     // JSON (or what header's Content-Type says)
	header map[string]string

	wantStatus int
	// wantJSON is matched against the decoded answer: an object's keys
	// must be there with matching values (other keys may be too); an
	// array must have exactly the elements given, in order; a matcher
	// (see below) checks a value its own way; other values must be equal.
	wantJSON any
	// wantHeader: each header's value must contain the text given.
	wantHeader map[string]string
	// wantLocation is the redirect's Location, exactly.
	wantLocation string
	// wantText: text the answer must contain, for answers that are not
	// JSON.
	wantText []string
	// wantAudit are the audit events the request must write, in any
	// order, read from the store: nil is not checked, empty means none.
	wantAudit []auditWant
}

// auditWant is an audit event a scenario must write: its event, who, and
// a subset of its details (matched as wantJSON).
type auditWant struct {
	event    string
	username string
	details  map[string]any
}

// matcher checks a decoded JSON value; it returns what is wrong, or "".
type matcher func(v any) string

// present matches any value but null.
var present matcher = func(v any) string {
	if v == nil {
		return "null, want a value"
	}
	return ""
}

// absent matches a key that is not there (or null).
var absent matcher = func(v any) string {
	if v != nil {
		return fmt.Sprintf("%v, want none", v)
	}
	return ""
}

// prefix matches a string that starts with p.
func prefix(p string) matcher {
	return func(v any) string {
		if s, ok := v.(string); !ok || !strings.HasPrefix(s, p) {
			return fmt.Sprintf("%v, want a string starting %q", v, p)
		}
		return ""
	}
}

// positive matches a number above zero.
var positive matcher = func(v any) string {
	if n, ok := v.(float64); !ok || n <= 0 {
		return fmt.Sprintf("%v, want a positive number", v)
	}
	return ""
}

// count matches an array of n elements.
func count(n int) matcher {
	return func(v any) string {
		if a, ok := v.([]any); !ok || len(a) != n {
			return fmt.Sprintf("%.200v, want an array of %d", v, n)
		}
		return ""
	}
}

// some matches an array with an element that matches want.
func some(want any) matcher {
	return func(v any) string {
		a, ok := v.([]any)
		if !ok {
			return fmt.Sprintf("%.200v, want an array", v)
		}
		for _, x := range a {
			if len(matchJSON("", want, x)) == 0 {
				return ""
			}
		}
		return fmt.Sprintf("%.300v, want an element matching %v", v, want)
	}
}

// noElement matches an array with no element that matches want.
func noElement(want any) matcher {
	return func(v any) string {
		if some(want)(v) == "" {
			return fmt.Sprintf("%.300v, want no element matching %v", v, want)
		}
		return ""
	}
}

// every matches an array whose elements all match want.
func every(want any) matcher {
	return func(v any) string {
		a, ok := v.([]any)
		if !ok {
			return fmt.Sprintf("%.200v, want an array", v)
		}
		for i, x := range a {
			if errs := matchJSON("["+strconv.Itoa(i)+"]", want, x); len(errs) > 0 {
				return strings.Join(errs, "; ")
			}
		}
		return ""
	}
}

// matchJSON returns where got differs from want (see scenario.wantJSON).
func matchJSON(at string, want, got any) []string {
	switch w := want.(type) {
	case matcher:
		if msg := w(got); msg != "" {
			return []string{at + ": " + msg}
		}
		return nil
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %.200v, want an object", at, got)}
		}
		var errs []string
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range w {
				if !yield(k) {
					return
				}
			}
		}) {
			errs = append(errs, matchJSON(at+"."+k, w[k], g[k])...)
		}
		return errs
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: %.300v, want %d elements", at, got, len(w))}
		}
		var errs []string
		for i := range w {
			errs = append(errs, matchJSON(at+"["+strconv.Itoa(i)+"]", w[i], g[i])...)
		}
		return errs
	case int:
		return matchJSON(at, float64(w), got)
	case int64:
		return matchJSON(at, float64(w), got)
	}
	if !reflect.DeepEqual(want, got) {
		return []string{fmt.Sprintf("%s: %#v, want %#v", at, got, want)}
	}
	return nil
}

// scenarioEnv is a server for scenarios, with a caller of each kind made
// on first use.
type scenarioEnv struct {
	*env
	callers map[string]req
	prev    any
}

func newScenarioEnv(t *testing.T, mutate func(*config.Config)) *scenarioEnv {
	t.Helper()
	e := newEnv(t, func(c *config.Config) {
		c.Dashboard.RateLimit.Enabled = false
		if mutate != nil {
			mutate(c)
		}
	})
	return &scenarioEnv{env: e, callers: map[string]req{}}
}

// caller is the credentials of a session or token of role; the admin's
// session is the env's own user.
func (se *scenarioEnv) caller(t *testing.T, role model.Role, token bool) req {
	t.Helper()
	if role == "" {
		return req{}
	}
	key := fmt.Sprint(role, token)
	if c, ok := se.callers[key]; ok {
		return c
	}
	var c req
	name := testUser
	if role != model.RoleAdmin {
		name = "s-" + string(role)
		if _, err := se.svc.AddUser(adminCtx(), service.NewUser{Username: name, Password: testPassword, Role: role}); err != nil &&
			!strings.Contains(err.Error(), "exists") {
			t.Fatal(err)
		}
	}
	if token {
		nt, err := se.svc.CreateToken(adminCtx(), service.TokenRequest{Name: "s-" + string(role), Role: role})
		if err != nil {
			t.Fatal(err)
		}
		c.bearer = nt.Token
	} else {
		cookie, res := se.login(name, testPassword)
		if cookie == nil {
			t.Fatalf("login %s: %s", name, fmtRes(res))
		}
		c.cookie = cookie
	}
	se.callers[key] = c
	return c
}

// lastAudit is the id of the newest audit event.
func (se *scenarioEnv) lastAudit(t *testing.T) int64 {
	t.Helper()
	evs, err := se.svc.AuditLog(adminCtx(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 {
		return 0
	}
	return evs[0].ID
}

// auditSince lists the audit events after id, oldest first.
func (se *scenarioEnv) auditSince(t *testing.T, id int64) []store.AuditEvent {
	t.Helper()
	evs, err := se.svc.AuditLog(adminCtx(), service.AuditMax)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.AuditEvent
	for _, ev := range evs {
		if ev.ID > id {
			out = append(out, ev)
		}
	}
	slices.Reverse(out)
	return out
}

var prevRef = regexp.MustCompile(`\{prev((?:\.[A-Za-z0-9_-]+)+)\}`)

// fillPrev replaces {prev.a.b} with that value of the previous answer.
func (se *scenarioEnv) fillPrev(t *testing.T, s string) string {
	t.Helper()
	return prevRef.ReplaceAllStringFunc(s, func(ref string) string {
		v := se.prev
		for _, k := range strings.Split(prevRef.FindStringSubmatch(ref)[1][1:], ".") {
			switch x := v.(type) {
			case map[string]any:
				v = x[k]
			case []any:
				i, err := strconv.Atoi(k)
				if err != nil || i >= len(x) {
					t.Fatalf("%s: no element %s in %.200v", ref, k, x)
				}
				v = x[i]
			default:
				t.Fatalf("%s: %.200v has no %s", ref, v, k)
			}
		}
		if s, ok := v.(string); ok {
			return s
		}
		return fmt.Sprint(v)
	})
}

// run runs the scenarios in order, each as a subtest.
func (se *scenarioEnv) run(t *testing.T, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) { se.runOne(t, sc) })
	}
}

func (se *scenarioEnv) runOne(t *testing.T, sc scenario) {
	q := se.caller(t, sc.role, sc.token)
	q.method, q.path, q.body, q.header = sc.method, se.fillPrev(t, sc.path), se.fillPrev(t, sc.body), sc.header
	before := se.lastAudit(t)
	res := se.do(q)
	if res.status != sc.wantStatus {
		t.Fatalf("%s %s: %s, want %d", q.method, q.path, fmtRes(res), sc.wantStatus)
	}
	var got any
	if strings.HasPrefix(res.header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal([]byte(res.body), &got); err != nil {
			t.Fatalf("answer is not JSON: %v: %.300s", err, res.body)
		}
		se.prev = got
	}
	if sc.wantJSON != nil {
		if got == nil {
			t.Fatalf("answer %q is not JSON (%s)", res.header.Get("Content-Type"), fmtRes(res))
		}
		for _, e := range matchJSON("answer", sc.wantJSON, got) {
			t.Error(e)
		}
	}
	for k, v := range sc.wantHeader {
		if !strings.Contains(res.header.Get(k), v) {
			t.Errorf("header %s: %q, want %q in it", k, res.header.Get(k), v)
		}
	}
	if sc.wantLocation != "" && res.header.Get("Location") != sc.wantLocation {
		t.Errorf("Location %q, want %q", res.header.Get("Location"), sc.wantLocation)
	}
	for _, s := range sc.wantText {
		if !strings.Contains(res.body, s) {
			t.Errorf("answer lacks %q: %.300s", s, res.body)
		}
	}
	if sc.wantAudit == nil {
		return
	}
	written := se.auditSince(t, before)
	if len(written) != len(sc.wantAudit) {
		t.Errorf("audit events written: %+v, want %d", written, len(sc.wantAudit))
	}
	for _, w := range sc.wantAudit {
		found := false
		for _, ev := range written {
			if ev.Event == w.event && ev.Username == w.username &&
				len(matchJSON("details", anyMap(w.details), jsonValue(t, ev.Details))) == 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("no audit event %s by %s with %v in %+v", w.event, w.username, w.details, written)
		}
	}
}

// anyMap is a details subset as wantJSON (nil: any details).
func anyMap(m map[string]any) any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// jsonValue is v as JSON decodes it, so stored details compare as the
// answers do.
func jsonValue(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// errorJSON is the error shape of a refusal of kind errorType, with
// details (a subset).
func errorJSON(errorType string, details map[string]any) map[string]any {
	if details == nil {
		details = map[string]any{}
	}
	return map[string]any{"error": present, "error_type": errorType, "provider": "", "timestamp": present, "details": details}
}

// TestMatchJSON checks the matcher the scenarios rely on.
func TestMatchJSON(t *testing.T) {
	got := map[string]any{"a": 1.0, "b": []any{"x", "y"}, "c": map[string]any{"d": true}, "e": nil}
	tests := []struct {
		name string
		want any
		ok   bool
	}{
		{"subset of keys", map[string]any{"a": 1}, true},
		{"nested", map[string]any{"c": map[string]any{"d": true}}, true},
		{"wrong number", map[string]any{"a": 2}, false},
		{"missing key", map[string]any{"z": 1}, false},
		{"array in order", map[string]any{"b": []any{"x", "y"}}, true},
		{"array out of order", map[string]any{"b": []any{"y", "x"}}, false},
		{"array too short", map[string]any{"b": []any{"x"}}, false},
		{"some", map[string]any{"b": some("y")}, true},
		{"some missing", map[string]any{"b": some("z")}, false},
		{"no element", map[string]any{"b": noElement("z")}, true},
		{"count", map[string]any{"b": count(2)}, true},
		{"present null", map[string]any{"e": present}, false},
		{"absent", map[string]any{"z": absent}, true},
		{"absent but there", map[string]any{"a": absent}, false},
		{"null", map[string]any{"e": nil}, true},
		{"string is not a number", map[string]any{"a": "1"}, false},
	}
	for _, tt := range tests {
		if errs := matchJSON("", tt.want, got); (len(errs) == 0) != tt.ok {
			t.Errorf("%s: %v, want ok %v", tt.name, errs, tt.ok)
		}
	}
}
