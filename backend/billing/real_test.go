package billing

import (
	"context"
	"encoding/csv"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// sharedDir finds the repository's testdata/real, the real samples kept
// with their licences.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root (go.mod) not found")
		}
		dir = parent
	}
	real := filepath.Join(dir, "testdata", "real")
	if _, err := os.Stat(real); err != nil {
		t.Fatalf("real samples missing from the repository: %v", err)
	}
	return real
}

// refSums is the test's own decimal sum: provider -> currency -> [billed, effective].
type refSums map[model.ProviderKey]map[string][2]*big.Rat

func (r refSums) add(p model.ProviderKey, cur string, billed, effective string) error {
	if r[p] == nil {
		r[p] = map[string][2]*big.Rat{}
	}
	s, ok := r[p][cur]
	if !ok {
		s = [2]*big.Rat{new(big.Rat), new(big.Rat)}
		r[p][cur] = s
	}
	for i, v := range []string{billed, effective} {
		v = strings.TrimSpace(v)
		if v == "" || v == "NULL" {
			continue
		}
		x, ok := new(big.Rat).SetString(v)
		if !ok {
			return &big.ErrNaN{}
		}
		s[i].Add(s[i], x)
	}
	return nil
}

// readCSV returns the header index and the records of a CSV file via
// encoding/csv: code independent of the parser under test.
func readCSV(t *testing.T, r io.Reader) (map[string]int, [][]string) {
	t.Helper()
	cr := csv.NewReader(r)
	cr.LazyQuotes = true
	all, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, h := range all[0] {
		idx[strings.TrimPrefix(h, "\ufeff")] = i
	}
	return idx, all[1:]
}

// readCSVFile is readCSV of the file at path.
func readCSVFile(t *testing.T, path string) (map[string]int, [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readCSV(t, f)
}

// assertTotals compares parsed totals to the reference within 1e-6 relative.
func assertTotals(t *testing.T, got map[model.ProviderKey]map[string]Totals, want refSums) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("providers: got %d, want %d (%v)", len(got), len(want), got)
	}
	for p, curs := range want {
		for cur, w := range curs {
			g, ok := got[p][cur]
			if !ok {
				t.Errorf("%s %s: missing from totals", p, cur)
				continue
			}
			for i, v := range []model.Nanos{g.Billed, g.Effective} {
				gr := new(big.Rat).SetFrac(big.NewInt(int64(v)), big.NewInt(model.NanosPerUnit))
				diff := new(big.Rat).Sub(gr, w[i])
				diff.Abs(diff)
				tol := new(big.Rat).Mul(new(big.Rat).Abs(w[i]), big.NewRat(1, 1_000_000))
				if tol.Sign() == 0 {
					tol = big.NewRat(1, 1_000_000_000)
				}
				if diff.Cmp(tol) > 0 {
					t.Errorf("%s %s %s: got %s, want %s", p, cur, []string{"billed", "effective"}[i], v, w[i].FloatString(12))
				}
			}
		}
	}
}

