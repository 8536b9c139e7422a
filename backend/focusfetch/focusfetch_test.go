package focusfetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// server is a TLS server publishing body at /export/focus.csv for the
// bearer token, with an ETag when etag is set, answering 304 to a
// matching If-None-Match.
type server struct {
	mu         sync.Mutex
	body, etag string
	asked      []http.Header
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, r.Header.Clone())
	if r.Header.Get("Authorization") != "Bearer tok-SECRET" {
		http.Error(w, "denied for "+r.Header.Get("Authorization"), http.StatusUnauthorized)
		return
	}
	if r.URL.Path != "/export/focus.csv" {
		http.NotFound(w, r)
		return
	}
	if s.etag != "" {
		if r.Header.Get("If-None-Match") == s.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", s.etag)
	}
	_, _ = w.Write([]byte(s.body))
}

func (s *server) set(body, etag string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body, s.etag = body, etag
}

func (s *server) last() http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked[len(s.asked)-1]
}

// TestFetchOnlyWhenChanged against a local TLS server: the first download
// writes the file; an unchanged ETag gets a 304 and the same bytes without
// an ETag leave the file untouched; new bytes replace it; the bearer token
// is sent and never shown.
func TestFetchOnlyWhenChanged(t *testing.T) {
	srv := &server{}
	srv.set("a,b\n1,2\n", `"v1"`)
	ts := httptest.NewTLSServer(srv)
	defer ts.Close()
	dir := t.TempDir()
	req := Request{Source: "gw", URL: ts.URL + "/export/focus.csv?sig=QUERYSECRET", Token: "tok-SECRET", MaxBytes: 1 << 20, Dir: dir, HTTP: ts.Client()}
	ctx := context.Background()

	res, err := Fetch(ctx, req, State{})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "focus.csv")
	if !res.Changed || res.State.File != file || res.State.ETag != `"v1"` || srv.last().Get("Authorization") != "Bearer tok-SECRET" {
		t.Fatalf("first fetch %+v", res)
	}
	if b, _ := os.ReadFile(file); string(b) != "a,b\n1,2\n" {
		t.Fatalf("file %q", b)
	}
	st1, _ := os.Stat(file)

	res, err = Fetch(ctx, req, res.State)
	if err != nil || res.Changed || res.Status != http.StatusNotModified || srv.last().Get("If-None-Match") != `"v1"` {
		t.Fatalf("unchanged ETag: %+v, %v", res, err)
	}

	// No ETag: the same bytes come back whole, and are recognised.
	srv.set("a,b\n1,2\n", "")
	time.Sleep(10 * time.Millisecond)
	if res, err = Fetch(ctx, req, res.State); err != nil || res.Changed || res.Status != http.StatusOK {
		t.Fatalf("same bytes: %+v, %v", res, err)
	}
	if st2, _ := os.Stat(file); !st2.ModTime().Equal(st1.ModTime()) {
		t.Errorf("the file was rewritten with the same bytes")
	}

	srv.set("a,b\n1,3\n", `"v2"`)
	if res, err = Fetch(ctx, req, res.State); err != nil || !res.Changed || res.State.ETag != `"v2"` {
		t.Fatalf("new bytes: %+v, %v", res, err)
	}
	if err := SaveState(dir, res.State); err != nil {
		t.Fatal(err)
	}
	if got, err := LoadState(dir); err != nil || got.ETag != `"v2"` || got.SHA256 != res.State.SHA256 {
		t.Fatalf("state round trip %+v, %v", got, err)
	}
}

// TestFetchFailures: a refused token, a missing file, a file over the
// bound (the last file kept whole) and an untrusted certificate fail
// naming the source and the URL without its query, never the token.
func TestFetchFailures(t *testing.T) {
	srv := &server{}
	srv.set(strings.Repeat("x", 4096), "")
	ts := httptest.NewTLSServer(srv)
	defer ts.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "focus.csv"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := Request{Source: "gw", URL: ts.URL + "/export/focus.csv?sig=QUERYSECRET", Token: "tok-SECRET", MaxBytes: 1 << 20, Dir: dir, HTTP: ts.Client()}
	tests := []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"wrong token", func(r *Request) { r.Token = "tok-WRONG" }, "401 Unauthorized: the bearer token"},
		{"no file", func(r *Request) { r.URL = ts.URL + "/nothing.csv?sig=QUERYSECRET" }, "404 Not Found"},
		{"too large", func(r *Request) { r.MaxBytes = 1000 }, "more than max_bytes 1000"},
		{"untrusted certificate", func(r *Request) { r.HTTP = &http.Client{} }, "unreachable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ok
			tt.edit(&r)
			_, err := Fetch(context.Background(), r, State{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "FOCUS source gw") {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
			for _, secret := range []string{"SECRET", "WRONG"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("%q shown: %v", secret, err)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "focus.csv")); string(b) != "old" {
				t.Errorf("the last file was not kept: %q", b)
			}
		})
	}
}

func TestFileName(t *testing.T) {
	for u, want := range map[string]string{
		"https://h/a/focus-2026-11.csv?x=1": "focus-2026-11.csv",
		"https://h/a/export.parquet":        "export.parquet",
		"https://h/a/data.csv.gz":           "data.csv.gz",
		"https://h/api/v1/focus":            "export.csv",
		"https://h/..":                      "export.csv",
	} {
		if got := fileName(u); got != want {
			t.Errorf("fileName(%q) = %q, want %q", u, got, want)
		}
	}
}
