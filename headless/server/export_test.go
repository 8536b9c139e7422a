package server

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
)

// TestExportFOCUS: GET /api/export/focus streams a FOCUS CSV file of the
// period asked for, refuses a request without credentials, and answers a
// bad request with a JSON error instead of a file.
func TestExportFOCUS(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	token := e.token()
	res := e.do(req{path: "/api/export/focus?days=7&provider=aws", bearer: token})
	if res.status != http.StatusOK || !strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(res.header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("export: %s", fmtRes(res))
	}
	recs, err := csv.NewReader(strings.NewReader(res.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 2 || recs[0][0] != "AllocatedMethodDetails" || recs[0][6] != "BilledCost" {
		t.Fatalf("%d records, header %v", len(recs), recs[0])
	}
	provider := -1
	for i, h := range recs[0] {
		if h == "x_CostpilotProvider" {
			provider = i
		}
	}
	for _, r := range recs[1:] {
		if r[provider] != "aws" {
			t.Fatalf("a row of %s in an AWS export", r[provider])
		}
	}
	if res := e.do(req{path: "/api/export/focus?days=7"}); res.status != http.StatusUnauthorized {
		t.Fatalf("without credentials: %s", fmtRes(res))
	}
	res = e.do(req{path: "/api/export/focus?period=weekly", bearer: token})
	if res.status != http.StatusBadRequest || !strings.Contains(res.body, "period") || strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("bad period: %s", fmtRes(res))
	}
}
