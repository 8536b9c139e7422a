package schedule

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
)

// Headline is what a delivery says about its report: the period covered,
// its total and the change from the period before.
type Headline struct {
	Schedule   string
	Period     string // its label: "May 2026", "Last 30 days"
	Start, End string // inclusive days, YYYY-MM-DD
	Total      float64
	Currency   string
	Previous   *float64 // the previous period's total, when there is one
	Report     string   // the report's file name
	Link       string   // where to read it; "" when the dashboard has no public address
}

// HeadlineOf is the headline of schedule sc's report named report, from
// the cost summary of its period. Link is the report under publicURL, the
// dashboard's public address; none when that is "".
func HeadlineOf(sc config.Schedule, sum model.CostSummary, report, publicURL string) Headline {
	h := Headline{Schedule: sc.Name, Total: sum.TotalCost, Currency: sum.Currency, Report: report,
		Start: sum.AnalysisPeriod.StartDate, End: sum.AnalysisPeriod.EndDate, Period: string(sc.Period)}
	if p := sum.Period; p != nil {
		h.Period, h.Start, h.End = p.Label, p.Start, p.End
	}
	if prev := sum.Previous; prev != nil {
		v := prev.TotalCost
		h.Previous = &v
	}
	if base := strings.TrimSpace(publicURL); base != "" {
		if link, err := url.JoinPath(base, "api", "reports", report); err == nil {
			h.Link = link
		}
	}
	return h
}

// Change is the change from the previous period in percent; false when
// there is no previous total to compare with.
func (h Headline) Change() (float64, bool) {
	if h.Previous == nil || *h.Previous == 0 {
		return 0, false
	}
	return (h.Total - *h.Previous) / *h.Previous * 100, true
}

// Numbers is the headline numbers in one sentence.
func (h Headline) Numbers() string {
	s := "Total " + Money(h.Total, h.Currency)
	if pct, ok := h.Change(); ok {
		dir := "up"
		if pct < 0 {
			dir = "down"
		}
		s += fmt.Sprintf(", %s %.1f%% on the previous period (%s)", dir, math.Abs(pct), Money(*h.Previous, h.Currency))
	} else {
		s += ", no previous period to compare with"
	}
	return s + "."
}

// Subject is the subject of the mail.
func (h Headline) Subject() string {
	return fmt.Sprintf("costpilot report %s: %s", h.Schedule, h.Period)
}

// MailBody is the text of the mail the report is attached to.
func (h Headline) MailBody() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Scheduled report %q, %s (%s to %s).\n\n%s\n\n", h.Schedule, h.Period, h.Start, h.End, h.Numbers())
	fmt.Fprintf(&b, "The report is attached: %s\n", h.Report)
	if h.Link != "" {
		fmt.Fprintf(&b, "It is also in the dashboard: %s\n", h.Link)
	}
	b.WriteString("\n-- \ncostpilot\n")
	return b.String()
}

// WebhookMessage is the Slack-compatible message ({"text": ...}) posted
// for a delivery: the headline numbers and a link to the report, or its
// name when the dashboard has no public address.
func (h Headline) WebhookMessage() map[string]any {
	e := monitor.Escape
	text := fmt.Sprintf("*costpilot report %s*: %s (%s to %s)\n%s\n", e(h.Schedule), e(h.Period), h.Start, h.End, e(h.Numbers()))
	if h.Link != "" {
		text += fmt.Sprintf("Report: <%s|%s>", h.Link, e(h.Report))
	} else {
		text += "Report: " + e(h.Report)
	}
	return map[string]any{"text": text}
}

// Money writes an amount with thousands separators and two decimals.
func Money(v float64, currency string) string {
	neg := v < 0
	s := strconv.FormatFloat(math.Abs(v), 'f', 2, 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := b.String() + "." + frac
	if neg {
		out = "-" + out
	}
	if currency != "" {
		out += " " + currency
	}
	return out
}
