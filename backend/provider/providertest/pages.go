package providertest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// PagedAPI is a fake list endpoint of the kind OpenAI's and Anthropic's
// admin APIs have: JSON pages with has_more and a cursor, the next one
// asked for with ?page=<next_page> (or the Param set, such as after).
// Pages maps the cursor ("" for the first request) to the file in
// testdata answering it. Check, when
// set, looks at every request (auth headers, query); Fail, when set, may
// answer the n-th request (from 1) with a status, headers and body
// instead. Requests are counted under "list".
type PagedAPI struct {
	Recorder
	Path  string
	Param string
	Pages map[string]string
	Check func(t *testing.T, r *http.Request)
	Fail  func(n int) (status int, header http.Header, body string, ok bool)
}

// Serve starts the fake, closed when t ends.
func (f *PagedAPI) Serve(t *testing.T) *httptest.Server {
	t.Helper()
	return Serve(t, f.Handler(t))
}

// Handler is the fake's handler, for a server that fakes several
// endpoints (an http.ServeMux of them).
func (f *PagedAPI) Handler(t *testing.T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != f.Path {
			http.Error(w, `{"error":{"type":"not_found_error","message":"no such path"}}`, http.StatusNotFound)
			return
		}
		n := f.Hit("list")
		if f.Check != nil {
			f.Check(t, r)
		}
		if f.Fail != nil {
			if status, h, body, ok := f.Fail(n); ok {
				for k, vs := range h {
					w.Header()[k] = vs
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				_, _ = w.Write([]byte(body))
				return
			}
		}
		param := f.Param
		if param == "" {
			param = "page"
		}
		name, ok := f.Pages[r.URL.Query().Get(param)]
		if !ok {
			http.Error(w, `{"error":{"type":"invalid_request_error","message":"unknown page"}}`, http.StatusBadRequest)
			return
		}
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Errorf("fixture: %v", err)
			http.Error(w, "fixture missing", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}
}

// Huge answers every request with a JSON body of about size bytes that
// never closes its string: a hostile or broken server the client must
// stop reading.
func Huge(size int) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":[],"pad":"`))
		chunk := make([]byte, 64<<10)
		for i := range chunk {
			chunk[i] = 'x'
		}
		for sent := 0; sent < size; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client stopped reading
			}
		}
	}
}

// Keyring is a credential store holding fields by name, for any provider.
type Keyring map[string]string

// Get implements provider.Credentials.
func (k Keyring) Get(_ model.ProviderKey, field string) (string, error) { return k[field], nil }
