package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportListAndDelete: a report of last month for one provider is
// listed with its period and provider; DELETE removes it (audited) and a
// second DELETE, a link named like a report or a bad name are refused
// without touching anything else.
func TestReportListAndDelete(t *testing.T) {
	e := newEnv(t, nil)
	ck := e.mustLogin()
	res := e.do(req{method: "POST", path: "/api/reports", cookie: ck, body: `{"type":"summary","format":"json","period":"last_month","providers":["aws"]}`})
	var rr struct {
		ReportPath string `json:"report_path"`
	}
	if err := json.Unmarshal([]byte(res.body), &rr); err != nil || res.status != 200 {
		t.Fatalf("generate: %s", fmtRes(res))
	}
	if !strings.Contains(rr.ReportPath, "-aws-") {
		t.Errorf("name %q lacks the provider", rr.ReportPath)
	}
	res = e.do(req{path: "/api/reports", cookie: ck})
	var list []struct {
		Name, Start, End string
		Providers        []string
	}
	if err := json.Unmarshal([]byte(res.body), &list); err != nil || len(list) != 1 {
		t.Fatalf("list: %s", fmtRes(res))
	}
	if l := list[0]; l.Name != rr.ReportPath || l.Start == "" || !strings.HasSuffix(l.Start, "-01") || l.End < l.Start ||
		len(l.Providers) != 1 || l.Providers[0] != "aws" {
		t.Errorf("listed %+v", l)
	}
	target := filepath.Join(t.TempDir(), "keep.txt")
	if err := os.WriteFile(target, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := "costpilot-summary-20260101T000000Z.json"
	if err := os.Symlink(target, filepath.Join(e.svc.OutputDir(), link)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		status     int
	}{
		{"delete", "/api/reports/" + rr.ReportPath, 200},
		{"deleted already", "/api/reports/" + rr.ReportPath, 404},
		{"link named like a report", "/api/reports/" + link, 404},
		{"not a report name", "/api/reports/costpilot.db", 404},
		{"traversal", "/api/reports/..%2Fcostpilot.db", 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.do(req{method: "DELETE", path: tt.path, cookie: ck})
			if res.status != tt.status {
				t.Fatalf("DELETE %s: %s", tt.path, fmtRes(res))
			}
			if _, ok := res.errorShape(); tt.status != 200 && !ok {
				t.Errorf("no error shape: %s", fmtRes(res))
			}
		})
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the link's target is gone: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(e.svc.OutputDir(), rr.ReportPath)); !os.IsNotExist(err) {
		t.Errorf("the report is still there: %v", err)
	}
	res = e.do(req{path: "/api/audit", cookie: ck})
	if !strings.Contains(res.body, `"report_delete"`) || !strings.Contains(res.body, rr.ReportPath) {
		t.Errorf("audit log lacks the deletion: %s", fmtRes(res))
	}
}

// TestResourceEndpoints: a page of every resource with the count in all,
// and the CSV of every one, streamed as an attachment.
func TestResourceEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	ck := e.mustLogin()
	res := e.do(req{path: "/api/costs/resources?period=last_month&limit=5&offset=2", cookie: ck})
	var page struct {
		Total, Offset, Limit int
		Resources            []struct {
			Provider   string `json:"provider"`
			ResourceID string `json:"resource_id"`
		}
	}
	if err := json.Unmarshal([]byte(res.body), &page); err != nil || res.status != 200 || page.Total < 7 || page.Offset != 2 || page.Limit != 5 || len(page.Resources) != 5 {
		t.Fatalf("page: %s", fmtRes(res))
	}
	res = e.do(req{path: "/api/costs/resources.csv?period=last_month", cookie: ck})
	lines := strings.Split(strings.TrimSpace(res.body), "\n")
	if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(res.header.Get("Content-Disposition"), "attachment") || len(lines) != page.Total+1 {
		t.Fatalf("CSV: %d lines for %d resources: %s", len(lines), page.Total, fmtRes(res))
	}
	if res := e.do(req{path: "/api/costs/resources?limit=0x", cookie: ck}); res.status != 400 {
		t.Errorf("bad limit: %s", fmtRes(res))
	}
}
