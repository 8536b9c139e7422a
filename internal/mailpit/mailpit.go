// Package mailpit runs a Mailpit SMTP server (github.com/axllent/mailpit)
// on loopback ports for tests, with STARTTLS on a certificate made here
// and, optionally, one user, and reads what it received through its HTTP
// API. It is test support: the product never imports it.
//
// The binary is found through $COSTPILOT_MAILPIT_BIN, then PATH, then
// $(go env GOPATH)/bin; `make deps-test` installs it. A missing binary
// fails the test rather than skipping it, so CI cannot pass without the
// delivery tests having run.
package mailpit

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha1"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Server is a running Mailpit.
type Server struct {
	t        testing.TB
	bin      string
	dir      string
	args     []string
	SMTPHost string // 127.0.0.1
	SMTPPort int
	api      string // http://127.0.0.1:port
	// CAFile is the PEM certificate the SMTP server's STARTTLS presents,
	// to trust as a certificate authority.
	CAFile string
	cmd    *exec.Cmd
}

// Options configure a server.
type Options struct {
	// Username and Password, when set, are the one account SMTP accepts;
	// otherwise any login (or none) is accepted.
	Username, Password string
}

// Binary finds the mailpit executable, or fails t saying how to install it.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("COSTPILOT_MAILPIT_BIN"); p != "" {
		return p
	}
	if p, err := exec.LookPath("mailpit"); err == nil {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gopath = string(trimNL(out))
		}
	}
	if gopath != "" {
		p := filepath.Join(gopath, "bin", "mailpit")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("mailpit (the SMTP test server) is not installed: run `make deps-test` " +
		"(go install github.com/axllent/mailpit@v1.27.11) or set COSTPILOT_MAILPIT_BIN")
	return ""
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// Start runs a Mailpit until the test ends.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	s := &Server{t: t, bin: Binary(t), dir: t.TempDir(), SMTPHost: "127.0.0.1"}
	cert, key := s.writeCert()
	s.CAFile = cert
	s.SMTPPort = freePort(t)
	httpPort := freePort(t)
	s.api = "http://127.0.0.1:" + strconv.Itoa(httpPort)
	s.args = []string{
		"--smtp", net.JoinHostPort(s.SMTPHost, strconv.Itoa(s.SMTPPort)),
		"--listen", "127.0.0.1:" + strconv.Itoa(httpPort),
		"--database", filepath.Join(s.dir, "mailpit.db"),
		"--disable-version-check", "--smtp-disable-rdns", "--quiet",
		"--smtp-tls-cert", cert, "--smtp-tls-key", key, "--smtp-require-starttls",
	}
	if o.Username != "" {
		// htpasswd's {SHA} form, which Mailpit reads.
		h := sha1.Sum([]byte(o.Password))
		f := filepath.Join(s.dir, "smtp-users")
		if err := os.WriteFile(f, []byte(o.Username+":{SHA}"+base64.StdEncoding.EncodeToString(h[:])+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		s.args = append(s.args, "--smtp-auth-file", f)
	} else {
		s.args = append(s.args, "--smtp-auth-accept-any")
	}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// Stop ends the server; its messages stay for a Restart.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Restart starts the server again on the same ports and database, and
// waits until it answers.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	cmd := exec.Command(s.bin, s.args...)
	log, err := os.OpenFile(filepath.Join(s.dir, "mailpit.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start mailpit: %v", err)
	}
	s.cmd = cmd
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.api + "/api/v1/info")
		if err == nil {
			resp.Body.Close()
			if c, err := net.DialTimeout("tcp", net.JoinHostPort(s.SMTPHost, strconv.Itoa(s.SMTPPort)), time.Second); err == nil {
				c.Close()
				return
			}
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(filepath.Join(s.dir, "mailpit.log"))
			s.t.Fatalf("mailpit did not start: %v\n%s", err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Address is a name and address as the API gives them.
type Address struct {
	Name    string `json:"Name"`
	Address string `json:"Address"`
}

// Summary is one message of GET /api/v1/messages.
type Summary struct {
	ID          string    `json:"ID"`
	MessageID   string    `json:"MessageID"`
	From        Address   `json:"From"`
	To          []Address `json:"To"`
	Subject     string    `json:"Subject"`
	Username    string    `json:"Username"`
	Attachments int       `json:"Attachments"`
}

// Part is an attachment of GET /api/v1/message/{id}.
type Part struct {
	PartID      string `json:"PartID"`
	FileName    string `json:"FileName"`
	ContentType string `json:"ContentType"`
	Size        int64  `json:"Size"`
}

// Message is GET /api/v1/message/{id}.
type Message struct {
	Summary
	Text        string `json:"Text"`
	Attachments []Part `json:"Attachments"`
}

// Messages lists the messages received, newest first.
func (s *Server) Messages() []Summary {
	s.t.Helper()
	var out struct {
		Messages []Summary `json:"messages"`
	}
	s.get("/api/v1/messages?limit=1000", &out)
	return out.Messages
}

// Message reads one message.
func (s *Server) Message(id string) Message {
	s.t.Helper()
	var m Message
	s.get("/api/v1/message/"+id, &m)
	return m
}

// Attachment returns the decoded bytes of one part of a message.
func (s *Server) Attachment(id, part string) []byte {
	s.t.Helper()
	resp, err := http.Get(s.api + "/api/v1/message/" + id + "/part/" + part)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		s.t.Fatalf("attachment: %s %v", resp.Status, err)
	}
	return b
}

func (s *Server) get(path string, v any) {
	s.t.Helper()
	resp, err := http.Get(s.api + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		s.t.Fatalf("mailpit %s: %s %s", path, resp.Status, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		s.t.Fatalf("mailpit %s: %v", path, err)
	}
}

// writeCert makes a self-signed certificate for 127.0.0.1 and localhost.
func (s *Server) writeCert() (certFile, keyFile string) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		s.t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "costpilot test mail server"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		s.t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		s.t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(s.dir, "cert.pem"), filepath.Join(s.dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return certFile, keyFile
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// String names the server in test logs.
func (s *Server) String() string { return fmt.Sprintf("mailpit smtp %s:%d", s.SMTPHost, s.SMTPPort) }
