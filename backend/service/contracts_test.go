package service

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/contracts"
	"github.com/costpilot/costpilot/backend/model"
)

// TestContractCommitments: a FOCUS 1.3 contract commitment dataset and
// cost rows with ContractApplied, imported in one go, give each
// commitment the amounts its rows applied (the history still holds every
// cost row); importing the rows again changes nothing; a bad dataset row
// names its line and keeps what was stored.
func TestContractCommitments(t *testing.T) {
	s := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	dir := filepath.Join("..", "contracts", "testdata")
	files := []string{filepath.Join(dir, "commitments.csv"), filepath.Join(dir, "costs.csv")}
	var res ImportResult
	var err error
	for range 2 {
		if res, err = s.ImportFiles(ctx, files, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if len(res.Files) != 2 || res.Files[0].Format != FormatContracts || res.Files[0].Rows != 3 || res.Files[1].Rows != 3 {
		t.Fatalf("files: %+v", res.Files)
	}
	list, err := s.Contracts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.ContractCommitment{}
	for _, c := range list {
		got[c.ID] = c
	}
	if c := got["cc-spend-2026"]; len(list) != 3 || c.AppliedExact != "150.750000000" || c.Rows != 2 || c.Committed != 1000 {
		t.Errorf("spend: %+v (of %d)", c, len(list))
	}
	if c := got["cc-hours-q2"]; c.AppliedQuantity != 36 || c.Share != 36.0/500 || c.Unit != "Hours" {
		t.Errorf("hours: %+v", c)
	}
	if c := got["cc-anthropic"]; c.Provider != "anthropic" || c.Rows != 0 {
		t.Errorf("anthropic: %+v", c)
	}
	// The history holds all three cost rows, applied or not.
	a, err := s.Costs(ctx, CostRequest{Start: "2026-04-01", End: "2026-05-31"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Summary.TotalCost != 170.75 {
		t.Errorf("history total %v, the rows sum to 170.75", a.Summary.TotalCost)
	}
	bad := filepath.Join(t.TempDir(), "commitments.csv")
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(strings.Replace(string(data), ",Usage,", ",Hours,", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = s.ImportFiles(ctx, []string{bad}, ImportOptions{})
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Details["line"] != int64(3) || ae.Details["column"] != "ContractCommitmentCategory" {
		t.Fatalf("bad row: %v", err)
	}
	if after, _ := s.Contracts(ctx); len(after) != 3 {
		t.Errorf("a refused file changed the commitments: %d", len(after))
	}
	// A dry run reads the dataset and stores nothing.
	fresh := openFresh(t, exportConfig(t))
	if res, err := fresh.ImportFiles(ctx, files[:1], ImportOptions{DryRun: true}); err != nil || res.Files[0].Rows != 3 {
		t.Fatalf("dry run: %+v %v", res, err)
	}
	if list, _ := fresh.Contracts(ctx); len(list) != 0 {
		t.Errorf("a dry run stored %d commitments", len(list))
	}
	if c := got["cc-spend-2026"]; c.Status == "" || (c.Status != contracts.StatusAtRisk && c.Status != contracts.StatusOnTrack && c.Status != contracts.StatusShort) {
		t.Errorf("spend status %q", c.Status)
	}
}
