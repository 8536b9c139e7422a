package config

import (
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/model"
)

// ReportsConfig is the reports section: reports made and delivered on a
// schedule, and the mail server they go out through.
type ReportsConfig struct {
	Schedules []Schedule `yaml:"schedules"`
	SMTP      SMTPConfig `yaml:"smtp"`
}

// Frequency is how often a scheduled report is delivered.
type Frequency string

// The frequencies.
const (
	Daily   Frequency = "daily"
	Weekly  Frequency = "weekly"  // on Weekday
	Monthly Frequency = "monthly" // on Day
)

// Frequencies lists the frequencies.
var Frequencies = []Frequency{Daily, Weekly, Monthly}

// Weekdays are the values of a weekly schedule's weekday, Monday first.
var Weekdays = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// Schedule is one report delivered on a schedule: to Recipients by email,
// and to alerts.webhook_url as a short message when Webhook is set.
type Schedule struct {
	Name      string    `yaml:"name" json:"name"`
	Frequency Frequency `yaml:"frequency" json:"frequency"`
	// Weekday of a weekly schedule (monday..sunday); Day of the month of a
	// monthly one (1..28, so that every month has it). Hour is the UTC
	// hour all of them are due at.
	Weekday    string             `yaml:"weekday" json:"weekday,omitempty"`
	Day        int                `yaml:"day" json:"day,omitempty"`
	Hour       int                `yaml:"hour" json:"hour"`
	Type       model.ReportType   `yaml:"type" json:"type"`
	Format     model.ReportFormat `yaml:"format" json:"format"`
	Period     model.PeriodKind   `yaml:"period" json:"period"`
	Recipients []string           `yaml:"recipients" json:"recipients"`
	Webhook    bool               `yaml:"webhook" json:"webhook"`
}

// SMTPConfig is reports.smtp: the server scheduled reports are mailed
// through. The password is never in the file: it comes from
// COSTPILOT_SMTP_PASSWORD, or the file COSTPILOT_SMTP_PASSWORD_FILE names
// (a container or systemd secret), read at each send.
type SMTPConfig struct {
	Host     string `yaml:"host"`
	Port     int    `yaml:"port"`
	From     string `yaml:"from"`
	Username string `yaml:"username"`
	// Security is starttls (the default: the connection is upgraded and a
	// server that cannot is refused), tls (TLS from the first byte, port
	// 465) or none (plain text, only to a loopback address).
	Security SMTPSecurity `yaml:"security"`
	// CAFile is a PEM file of the certificate authorities to trust beside
	// the system's, for a relay with a private certificate.
	CAFile string `yaml:"ca_file"`

	// Password is here only so that a password written into the file is
	// refused by name instead of being read: Validate rejects it.
	Password string `yaml:"password"`
}

// SMTPSecurity is how the connection to the mail server is protected.
type SMTPSecurity string

// The SMTP security modes.
const (
	SMTPStartTLS SMTPSecurity = "starttls"
	SMTPTLS      SMTPSecurity = "tls"
	SMTPNone     SMTPSecurity = "none"
)

// SMTPSecurities lists the SMTP security modes.
var SMTPSecurities = []SMTPSecurity{SMTPStartTLS, SMTPTLS, SMTPNone}

// SMTPPasswordEnv names the environment variable of the SMTP password.
const SMTPPasswordEnv = "COSTPILOT_SMTP_PASSWORD"

// Schedule bounds.
const (
	MaxScheduleName = 100
	MaxRecipients   = 50
	maxAddress      = 254 // RFC 5321's limit on a forward path
)

// SchedulePeriods are the period kinds a schedule may cover: every kind
// but custom, whose dates would be the same at every delivery.
var SchedulePeriods = slices.DeleteFunc(slices.Clone(model.PeriodKinds), func(k model.PeriodKind) bool { return k == model.PeriodCustom })

// ScheduleDefaults fills what a schedule may leave out: a weekly one is
// due on Monday, a monthly one on the 1st; the report is a summary in PDF
// of the last month for a monthly schedule, else of the last 30 days.
func ScheduleDefaults(s Schedule) Schedule {
	s.Weekday = strings.ToLower(strings.TrimSpace(s.Weekday))
	switch s.Frequency {
	case Weekly:
		if s.Weekday == "" {
			s.Weekday = "monday"
		}
	case Monthly:
		if s.Day == 0 {
			s.Day = 1
		}
	}
	if s.Type == "" {
		s.Type = model.ReportSummary
	}
	if s.Format == "" {
		s.Format = model.FormatPDF
	}
	if s.Period == "" {
		s.Period = model.PeriodDays
		if s.Frequency == Monthly {
			s.Period = model.PeriodLastMonth
		}
	}
	if s.Recipients == nil {
		s.Recipients = []string{}
	}
	return s
}

