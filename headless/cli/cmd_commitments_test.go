package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// TestCommitmentsCommand: the JSON is the API's shape with a row per
// demo commitment type and the totals; the table shows them and the
// expiring list; a bad period is a usage error.
func TestCommitmentsCommand(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "commitments", "--days", "30", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Providers []struct {
			Provider string   `json:"provider"`
			Type     string   `json:"type"`
			Coverage *float64 `json:"coverage"`
		} `json:"providers"`
		Expiring []struct {
			DaysLeft int `json:"days_left"`
		} `json:"expiring"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not JSON alone: %v\n%s", err, out)
	}
	if len(rep.Providers) != 11 || len(rep.Expiring) == 0 {
		t.Fatalf("report %+v", rep)
	}
	for _, p := range rep.Providers {
		if p.Coverage == nil || *p.Coverage <= 0 {
			t.Fatalf("row without coverage: %+v", p)
		}
	}
	code, out, errs = run(t, "commitments", "--data-dir", data)
	if code != 0 || !strings.Contains(out, "Savings Plan") || !strings.Contains(out, "Expiring within 90 days") {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
	if code, _, _ := run(t, "commitments", "--days", "0", "--data-dir", data); code != 2 {
		t.Fatalf("--days 0: exit %d, want 2", code)
	}
	// A calendar period: last month, from its first day to its last.
	code, out, errs = run(t, "commitments", "--period", "last_month", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("--period last_month: exit %d: %s", code, errs)
	}
	var cal struct {
		Period struct {
			Start string `json:"start_date"`
			End   string `json:"end_date"`
		} `json:"period"`
	}
	if err := json.Unmarshal([]byte(out), &cal); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	want := [2]string{first.AddDate(0, -1, 0).Format(time.DateOnly), first.AddDate(0, 0, -1).Format(time.DateOnly)}
	if got := [2]string{cal.Period.Start, cal.Period.End}; got != want {
		t.Fatalf("last month = %v, want %v", got, want)
	}
	if code, _, errs := run(t, "commitments", "--period", "weekly", "--data-dir", data); code != 2 || !strings.Contains(errs, "last_month") {
		t.Fatalf("--period weekly: exit %d, %s", code, errs)
	}
}

// TestCommitmentsNotes: the table says why a provider is not reported.
func TestCommitmentsNotes(t *testing.T) {
	rep := model.CommitmentReport{Providers: []model.CommitmentSummary{
		{Provider: model.OCI, Source: model.SourceAPI, Reported: false, Note: "not reported: the Usage API says nothing of commitments"},
	}}
	var b strings.Builder
	printCommitments(&b, rep, 0)
	if !strings.Contains(b.String(), "oci: not reported: the Usage API says nothing of commitments") {
		t.Errorf("output does not give the reason:\n%s", b.String())
	}
}

// TestCommitmentsCoverageUnknown: a source without on-demand prices shows
// its coverage and savings as unknown, not as zero, and says why.
func TestCommitmentsCoverageUnknown(t *testing.T) {
	u := 0.5
	rep := model.CommitmentReport{Currency: "EUR", Providers: []model.CommitmentSummary{
		{Provider: model.Azure, Source: model.SourceAPI, Reported: true, CoverageUnknown: true, Utilization: &u, UnusedCost: 3,
			Note: "coverage and savings unknown: no on-demand price"},
	}}
	var b strings.Builder
	printCommitments(&b, rep, 0)
	var row []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "azure ") {
			row = strings.Fields(l)
			break
		}
	}
	want := []string{"azure", "all", "-", "50.0%", money(3, "EUR"), "-", "-"}
	if strings.Join(row, "|") != strings.Join(strings.Fields(strings.Join(want, " ")), "|") {
		t.Errorf("row = %q, want %q\n%s", row, want, b.String())
	}
	if !strings.Contains(b.String(), "azure: coverage and savings unknown") {
		t.Errorf("output does not give the reason:\n%s", b.String())
	}
}
