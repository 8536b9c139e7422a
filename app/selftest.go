package app

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// RenderReport is what the window reports once the overview shows data
// from a bound AnalyzeCosts call: the total as rendered, and the result
// it came from.
type RenderReport struct {
	RenderedText string  `json:"rendered_text"` // the overview's total, as shown
	TotalCost    float64 `json:"total_cost"`    // summary.total_cost of the bound call
	StartDate    string  `json:"start_date"`    // summary.analysis_period
	EndDate      string  `json:"end_date"`
	Metric       string  `json:"metric"`
	PageMs       float64 `json:"page_ms"` // since the page started loading
	Error        string  `json:"error,omitempty"`
}

// RenderCheck is FirstRender's verdict.
type RenderCheck struct {
	OK        bool    `json:"ok"`
	Expected  float64 `json:"expected_total"`
	StartupMs int64   `json:"startup_ms"` // from process start to the report
	Message   string  `json:"message"`
}

// selfTest is a --self-test run: the first render report decides the exit
// code.
type selfTest struct {
	done chan RenderCheck
}

func newSelfTest() *selfTest { return &selfTest{done: make(chan RenderCheck, 1)} }

// FirstRender is called by the window once the overview has rendered data
// (desktop only). It checks the rendered total against the Service's own
// analysis of the same period, logs the start-up time and, in a self-test
// run, ends the app with the verdict.
func (b *Bindings) FirstRender(r RenderReport) (RenderCheck, error) {
	ctx, cancel := context.WithTimeout(b.local(), callTimeout)
	defer cancel()
	c := checkRender(ctx, b.svc, r)
	c.StartupMs = time.Since(b.started).Milliseconds()
	log := b.svc.Logger()
	if c.OK {
		log.Info("first data rendered", "total", r.RenderedText, "startup_ms", c.StartupMs, "page_ms", int64(r.PageMs), "check", "ok")
	} else {
		log.Error("first data rendered", "total", r.RenderedText, "startup_ms", c.StartupMs, "check", "failed", "reason", c.Message)
	}
	if b.selfTest != nil {
		select {
		case b.selfTest.done <- c:
		default: // only the first report counts
		}
	}
	return c, nil
}

// checkRender compares what the window rendered with svc.AnalyzeCosts over
// the same period and metric.
func checkRender(ctx context.Context, svc *service.Service, r RenderReport) RenderCheck {
	fail := func(format string, args ...any) RenderCheck {
		return RenderCheck{Message: fmt.Sprintf(format, args...)}
	}
	if r.Error != "" {
		return fail("the overview failed to load: %s", r.Error)
	}
	start, err1 := time.Parse(model.TimestampLayout, r.StartDate)
	end, err2 := time.Parse(model.TimestampLayout, r.EndDate)
	if err1 != nil || err2 != nil {
		return fail("the report's period %q to %q is not in %s", r.StartDate, r.EndDate, model.TimestampLayout)
	}
	a, err := svc.AnalyzeCosts(ctx, model.CostQuery{Period: model.Period{Start: start, End: end}, Metric: model.CostMetric(r.Metric)})
	if err != nil {
		return fail("the service cannot analyze the same period: %v", err)
	}
	want := a.Summary.TotalCost
	c := RenderCheck{Expected: want}
	shown, ok := parseAmount(r.RenderedText)
	switch {
	case want <= 0:
		c.Message = "the service has no cost data for the period"
	case math.Abs(r.TotalCost-want) > 1e-9*math.Max(1, math.Abs(want)):
		c.Message = fmt.Sprintf("the bound call returned %.6f, the service computes %.6f", r.TotalCost, want)
	case !ok:
		c.Message = fmt.Sprintf("the rendered total %q is not an amount", r.RenderedText)
	case math.Abs(shown-want) > 0.0051:
		c.Message = fmt.Sprintf("the overview shows %s, the service computes %.2f", r.RenderedText, want)
	default:
		c.OK = true
		c.Message = fmt.Sprintf("the overview shows %s, matching the service", r.RenderedText)
	}
	return c
}

// parseAmount reads a formatted amount such as "$12,345.67" or "-€3.10"
// (the UI formats with en-US separators).
func parseAmount(s string) (float64, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r == '.':
			b.WriteRune(r)
		case r == '-' || r == '\u2212':
			if b.Len() == 0 {
				b.WriteByte('-')
			}
		}
	}
	v, err := strconv.ParseFloat(b.String(), 64)
	return v, err == nil && !math.IsNaN(v)
}
