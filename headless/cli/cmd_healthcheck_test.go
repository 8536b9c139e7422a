package cli

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHealthcheckExitCodes(t *testing.T) {
	answer := func(status int, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/healthz" {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/healthz"
	}
	// A port nothing listens on: bound, then closed.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/healthz"
	ln.Close()

	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderrIn string
	}{
		{"healthy", []string{"--url", answer(200, `{"status":"ok"}`)}, ExitOK, "ok\n", ""},
		{"degraded by a warning", []string{"--url", answer(200, `{"status":"degraded"}`)}, ExitOK, "degraded\n", ""},
		{"unhealthy", []string{"--url", answer(503, `{"status":"degraded"}`)}, ExitFailure, "degraded\n", "503"},
		{"not found", []string{"--url", strings.TrimSuffix(answer(200, ""), "/healthz") + "/nothing"}, ExitFailure, "", "404"},
		{"nothing listening", []string{"--url", closed}, ExitFailure, "", "healthcheck:"},
		{"not http", []string{"--url", "ftp://127.0.0.1/healthz"}, ExitUsage, "", "--url"},
		{"no timeout", []string{"--url", closed, "--timeout", "0s"}, ExitUsage, "", "--timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errb := run(t, append([]string{"healthcheck"}, tt.args...)...)
			if code != tt.code || out != tt.stdout || !strings.Contains(errb, tt.stderrIn) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q",
					code, out, errb, tt.code, tt.stdout, tt.stderrIn)
			}
		})
	}
}

// The probe against a real dashboard process, as the container's
// HEALTHCHECK runs it.
func TestHealthcheckAgainstDashboard(t *testing.T) {
	isolate(t)
	data := seeded(t, t.TempDir())
	d := startDashboard(t, data)
	code, out, errb := run(t, "healthcheck", "--url", d.base+"/healthz")
	if code != ExitOK || (out != "ok\n" && out != "degraded\n") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
	d.stop(t)
	if code, _, _ := run(t, "healthcheck", "--url", d.base+"/healthz", "--timeout", "2s"); code != ExitFailure {
		t.Fatalf("after the dashboard stopped: exit %d, want %d", code, ExitFailure)
	}
}