func TestRealSamples(t *testing.T) {
	dir := sharedDir(t)
	tests := []struct {
		name, file, format string
		ref                func(idx map[string]int, rec []string, r refSums) error
	}{
		{"focus", "focus-1.0-sample-aws-azure-oci.csv", FormatFOCUS, func(idx map[string]int, rec []string, r refSums) error {
			p := map[string]model.ProviderKey{"AWS": model.AWS, "Microsoft": model.Azure, "Oracle": model.OCI}[rec[idx["ProviderName"]]]
			eff := rec[idx["EffectiveCost"]]
			if eff == "NULL" || eff == "" {
				eff = rec[idx["BilledCost"]]
			}
			return r.add(p, rec[idx["BillingCurrency"]], rec[idx["BilledCost"]], eff)
		}},
		{"aws-cur", "aws-cur-legacy-sample.csv", FormatCUR, func(idx map[string]int, rec []string, r refSums) error {
			return r.add(model.AWS, rec[idx["lineItem/CurrencyCode"]], rec[idx["lineItem/UnblendedCost"]], curRefEffective(idx, rec))
		}},
		{"azure", "azure-ea-export-sample.csv", FormatAzure, func(idx map[string]int, rec []string, r refSums) error {
			return r.add(model.Azure, rec[idx["BillingCurrencyCode"]], rec[idx["CostInBillingCurrency"]], rec[idx["CostInBillingCurrency"]])
		}},
		{"oci", "oci-cost-report-sample.csv", FormatOCI, func(idx map[string]int, rec []string, r refSums) error {
			return r.add(model.OCI, rec[idx["cost/currencyCode"]], rec[idx["cost/myCost"]], rec[idx["cost/myCost"]])
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			idx, recs := readCSVFile(t, path)
			want := refSums{}
			for _, rec := range recs {
				if err := tt.ref(idx, rec, want); err != nil {
					t.Fatal(err)
				}
			}
			res, err := ParseFile(context.Background(), path, Options{})
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if res.Format != tt.format {
				t.Errorf("format %q, want %q", res.Format, tt.format)
			}
			if res.Rows != int64(len(recs)) {
				t.Errorf("rows %d, want %d", res.Rows, len(recs))
			}
			assertTotals(t, res.Totals, want)
			checkBatches(t, res)
		})
	}
}

// curRefEffective is the FOCUS amortized cost of a CUR row, written
// independently of curMapper from the conversion rules.
func curRefEffective(idx map[string]int, rec []string) string {
	return curRefEffectiveBy(func(c string) string {
		if i, ok := idx[c]; ok {
			return rec[i]
		}
		return ""
	})
}

// curRefEffectiveBy reads cells by their legacy CUR names.
func curRefEffectiveBy(get func(string) string) string {
	num := func(c string) *big.Rat {
		x, ok := new(big.Rat).SetString(get(c))
		if !ok {
			return new(big.Rat)
		}
		return x
	}
	switch get("lineItem/LineItemType") {
	case "SavingsPlanCoveredUsage":
		return get("savingsPlan/SavingsPlanEffectiveCost")
	case "DiscountedUsage":
		return get("reservation/EffectiveCost")
	case "SavingsPlanNegation", "SavingsPlanUpfrontFee":
		return "0"
	case "SavingsPlanRecurringFee":
		return new(big.Rat).Sub(num("savingsPlan/TotalCommitmentToDate"), num("savingsPlan/UsedCommitment")).FloatString(20)
	case "RIFee":
		return new(big.Rat).Add(num("reservation/UnusedAmortizedUpfrontFeeForBillingPeriod"), num("reservation/UnusedRecurringFee")).FloatString(20)
	case "Fee":
		if get("reservation/ReservationARN") != "" {
			return "0"
		}
	}
	return get("lineItem/UnblendedCost")
}

// checkBatches asserts the batch invariants the store relies on.
func checkBatches(t *testing.T, res FileResult) {
	t.Helper()
	if len(res.Batches) != len(res.Totals) {
		t.Errorf("%d batches for %d providers", len(res.Batches), len(res.Totals))
	}
	for _, b := range res.Batches {
		if b.Source != model.SourceExport || !b.Provider.Valid() || b.From == "" || b.To < b.From || len(b.Accounts) == 0 {
			t.Errorf("bad batch header %+v", model.Batch{Provider: b.Provider, Source: b.Source, From: b.From, To: b.To, Accounts: b.Accounts})
		}
		seen := map[string]bool{}
		accts := map[string]bool{}
		for _, a := range b.Accounts {
			accts[a] = true
		}
		ls := expand(b)
		for i := range ls {
			l := &ls[i]
			if l.Provider != b.Provider || l.Day < b.From || l.Day > b.To || !accts[l.BillingAccount] {
				t.Fatalf("line outside its batch: %+v (batch %s %s..%s)", l, b.Provider, b.From, b.To)
			}
			k := l.Day + "\x1f" + l.IdentityKey()
			if seen[k] {
				t.Fatalf("duplicate daily-grain key %q", k)
			}
			seen[k] = true
		}
	}
}
