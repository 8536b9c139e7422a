package schedule

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/smtp"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/config"
)

// Mail is one email with one attached file.
type Mail struct {
	From    string
	To      []string
	Subject string
	Body    string // plain text
	// MessageID is the Message-ID without brackets. Given the same one for
	// the same delivery, a receiver that drops duplicate ids keeps one.
	MessageID  string
	Date       time.Time
	Attachment Attachment
}

// Attachment is a file attached to a mail.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Bytes is the message as sent: RFC 5322 headers and a multipart/mixed
// MIME body holding the text (quoted-printable) and the file (base64),
// lines ending in CRLF.
func (m Mail) Bytes() ([]byte, error) {
	for _, v := range append([]string{m.From, m.Subject, m.MessageID, m.Attachment.Name}, m.To...) {
		if strings.ContainsAny(v, "\r\n") {
			return nil, errors.New("schedule: a mail header holds a line break")
		}
	}
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	h := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	h("From", m.From)
	h("To", strings.Join(m.To, ", "))
	h("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	h("Date", m.Date.Format(time.RFC1123Z))
	if m.MessageID != "" {
		h("Message-ID", "<"+m.MessageID+">")
	}
	h("MIME-Version", "1.0")
	h("Content-Type", `multipart/mixed; boundary="`+mw.Boundary()+`"`)
	b.WriteString("\r\n")

	tp, err := mw.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {"text/plain; charset=utf-8"},
		"Content-Transfer-Encoding": {"quoted-printable"},
	})
	if err != nil {
		return nil, fmt.Errorf("schedule: mail body: %w", err)
	}
	qp := quotedprintable.NewWriter(tp)
	if _, err := qp.Write([]byte(strings.ReplaceAll(m.Body, "\n", "\r\n"))); err != nil {
		return nil, fmt.Errorf("schedule: mail body: %w", err)
	}
	if err := qp.Close(); err != nil {
		return nil, fmt.Errorf("schedule: mail body: %w", err)
	}

	a := m.Attachment
	ct := a.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	ap, err := mw.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {mime.FormatMediaType(ct, map[string]string{"name": a.Name})},
		"Content-Disposition":       {mime.FormatMediaType("attachment", map[string]string{"filename": a.Name})},
		"Content-Transfer-Encoding": {"base64"},
	})
	if err != nil {
		return nil, fmt.Errorf("schedule: mail attachment: %w", err)
	}
	// Base64 in lines of 76 characters (RFC 2045).
	enc := base64.StdEncoding.EncodeToString(a.Data)
	var lines strings.Builder
	for len(enc) > 76 {
		lines.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	lines.WriteString(enc + "\r\n")
	if _, err := io.WriteString(ap, lines.String()); err != nil {
		return nil, fmt.Errorf("schedule: mail attachment: %w", err)
	}
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("schedule: mail: %w", err)
	}
	return b.Bytes(), nil
}

// Mailer sends mail through one SMTP server.
type Mailer struct {
	Host     string
	Port     int
	Security config.SMTPSecurity // starttls unless told otherwise
	Username string              // empty: no authentication
	Password string
	RootCAs  *x509.CertPool // nil: the system's
	Timeout  time.Duration  // for the whole conversation; default 60 s
	// LocalName is the name given in EHLO; default "localhost".
	LocalName string
}

// ErrNoStartTLS is a server that does not offer STARTTLS when it was
// asked for: costpilot never falls back to sending in clear.
var ErrNoStartTLS = errors.New("schedule: the mail server does not offer STARTTLS")

// Send delivers m in one SMTP conversation. Errors hold the server's
// answers, never the password.
func (s *Mailer) Send(ctx context.Context, m Mail) error {
	msg, err := m.Bytes()
	if err != nil {
		return err
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	addr := net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	tlsCfg := &tls.Config{ServerName: s.Host, RootCAs: s.RootCAs, MinVersion: tls.VersionTLS12}
	var conn net.Conn
	d := &net.Dialer{}
	if s.Security == config.SMTPTLS {
		conn, err = (&tls.Dialer{NetDialer: d, Config: tlsCfg}).DialContext(ctx, "tcp", addr)
	} else {
		conn, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return fmt.Errorf("schedule: connect to the mail server %s: %w", addr, err)
	}
	// The deadline bounds every read and write; closing on ctx's end
	// interrupts a server that stalls.
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	c, err := smtp.NewClient(conn, s.Host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("schedule: mail server %s: %w", addr, err)
	}
	defer c.Close()
	if err := s.converse(c, tlsCfg, m, msg); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("schedule: mail server %s: %w (%v)", addr, ctx.Err(), err)
		}
		return fmt.Errorf("schedule: mail server %s: %w", addr, err)
	}
	return nil
}

func (s *Mailer) converse(c *smtp.Client, tlsCfg *tls.Config, m Mail, msg []byte) error {
	local := s.LocalName
	if local == "" {
		local = "localhost"
	}
	if err := c.Hello(local); err != nil {
		return err
	}
	if s.Security == "" || s.Security == config.SMTPStartTLS {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return ErrNoStartTLS
		}
		if err := c.StartTLS(tlsCfg); err != nil {
			return fmt.Errorf("starttls: %w", err)
		}
	}
	if s.Username != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("the server offers no authentication, but reports.smtp.username is set")
		}
		// PlainAuth refuses to send the password over a connection that
		// is neither TLS nor to localhost.
		if err := c.Auth(smtp.PlainAuth("", s.Username, s.Password, s.Host)); err != nil {
			return fmt.Errorf("authentication as %s: %w", s.Username, err)
		}
	}
	if err := c.Mail(m.From); err != nil {
		return fmt.Errorf("sender %s: %w", m.From, err)
	}
	for _, to := range m.To {
		if err := c.Rcpt(to); err != nil {
			return fmt.Errorf("recipient %s: %w", to, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	// The server took the message with its answer to the data: a failed
	// goodbye changes nothing.
	_ = c.Quit()
	return nil
}
