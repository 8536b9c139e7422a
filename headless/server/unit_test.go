package server

import (
	"net/http/httptest"
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLimiter(func() time.Time { return now })
	perMin := []limitKey{{"k", rate{10, time.Minute}}}
	for i := 0; i < 10; i++ {
		if ok, _ := l.allow(perMin); !ok {
			t.Fatalf("request %d refused", i+1)
		}
	}
	ok, wait := l.allow(perMin)
	if ok || wait != 6*time.Second {
		t.Fatalf("11th: ok %v wait %v", ok, wait)
	}
	// A refusal by one allowance does not spend the other.
	both := []limitKey{{"other", rate{100, time.Hour}}, {"k", rate{10, time.Minute}}}
	if ok, _ := l.allow(both); ok {
		t.Fatal("allowed although k is spent")
	}
	if l.tat["other"] != (time.Time{}) {
		t.Fatal("the refused request drew on the other allowance")
	}
	now = now.Add(6 * time.Second)
	if ok, _ := l.allow(perMin); !ok {
		t.Fatal("refused after the wait")
	}
	// A zero limit means no limit.
	if ok, _ := l.allow([]limitKey{{"z", rate{0, time.Minute}}}); !ok {
		t.Fatal("zero limit refused")
	}
}

func TestClientAddress(t *testing.T) {
	proxies, err := parseProxies([]string{"10.0.0.1", "192.168.0.0/16"})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{proxies: proxies}
	tests := []struct {
		name, remote, xff, want string
	}{
		{"direct client", "203.0.113.5:4000", "", "203.0.113.5"},
		{"untrusted peer sends XFF", "203.0.113.5:4000", "1.2.3.4", "203.0.113.5"},
		{"trusted proxy", "10.0.0.1:4000", "198.51.100.7", "198.51.100.7"},
		{"chain of trusted proxies", "10.0.0.1:4000", "198.51.100.7, 192.168.1.2", "198.51.100.7"},
		{"forged left entry", "10.0.0.1:4000", "6.6.6.6, 198.51.100.7", "198.51.100.7"},
		{"garbage XFF", "10.0.0.1:4000", "nonsense", "10.0.0.1"},
		{"ipv6 peer", "[2001:db8::1]:4000", "1.2.3.4", "2001:db8::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			if tt.xff != "" {
				r.Header.Set("X-Forwarded-For", tt.xff)
			}
			if got := s.resolveAddr(r); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := parseProxies([]string{"not-an-ip"}); err == nil {
		t.Fatal("bad proxy accepted")
	}
}

func TestValidReportName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"costpilot-summary-20260610T120000Z.json", true},
		{"../costpilot.db", false},
		{"a/b", false},
		{`a\b`, false},
		{".hidden", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := validReportName(tt.name); (err == nil) != tt.ok {
				t.Fatalf("validReportName(%q) = %v", tt.name, err)
			}
		})
	}
}

func TestRoutesListed(t *testing.T) {
	want := map[string]bool{"GET /api/costs": false, "GET /api/recommendations": false, "GET /api/forecast": false,
		"POST /api/optimize": false, "POST /api/reports": false, "GET /api/status": false, "POST /api/allocate": false,
		"GET /api/performance": false, "POST /login": false, "GET /healthz": false, "GET /metrics": false}
	for _, r := range Routes() {
		k := r.Method + " " + r.Path
		if _, ok := want[k]; ok {
			want[k] = true
		}
	}
	for k, seen := range want {
		if !seen {
			t.Errorf("Routes() lacks %s", k)
		}
	}
}
