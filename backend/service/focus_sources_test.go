package service

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// focusServer publishes a FOCUS file over TLS for one bearer token, with
// an ETag, answering 304 to a matching If-None-Match; it counts requests
// and full downloads.
type focusServer struct {
	mu               sync.Mutex
	body, etag       string
	asks, downloads  int
	lastIfNoneMatch  string
	lastAuthorizaton string
}

func (f *focusServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asks++
	f.lastIfNoneMatch, f.lastAuthorizaton = r.Header.Get("If-None-Match"), r.Header.Get("Authorization")
	if r.Header.Get("Authorization") != "Bearer gw-TOKEN-123" {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	f.downloads++
	w.Header().Set("ETag", f.etag)
	fmt.Fprint(w, f.body)
}

func (f *focusServer) counts() (asks, downloads int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asks, f.downloads
}

// TestFocusSourceOverHTTPS: a focus_sources url on a local TLS server
// with a token from token_env. A sync downloads and imports the AI
// vendor's FOCUS file to its exact total; a second sync gets a 304 and
// imports nothing; a refresh before `every` hours asks nothing, one after
// asks again; a changed file is imported and replaces the days it covers;
// a refused token is an error naming the source, without the token.
func TestFocusSourceOverHTTPS(t *testing.T) {
	body, err := os.ReadFile(anthropicFile)
	if err != nil {
		t.Fatal(err)
	}
	fs := &focusServer{body: string(body), etag: `"v1"`}
	srv := httptest.NewTLSServer(fs)
	defer srv.Close()
	t.Setenv("GW_TOKEN", "gw-TOKEN-123")
	now := testNow
	s, _, _ := openVendor(t, "focus_sources:\n  - {name: gw, url: '"+srv.URL+"/export/anthropic.csv?sig=abc', token_env: GW_TOKEN, every: 6}\n", &now)
	s.focusHTTP = srv.Client()
	ctx := adminCtx()

	res, err := s.RunSync(ctx, SyncRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].FocusSource != "gw" || res[0].Lines == 0 || fmt.Sprint(res[0].Providers) != "[anthropic]" {
		t.Fatalf("sync %+v, want the gw source imported as anthropic", res)
	}
	want, _ := fileSums(t, anthropicFile)
	wantTotal, _ := want.Float64()
	total := func() float64 {
		t.Helper()
		a, err := s.Costs(ctx, CostRequest{Start: "2025-01-01", End: "2025-01-31", Metric: "billed", Provider: "anthropic"})
		if err != nil {
			t.Fatal(err)
		}
		return a.Summary.TotalCost
	}
	if got := total(); !relClose(got, wantTotal) {
		t.Errorf("anthropic total %v, the file sums to %v", got, wantTotal)
	}

	res, err = s.RunSync(ctx, SyncRequest{})
	if err != nil || len(res) != 1 || res[0].Lines != 0 {
		t.Fatalf("second sync %+v, %v: want nothing imported", res, err)
	}
	if asks, downloads := fs.counts(); asks != 2 || downloads != 1 || fs.lastIfNoneMatch != `"v1"` {
		t.Errorf("asks %d, downloads %d, If-None-Match %q: want the second answered 304", asks, downloads, fs.lastIfNoneMatch)
	}

	// The schedule: a refresh within every hours asks nothing.
	now = testNow.Add(5 * time.Hour)
	if err := s.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if asks, _ := fs.counts(); asks != 2 {
		t.Errorf("a refresh 5 h after a look asked again (%d asks)", asks)
	}
	// After them it asks, and a changed file (the last row gone) is
	// imported.
	lines := strings.SplitAfter(strings.TrimRight(string(body), "\n"), "\n")
	shorter := strings.Join(lines[:len(lines)-1], "")
	dropped := strings.Split(lines[len(lines)-1], ",")
	fs.mu.Lock()
	fs.body, fs.etag = shorter, `"v2"`
	fs.mu.Unlock()
	now = testNow.Add(7 * time.Hour)
	if err := s.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if asks, downloads := fs.counts(); asks != 3 || downloads != 2 {
		t.Errorf("asks %d, downloads %d after 7 h: want the changed file downloaded", asks, downloads)
	}
	head, _ := readCSV(t, anthropicFile)
	var droppedCost float64
	for i, h := range head {
		if h == "BilledCost" {
			_, _ = fmt.Sscan(dropped[i], &droppedCost)
		}
	}
	if got := total(); !relClose(got, wantTotal-droppedCost) {
		t.Errorf("total after the change %v, want %v (the last row's %v gone)", got, wantTotal-droppedCost, droppedCost)
	}

	t.Setenv("GW_TOKEN", "gw-WRONG-999")
	res, err = s.RunSync(ctx, SyncRequest{})
	if err == nil || len(res) != 1 || !strings.Contains(res[0].Error, "FOCUS source gw") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("wrong token: %+v, %v", res, err)
	}
	if strings.Contains(err.Error(), "WRONG") || strings.Contains(err.Error(), "sig=abc") {
		t.Errorf("token or signed query shown: %v", err)
	}
	if fs.lastAuthorizaton != "Bearer gw-WRONG-999" {
		t.Errorf("sent %q", fs.lastAuthorizaton)
	}
	if got := total(); !relClose(got, wantTotal-droppedCost) {
		t.Errorf("a failed fetch changed the history: %v", got)
	}
}
