package azure

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
)

// cloudHosts are the names the test certificate is valid for: each
// cloud's authority and Resource Manager, and a private cloud's.
var cloudHosts = []string{
	"login.microsoftonline.com", "management.azure.com",
	"login.chinacloudapi.cn", "management.chinacloudapi.cn",
	"login.microsoftonline.us", "management.usgovcloudapi.net",
	"login.private.example", "arm.private.example",
}

// newCloudServer is the fake Entra ID and Resource Manager behind a TLS
// certificate for cloudHosts and 127.0.0.1, with the certificate's pool.
func newCloudServer(t *testing.T) (*fakeARM, *httptest.Server, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fake azure"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: cloudHosts, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	f := &fakeARM{t: t, hosts: map[string][]string{}, tokenStatus: http.StatusOK}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}}, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f, srv, pool
}

// loopbackClient sends every request, whatever its host, to srv: the URL,
// Host header and TLS server name stay the cloud's, only the dial is
// redirected. No proxy, no DNS, no traffic beyond loopback.
func loopbackClient(srv *httptest.Server, pool *x509.CertPool) *http.Client {
	addr := srv.Listener.Addr().String()
	return &http.Client{Transport: &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
	}}
}

// TestCloudAuthority signs in with a service principal through the real
// azidentity and MSAL flow and reads the subscription, for each cloud
// kind: the token request must reach the cloud's authority with its
// Resource Manager audience, and the read its Resource Manager.
func TestCloudAuthority(t *testing.T) {
	tests := []struct {
		name      string
		cfg       config.AzureConfig
		direct    bool // a custom cloud at the server's own address, no redirected dial
		authority string
		scope     string
		arm       string
	}{
		{name: "unset is public", authority: "login.microsoftonline.com", scope: "https://management.core.windows.net//.default", arm: "management.azure.com"},
		{name: "public", cfg: config.AzureConfig{Cloud: config.AzurePublic},
			authority: "login.microsoftonline.com", scope: "https://management.core.windows.net//.default", arm: "management.azure.com"},
		{name: "china", cfg: config.AzureConfig{Cloud: config.AzureChina},
			authority: "login.chinacloudapi.cn", scope: "https://management.core.chinacloudapi.cn//.default", arm: "management.chinacloudapi.cn"},
		{name: "us government", cfg: config.AzureConfig{Cloud: config.AzureUSGovernment},
			authority: "login.microsoftonline.us", scope: "https://management.core.usgovcloudapi.net//.default", arm: "management.usgovcloudapi.net"},
		{name: "custom", cfg: config.AzureConfig{Cloud: config.AzureCustom, AuthorityHost: "https://login.private.example", Endpoint: "https://arm.private.example/"},
			authority: "login.private.example", scope: "https://arm.private.example/.default", arm: "arm.private.example"},
		{name: "custom with its own audience", cfg: config.AzureConfig{Cloud: config.AzureCustom, AuthorityHost: "https://login.private.example/",
			Endpoint: "https://arm.private.example", Audience: "https://management.private.example/"},
			authority: "login.private.example", scope: "https://management.private.example//.default", arm: "arm.private.example"},
		{name: "custom at the local server", direct: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv, pool := newCloudServer(t)
			client := loopbackClient(srv, pool)
			cfg := tt.cfg
			if tt.direct {
				u, _ := url.Parse(srv.URL)
				cfg = config.AzureConfig{Cloud: config.AzureCustom, AuthorityHost: srv.URL + "/", Endpoint: srv.URL}
				tt.authority, tt.arm, tt.scope = u.Host, u.Host, srv.URL+"/.default"
				client = &http.Client{Transport: &http.Transport{Proxy: nil, TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
			}
			cfg.SubscriptionID, cfg.TenantID, cfg.ClientID, cfg.ClientSecret = testSub, testTenant, "app-id", "s3cr3t-value"
			p, err := New(cfg, nil, WithHTTPClient(client), WithRetry(0, time.Millisecond, time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Check(context.Background()); err != nil {
				t.Fatal(err)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.Count("token") != 1 || len(f.tokenForms) != 1 {
				t.Fatalf("token requests = %d, want 1 (calls %v)", f.Count("token"), f.Calls())
			}
			for _, op := range []string{"discovery", "openid", "token"} {
				for _, h := range f.hosts[op] {
					if h != tt.authority {
						t.Errorf("%s request went to %s, want %s", op, h, tt.authority)
					}
				}
			}
			form := f.tokenForms[0]
			// MSAL adds its OpenID scopes after the resource's.
			if strings.Fields(form.Get("scope"))[0] != tt.scope || form.Get("client_id") != "app-id" || form.Get("grant_type") != "client_credentials" {
				t.Errorf("token request scope %q client %q grant %q, want scope %q first", form.Get("scope"), form.Get("client_id"), form.Get("grant_type"), tt.scope)
			}
			if hs := f.hosts["subscription"]; len(hs) != 1 || hs[0] != tt.arm {
				t.Errorf("subscription read from %v, want %s", hs, tt.arm)
			}
			if len(f.bearer) == 0 || f.bearer[0] != "Bearer tok-from-entra" {
				t.Errorf("Authorization = %v", f.bearer)
			}
			// Nothing asked anyone else: every request was one of these.
			for op := range f.Calls() {
				if strings.HasPrefix(op, "unknown") {
					t.Errorf("unexpected request %s", op)
				}
			}
		})
	}
}
