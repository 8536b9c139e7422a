package service

import (
	"encoding/csv"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// focusSampleNames reads the FOCUS sample's resource names straight from
// the CSV: resource id to ResourceName.
func focusSampleNames(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	idCol, nameCol := slices.Index(recs[0], "ResourceId"), slices.Index(recs[0], "ResourceName")
	out := map[string]string{}
	for _, r := range recs[1:] {
		if n := r[nameCol]; n != "" && n != "NULL" && n != r[idCol] {
			out[r[idCol]] = n
		}
	}
	return out
}

// TestImportedResourceNames: importing the published FOCUS sample shows
// its ResourceName values beside the ids in the cost analysis, the
// resource groups, and the comprehensive PDF report (pdftotext).
func TestImportedResourceNames(t *testing.T) {
	path := sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv")
	want := focusSampleNames(t, path)
	if len(want) == 0 {
		t.Fatal("the sample names no resource")
	}
	s := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	const start, end = "2023-07-01", "2026-06-09"
	a, err := s.Costs(ctx, CostRequest{Start: start, End: end, GroupBy: "resource"})
	if err != nil {
		t.Fatal(err)
	}
	var named []model.ResourceCost
	for _, r := range a.Providers[model.Azure].Resources {
		if w, ok := want[r.ResourceID]; ok {
			if r.ResourceName != w {
				t.Errorf("%s named %q, want %q", r.ResourceID, r.ResourceName, w)
			}
			named = append(named, r)
		} else if r.ResourceName != "" {
			t.Errorf("%s named %q, the sample names it not", r.ResourceID, r.ResourceName)
		}
	}
	if len(named) == 0 {
		t.Fatal("no named resource in the analysis")
	}
	labelled := 0
	for _, g := range a.Summary.Groups {
		if w, ok := want[g.Key]; ok {
			if g.Label != w+" ("+g.Key+")" {
				t.Errorf("group %s labelled %q", g.Key, g.Label)
			}
			labelled++
		}
	}
	if labelled == 0 {
		t.Errorf("no resource group labelled with its name: %+v", a.Summary.Groups)
	}

	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed")
	}
	res, err := s.GenerateReport(ctx, model.ReportRequest{Type: model.ReportComprehensive, Format: model.FormatPDF,
		Start: start, End: end, Providers: []model.ProviderKey{model.Azure}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", res.Path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := string(out)
	// The report lists the top resources: those of them the sample names
	// show their names.
	shown := 0
	for _, r := range named[:min(len(named), 5)] {
		if strings.Contains(text, r.ResourceName) {
			shown++
		}
	}
	if shown == 0 {
		t.Errorf("none of the top named resources (%s…) is in the PDF:\n%s", named[0].ResourceName, text)
	}
}
