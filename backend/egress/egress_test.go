package egress

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

func TestBlockedHost(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"169.254.169.254", true},
		{"169.254.0.1", true},
		{"[fe80::1]", true},
		{"fe80::1%eth0", true},
		{"[fd00:ec2::254]", true},
		{"::ffff:169.254.169.254", true},
		{"100.100.100.200", true},
		{"metadata.google.internal", true},
		{"Metadata.Google.Internal.", true},
		{"127.0.0.1", false},
		{"10.0.0.5", false},
		{"[::1]", false},
		{"hooks.slack.com", false},
		{"metadata.example.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			if got := BlockedHost(tt.host); got != tt.want {
				t.Fatalf("BlockedHost(%q) = %v, want %v", tt.host, got, tt.want)
			}
		})
	}
}

// TestClientRefusesBlockedAddress dials through the guarded dialer: a
// loopback server is reached, and the check refuses a link-local address
// before any packet leaves (the control function runs before connect).
func TestClientRefusesBlockedAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	c := Client(5 * time.Second)
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatalf("loopback: %v", err)
	}
	resp.Body.Close()
	if _, err := c.Get("http://169.254.169.254/latest/meta-data/"); !errors.Is(err, ErrBlocked) {
		t.Fatalf("GET 169.254.169.254 = %v, want ErrBlocked", err)
	}
	if err := control("tcp", "169.254.169.254:80", nil); !errors.Is(err, ErrBlocked) {
		t.Fatalf("control(169.254.169.254) = %v, want ErrBlocked", err)
	}
	if err := control("tcp6", "[fd00:ec2::254]:80", nil); !errors.Is(err, ErrBlocked) {
		t.Fatalf("control(fd00:ec2::254) = %v, want ErrBlocked", err)
	}
	if err := control("tcp", "127.0.0.1:80", nil); err != nil {
		t.Fatalf("control(loopback) = %v", err)
	}
	if !BlockedAddr(netip.MustParseAddr("fe80::abcd")) {
		t.Fatal("fe80::abcd is link-local")
	}
}