// CheckSchedule reports each problem of a schedule (after
// ScheduleDefaults) to add, its field named under prefix: the one rule
// for schedules from the config file and those made in the dashboard, API
// or CLI. mail and hook say whether a mail server and a webhook are
// configured, without which recipients or webhook cannot be delivered.
func CheckSchedule(prefix string, s Schedule, mail, hook bool, add func(field, format string, args ...any)) {
	if s.Name == "" || strings.TrimSpace(s.Name) != s.Name {
		add(prefix+"name", "is required, without leading or trailing spaces")
	} else if utf8.RuneCountInString(s.Name) > MaxScheduleName {
		add(prefix+"name", "is longer than %d characters", MaxScheduleName)
	} else if strings.ContainsFunc(s.Name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		add(prefix+"name", "must not hold control characters")
	}
	if !slices.Contains(Frequencies, s.Frequency) {
		add(prefix+"frequency", "must be daily, weekly or monthly, not %q", s.Frequency)
	}
	switch {
	case s.Frequency == Weekly && !slices.Contains(Weekdays, s.Weekday):
		add(prefix+"weekday", "must be one of %s, not %q", strings.Join(Weekdays, ", "), s.Weekday)
	case s.Frequency != Weekly && s.Weekday != "":
		add(prefix+"weekday", "is only for a weekly schedule")
	}
	switch {
	case s.Frequency == Monthly && (s.Day < 1 || s.Day > 28):
		add(prefix+"day", "must be a day of the month from 1 to 28 (every month has it), got %d", s.Day)
	case s.Frequency != Monthly && s.Day != 0:
		add(prefix+"day", "is only for a monthly schedule")
	}
	if s.Hour < 0 || s.Hour > 23 {
		add(prefix+"hour", "must be an hour from 0 to 23 (UTC), got %d", s.Hour)
	}
	if !slices.Contains(model.ReportTypes, s.Type) {
		add(prefix+"type", "must be comprehensive, summary or recommendations, not %q", s.Type)
	}
	if !slices.Contains(model.ReportFormats, s.Format) {
		add(prefix+"format", "must be html, pdf or json, not %q", s.Format)
	}
	if !slices.Contains(SchedulePeriods, s.Period) {
		names := make([]string, len(SchedulePeriods))
		for i, k := range SchedulePeriods {
			names[i] = string(k)
		}
		add(prefix+"period", "must be one of %s, not %q", strings.Join(names, ", "), s.Period)
	}
	if len(s.Recipients) > MaxRecipients {
		add(prefix+"recipients", "holds %d addresses, more than %d", len(s.Recipients), MaxRecipients)
	} else {
		seen := map[string]bool{}
		for i, r := range s.Recipients {
			field := fmt.Sprintf("%srecipients[%d]", prefix, i)
			if err := CheckAddress(r); err != "" {
				add(field, "%s", err)
			} else if k := strings.ToLower(r); seen[k] {
				add(field, "repeats %q", r)
			} else {
				seen[k] = true
			}
		}
	}
	if len(s.Recipients) == 0 && !s.Webhook {
		add(prefix+"recipients", "are required unless webhook is true: a schedule must deliver somewhere")
	}
	if len(s.Recipients) > 0 && !mail {
		add(prefix+"recipients", "need a mail server: set reports.smtp.host and reports.smtp.from")
	}
	if s.Webhook && !hook {
		add(prefix+"webhook", "needs alerts.webhook_url")
	}
}

// CheckAddress says what is wrong with an email address, or "" when it is
// a bare address (local@domain, no display name: the field holds one
// address and nothing else, so no header can be smuggled in).
func CheckAddress(a string) string {
	if a == "" {
		return "must be an email address, got an empty one"
	}
	if len(a) > maxAddress {
		return fmt.Sprintf("is longer than %d bytes", maxAddress)
	}
	bad := fmt.Sprintf("must be an email address like name@example.com, got %q", a)
	p, err := mail.ParseAddress(a)
	if err != nil || p.Name != "" || p.Address != a {
		return bad
	}
	if domain := a[strings.LastIndexByte(a, '@')+1:]; !strings.Contains(domain, ".") && domain != "localhost" {
		return bad
	}
	return ""
}

// validateReports checks the reports section.
func validateReports(c *Config, add func(field, format string, args ...any)) {
	m := c.Reports.SMTP
	const p = "reports.smtp."
	if m.Password != "" {
		add(p+"password", "must not be in the configuration file: set %s or %s_FILE", SMTPPasswordEnv, SMTPPasswordEnv)
	}
	if m.Host != "" {
		if strings.ContainsAny(m.Host, " /:@") && !strings.HasPrefix(m.Host, "[") {
			add(p+"host", "must be a host name or address without a port or scheme, got %q", m.Host)
		}
		if e := CheckAddress(m.From); e != "" {
			add(p+"from", "%s", e)
		}
		if !slices.Contains(SMTPSecurities, m.Security) {
			add(p+"security", "must be starttls, tls or none, not %q", m.Security)
		} else if m.Security == SMTPNone && !isLoopbackHost(strings.Trim(m.Host, "[]")) {
			add(p+"security", "may be none only for a mail server on a loopback address (the report and the password would cross the network in clear), not %q", m.Host)
		}
	}
	mail := c.MailConfigured()
	hook := strings.TrimSpace(c.Alerts.WebhookURL) != ""
	names := map[string]bool{}
	for i, s := range c.Reports.Schedules {
		prefix := fmt.Sprintf("reports.schedules[%d].", i)
		CheckSchedule(prefix, ScheduleDefaults(s), mail, hook, add)
		if names[s.Name] {
			add(prefix+"name", "repeats %q: schedule names are unique", s.Name)
		}
		names[s.Name] = true
	}
}

// MailConfigured says whether scheduled reports can be mailed.
func (c *Config) MailConfigured() bool {
	return c.Reports.SMTP.Host != "" && c.Reports.SMTP.From != ""
}
