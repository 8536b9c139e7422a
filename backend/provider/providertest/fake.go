package providertest

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Serve starts a loopback server with h, closed when t ends.
func Serve(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// WriteJSON answers with v as JSON under the content type given. An
// encoding error is the client's to see, as a body it cannot read.
func WriteJSON(w http.ResponseWriter, contentType string, v any) {
	w.Header().Set("Content-Type", contentType)
	_ = json.NewEncoder(w).Encode(v)
}

// Recorder counts a fake server's requests by operation and keeps the
// JSON bodies asked of it. Its zero value is ready; it is safe for the
// server's concurrent handlers.
type Recorder struct {
	mu     sync.Mutex
	calls  map[string]int
	bodies map[string][]map[string]any
}

// Hit counts a request of op and returns its number (1 for the first),
// on which scripted failures key.
func (r *Recorder) Hit(op string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = map[string]int{}
	}
	r.calls[op]++
	return r.calls[op]
}

// Count is how many requests of op came.
func (r *Recorder) Count(op string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[op]
}

// Calls is a copy of the counts, by operation.
func (r *Recorder) Calls() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.calls)
}

// Keep decodes body as a JSON object, keeps it under op and returns it;
// a body that is not one fails t.
func (r *Recorder) Keep(t testing.TB, op string, body []byte) map[string]any {
	var in map[string]any
	if err := json.Unmarshal(body, &in); err != nil {
		t.Errorf("%s body: %v", op, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bodies == nil {
		r.bodies = map[string][]map[string]any{}
	}
	r.bodies[op] = append(r.bodies[op], in)
	return in
}

// Kept is the bodies kept under op, in the order they came.
func (r *Recorder) Kept(op string) []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.bodies[op]...)
}
