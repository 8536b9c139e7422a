package config

import (
	"testing"
)

func TestScheduleValidation(t *testing.T) {
	const smtp = "reports:\n  smtp:\n    host: mail.example.com\n    from: costpilot@example.com\n"
	tests := []struct {
		name   string
		yaml   string
		fields []string // nil: valid
	}{
		{name: "monthly with defaults", yaml: smtp + "  schedules:\n    - name: m\n      frequency: monthly\n      hour: 6\n      recipients: [a@example.com]\n"},
		{name: "weekly to the webhook only", yaml: "alerts:\n  webhook_url: https://hooks.example.com/x\nreports:\n  schedules:\n    - {name: w, frequency: weekly, weekday: Friday, webhook: true}\n"},
		{name: "every field wrong", yaml: smtp + "  schedules:\n    - name: ' x'\n      frequency: hourly\n      weekday: monday\n      day: 3\n      hour: 24\n      type: full\n      format: docx\n      period: custom\n      recipients: ['Bob <bob@example.com>', 'x@y\\r\\nBcc: z@example.com']\n",
			fields: []string{"reports.schedules[0].name", "reports.schedules[0].frequency", "reports.schedules[0].weekday", "reports.schedules[0].day",
				"reports.schedules[0].hour", "reports.schedules[0].type", "reports.schedules[0].format", "reports.schedules[0].period",
				"reports.schedules[0].recipients[0]", "reports.schedules[0].recipients[1]"}},
		{name: "monthly day 31 does not exist every month", yaml: smtp + "  schedules:\n    - {name: m, frequency: monthly, day: 31, recipients: [a@example.com]}\n",
			fields: []string{"reports.schedules[0].day"}},
		{name: "weekday misspelt", yaml: smtp + "  schedules:\n    - {name: w, frequency: weekly, weekday: fri, recipients: [a@example.com]}\n",
			fields: []string{"reports.schedules[0].weekday"}},
		{name: "nowhere to deliver", yaml: smtp + "  schedules:\n    - {name: d, frequency: daily}\n", fields: []string{"reports.schedules[0].recipients"}},
		{name: "recipients without a mail server, webhook without a url", yaml: "reports:\n  schedules:\n    - {name: d, frequency: daily, recipients: [a@example.com], webhook: true}\n",
			fields: []string{"reports.schedules[0].recipients", "reports.schedules[0].webhook"}},
		{name: "names are unique, recipients too", yaml: smtp + "  schedules:\n    - {name: d, frequency: daily, recipients: [a@example.com, A@example.com]}\n    - {name: d, frequency: daily, recipients: [a@example.com]}\n",
			fields: []string{"reports.schedules[0].recipients[1]", "reports.schedules[1].name"}},
		{name: "password refused in the file", yaml: smtp + "    password: hunter2\n", fields: []string{"reports.smtp.password"}},
		{name: "plain text only to loopback", yaml: "reports:\n  smtp:\n    host: mail.example.com\n    from: c@example.com\n    security: none\n", fields: []string{"reports.smtp.security"}},
		{name: "plain text to loopback", yaml: "reports:\n  smtp:\n    host: 127.0.0.1\n    port: 1025\n    from: c@localhost\n    security: none\n"},
		{name: "smtp fields", yaml: "reports:\n  smtp:\n    host: smtp://mail.example.com\n    port: 0\n    from: nobody\n    security: ssl\n",
			fields: []string{"reports.smtp.port", "reports.smtp.host", "reports.smtp.from", "reports.smtp.security"}},
		{name: "public url", yaml: "dashboard:\n  public_url: costs.example.com\n", fields: []string{"dashboard.public_url"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantFields(t, tt.yaml, tt.fields)
		})
	}
}

func TestScheduleDefaults(t *testing.T) {
	got := ScheduleDefaults(Schedule{Name: "m", Frequency: Monthly})
	if got.Day != 1 || got.Type != "summary" || got.Format != "pdf" || got.Period != "last_month" || got.Recipients == nil {
		t.Fatalf("monthly defaults %+v", got)
	}
	if w := ScheduleDefaults(Schedule{Frequency: Weekly, Weekday: " Sunday"}); w.Weekday != "sunday" || w.Period != "days" {
		t.Fatalf("weekly defaults %+v", w)
	}
}
