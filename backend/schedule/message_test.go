package schedule

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"
	"time"
)

func TestHeadline(t *testing.T) {
	prev := 1000.0
	h := Headline{Schedule: "monthly <finops>", Period: "May 2026", Start: "2026-05-01", End: "2026-05-31",
		Total: 1234567.891, Currency: "USD", Previous: &prev, Report: "costpilot-summary-20260601T060000Z.pdf"}
	tests := []struct {
		name string
		h    func(Headline) Headline
		want []string
	}{
		{"with a previous period and no public address", func(h Headline) Headline { return h },
			[]string{"*costpilot report monthly &lt;finops&gt;*: May 2026 (2026-05-01 to 2026-05-31)", "Total $1,234,567.89, up 123356.8% on the previous period ($1,000.00).", "Report: costpilot-summary-20260601T060000Z.pdf"}},
		{"a fall, with a link", func(h Headline) Headline {
			p := 2469135.78
			h.Previous, h.Link = &p, "https://costs.example.com/api/reports/x.pdf"
			return h
		}, []string{"down 50.0% on the previous period ($2,469,135.78)", "Report: <https://costs.example.com/api/reports/x.pdf|costpilot-summary-20260601T060000Z.pdf>"}},
		{"nothing to compare with", func(h Headline) Headline { h.Previous = nil; h.Total = -5; return h },
			[]string{"Total -$5.00, no previous period to compare with."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := tt.h(h).WebhookMessage()["text"].(string)
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("message %q lacks %q", text, w)
				}
			}
		})
	}
}

func TestMailBytesRoundTrip(t *testing.T) {
	pdf := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte{0, 1, 2, 0xff}, 100)...)
	m := Mail{From: "costpilot@example.com", To: []string{"a@example.com", "b@example.com"}, Subject: "costpilot report é: May 2026",
		Body:      "Line one.\nA line of more than seventy-six characters, which quoted-printable has to wrap softly somewhere.\n",
		MessageID: "x.1@example.com", Date: time.Date(2026, 6, 1, 6, 0, 0, 0, time.UTC),
		Attachment: Attachment{Name: "costpilot-summary-20260601T060000Z.pdf", ContentType: "application/pdf", Data: pdf}}
	raw, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	subj, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if subj != m.Subject || msg.Header.Get("To") != "a@example.com, b@example.com" || msg.Header.Get("Message-ID") != "<x.1@example.com>" {
		t.Fatalf("headers %v (subject %q)", msg.Header, subj)
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" {
		t.Fatalf("content type %q %v", mt, err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	text, err := mr.NextPart() // decodes quoted-printable
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(text)
	if strings.ReplaceAll(string(body), "\r\n", "\n") != m.Body {
		t.Fatalf("body %q", body)
	}
	att, err := mr.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	if att.FileName() != m.Attachment.Name || att.Header.Get("Content-Transfer-Encoding") != "base64" {
		t.Fatalf("attachment header %v", att.Header)
	}
	data, err := io.ReadAll(base64.NewDecoder(base64.StdEncoding, att))
	if err != nil || !bytes.Equal(data, pdf) {
		t.Fatalf("attachment differs (%v)", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\r\n") {
		if len(line) > 998 {
			t.Fatalf("a line of %d characters", len(line))
		}
	}
	if _, err := (Mail{From: "a@example.com\r\nBcc: x@example.com"}).Bytes(); err == nil {
		t.Fatal("a header with a line break was accepted")
	}
}
