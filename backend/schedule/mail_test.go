package schedule

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/internal/mailpit"
)

func pool(t *testing.T, file string) *x509.CertPool {
	t.Helper()
	pem, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(pem) {
		t.Fatal("no certificate in", file)
	}
	return p
}

// TestMailerAgainstMailpit sends through a real SMTP server that requires
// STARTTLS and a login.
func TestMailerAgainstMailpit(t *testing.T) {
	mp := mailpit.Start(t, mailpit.Options{Username: "reports", Password: "s3cret-pw"})
	pdf := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("x"), 5000)...)
	m := Mail{From: "costpilot@example.com", To: []string{"finops@example.com"}, Subject: "costpilot report m: May 2026",
		Body: "Total 1.00 USD.\n", MessageID: "m.20260601@example.com", Date: time.Now(),
		Attachment: Attachment{Name: "r.pdf", ContentType: "application/pdf", Data: pdf}}
	good := Mailer{Host: mp.SMTPHost, Port: mp.SMTPPort, Username: "reports", Password: "s3cret-pw", RootCAs: pool(t, mp.CAFile), Timeout: 20 * time.Second}
	ctx := context.Background()

	tests := []struct {
		name    string
		mailer  func() Mailer
		wantErr string // "" for delivered
		is      error
	}{
		{name: "untrusted certificate", mailer: func() Mailer { m := good; m.RootCAs = x509.NewCertPool(); return m }, wantErr: "certificate"},
		{name: "wrong password", mailer: func() Mailer { m := good; m.Password = "wrong"; return m }, wantErr: "authentication as reports"},
		{name: "TLS from the first byte to a STARTTLS port", mailer: func() Mailer { m := good; m.Security = config.SMTPTLS; m.Timeout = 3 * time.Second; return m }, wantErr: "mail server"},
		{name: "delivered", mailer: func() Mailer { return good }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mm := tt.mailer()
			err := mm.Send(ctx, m)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want one about %q", err, tt.wantErr)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("err = %v, want %v", err, tt.is)
			}
			if strings.Contains(err.Error(), mm.Password) {
				t.Fatalf("the error shows the password: %v", err)
			}
		})
	}
	msgs := mp.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages arrived, want 1", len(msgs))
	}
	got := mp.Message(msgs[0].ID)
	if got.MessageID != m.MessageID || len(got.Attachments) != 1 {
		t.Fatalf("message %+v", got)
	}
	if b := mp.Attachment(got.ID, got.Attachments[0].PartID); !bytes.Equal(b, pdf) {
		t.Fatalf("the attachment differs: %d bytes", len(b))
	}

	mp.Stop()
	if err := good.Send(ctx, m); err == nil || !strings.Contains(err.Error(), "connect to the mail server") {
		t.Fatalf("a stopped server: %v", err)
	}
}
