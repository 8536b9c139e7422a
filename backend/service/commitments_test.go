package service

import (
	"encoding/csv"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// expected are the independent figures of one provider and commitment type
// ("" for the provider's total): exact ratios and amounts, nil ratios
// where the denominator is zero.
type expected struct {
	coverage, utilization, esr *big.Rat
	unused                     *big.Rat
	basis                      string
}

// rat parses a decimal cell; an empty or NULL cell is zero.
func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	if s == "" || s == "NULL" {
		return new(big.Rat)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("not a number: %q", s)
	}
	return r
}

func csvRows(t *testing.T, path string) []map[string]string {
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
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[strings.TrimPrefix(h, "\ufeff")] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func quo(a, b *big.Rat) *big.Rat {
	if b.Sign() == 0 {
		return nil
	}
	return new(big.Rat).Quo(a, b)
}

func add(dst *big.Rat, xs ...*big.Rat) {
	for _, x := range xs {
		dst.Add(dst, x)
	}
}

func sub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }

// byTime reports a pricing unit of time (the usage commitments are sold for).
func byTime(unit string) bool {
	u := strings.ToLower(unit)
	return strings.Contains(u, "hour") || strings.Contains(u, "hrs") || strings.Contains(u, "second")
}

// curExpected computes a legacy CUR's commitment figures as AWS defines
// them: RI utilization = (TotalReservedUnits - UnusedQuantity) /
// TotalReservedUnits of the RIFee rows; Savings Plans utilization =
// UsedCommitment / TotalCommitmentToDate of the SavingsPlanRecurringFee
// rows; coverage = on-demand-equivalent cost (pricing/publicOnDemandCost)
// of covered usage / that of all eligible usage (covered, plus time-priced
// on-demand Usage of the compute and database services: EC2, RDS, Lambda
// are the only ones the fixtures hold).
func curExpected(t *testing.T, path string) map[string]expected {
	eligibleService := map[string]bool{"AmazonEC2": true, "AmazonRDS": true, "AWSLambda": true}
	type sums struct{ covered, coveredCost, used, bought, unused, units, unusedUnits big.Rat }
	by := map[string]*sums{"Reserved Instance": {}, "Savings Plan": {}}
	onDemand := new(big.Rat)
	for _, r := range csvRows(t, path) {
		pod := rat(t, r["pricing/publicOnDemandCost"])
		switch r["lineItem/LineItemType"] {
		case "DiscountedUsage":
			s := by["Reserved Instance"]
			add(&s.covered, pod)
			add(&s.coveredCost, rat(t, r["reservation/EffectiveCost"]))
		case "SavingsPlanCoveredUsage":
			s := by["Savings Plan"]
			add(&s.covered, pod)
			add(&s.coveredCost, rat(t, r["savingsPlan/SavingsPlanEffectiveCost"]))
		case "RIFee":
			s := by["Reserved Instance"]
			bought := new(big.Rat).Add(rat(t, r["reservation/AmortizedUpfrontFeeForBillingPeriod"]), rat(t, r["lineItem/UnblendedCost"]))
			unused := new(big.Rat).Add(rat(t, r["reservation/UnusedAmortizedUpfrontFeeForBillingPeriod"]), rat(t, r["reservation/UnusedRecurringFee"]))
			add(&s.bought, bought)
			add(&s.unused, unused)
			add(&s.used, sub(bought, unused))
			add(&s.units, rat(t, r["reservation/TotalReservedUnits"]))
			add(&s.unusedUnits, rat(t, r["reservation/UnusedQuantity"]))
		case "SavingsPlanRecurringFee":
			s := by["Savings Plan"]
			total, used := rat(t, r["savingsPlan/TotalCommitmentToDate"]), rat(t, r["savingsPlan/UsedCommitment"])
			add(&s.bought, total)
			add(&s.used, used)
			add(&s.unused, sub(total, used))
		case "Usage":
			if eligibleService[r["lineItem/ProductCode"]] && byTime(r["pricing/unit"]) {
				add(onDemand, pod)
			}
		}
	}
	eligible := new(big.Rat).Set(onDemand)
	all := &sums{}
	for _, s := range by {
		add(eligible, &s.covered)
		add(&all.covered, &s.covered)
		add(&all.coveredCost, &s.coveredCost)
		add(&all.used, &s.used)
		add(&all.bought, &s.bought)
		add(&all.unused, &s.unused)
	}
	out := map[string]expected{}
	for typ, s := range map[string]*sums{"": all, "Reserved Instance": by["Reserved Instance"], "Savings Plan": by["Savings Plan"]} {
		e := expected{coverage: quo(&s.covered, eligible), unused: &s.unused, basis: "cost", utilization: quo(&s.used, &s.bought)}
		if typ == "Reserved Instance" {
			e.basis, e.utilization = "hours", quo(sub(&s.units, &s.unusedUnits), &s.units)
		}
		e.esr = quo(sub(sub(&s.covered, &s.coveredCost), &s.unused), eligible)
		if s.bought.Sign() == 0 && s.covered.Sign() == 0 {
			continue // no such commitments: no row
		}
		out[typ] = e
	}
	if _, ok := out[""]; !ok {
		out[""] = expected{coverage: quo(new(big.Rat), eligible), unused: new(big.Rat), esr: quo(new(big.Rat), eligible)}
	}
	return out
}

// focusExpected computes a FOCUS file's commitment figures per provider
// and CommitmentDiscountType as FOCUS defines them: utilization =
// EffectiveCost of the Usage rows with CommitmentDiscountStatus Used /
// EffectiveCost of those Used and Unused; coverage = ListCost of the Used
// rows / ListCost of all eligible usage (Used rows, plus Usage rows with
// no commitment discount of ServiceCategory Compute or Databases priced by
// time).
func focusExpected(t *testing.T, path string) map[model.ProviderKey]map[string]expected {
	providers := map[string]model.ProviderKey{"AWS": model.AWS, "Microsoft": model.Azure, "Oracle": model.OCI}
	type sums struct{ covered, coveredCost, used, unused big.Rat }
	type pk struct {
		p   model.ProviderKey
		typ string
	}
	by := map[pk]*sums{}
	onDemand := map[model.ProviderKey]*big.Rat{}
	get := func(k pk) *sums {
		if by[k] == nil {
			by[k] = &sums{}
		}
		return by[k]
	}
	for _, r := range csvRows(t, path) {
		p := providers[r["ProviderName"]]
		if onDemand[p] == nil {
			onDemand[p] = new(big.Rat)
		}
		if r["ChargeCategory"] != "Usage" {
			continue
		}
		id := r["CommitmentDiscountId"]
		if id == "" || id == "NULL" {
			d := r["ChargeDescription"]
			notCovered := strings.Contains(d, "NAT Gateway") || strings.Contains(d, "Extended Support") || strings.Contains(d, "Defender for")
			if (r["ServiceCategory"] == "Compute" || r["ServiceCategory"] == "Databases") && byTime(r["PricingUnit"]) && !notCovered {
				add(onDemand[p], rat(t, r["ListCost"]))
			}
			continue
		}
		eff := rat(t, r["EffectiveCost"])
		for _, typ := range []string{"", r["CommitmentDiscountType"]} {
			s := get(pk{p, typ})
			if r["CommitmentDiscountStatus"] == "Unused" {
				add(&s.unused, eff)
				continue
			}
			add(&s.covered, rat(t, r["ListCost"]))
			add(&s.coveredCost, eff)
			add(&s.used, eff)
		}
	}
	out := map[model.ProviderKey]map[string]expected{}
	for p, od := range onDemand {
		out[p] = map[string]expected{}
		eligible := new(big.Rat).Set(od)
		if s := by[pk{p, ""}]; s != nil {
			add(eligible, &s.covered)
		} else {
			by[pk{p, ""}] = &sums{}
		}
		for k, s := range by {
			if k.p != p {
				continue
			}
			out[p][k.typ] = expected{coverage: quo(&s.covered, eligible), unused: &s.unused, basis: "cost",
				utilization: quo(&s.used, new(big.Rat).Add(&s.used, &s.unused)),
				esr:         quo(sub(sub(&s.covered, &s.coveredCost), &s.unused), eligible)}
		}
	}
	return out
}

func nearRat(got *float64, want *big.Rat) bool {
	if want == nil || got == nil {
		return want == nil && got == nil
	}
	w, _ := want.Float64()
	return math.Abs(*got-w) <= 1e-9*math.Max(1, math.Abs(w))
}

func fmtRat(r *big.Rat) string {
	if r == nil {
		return "undefined"
	}
	return r.FloatString(12)
}

func fmtF(f *float64) string {
	if f == nil {
		return "undefined"
	}
	return big.NewFloat(*f).Text('g', 12)
}

// checkReport compares a report's rows of provider p with want, row for row.
func checkReport(t *testing.T, rep model.CommitmentReport, p model.ProviderKey, want map[string]expected) {
	t.Helper()
	got := map[string]model.CommitmentSummary{}
	for _, s := range rep.Providers {
		if s.Provider == p {
			got[s.Type] = s
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s: rows %v, want types %v", p, got, want)
	}
	for typ, w := range want {
		g, ok := got[typ]
		if !ok {
			t.Fatalf("%s: no row of type %q", p, typ)
		}
		if !nearRat(g.Coverage, w.coverage) {
			t.Errorf("%s %q: coverage %s, independently %s", p, typ, fmtF(g.Coverage), fmtRat(w.coverage))
		}
		if !nearRat(g.Utilization, w.utilization) {
			t.Errorf("%s %q: utilization %s, independently %s", p, typ, fmtF(g.Utilization), fmtRat(w.utilization))
		}
		if w.utilization != nil && g.UtilizationBasis != w.basis {
			t.Errorf("%s %q: utilization basis %q, want %q", p, typ, g.UtilizationBasis, w.basis)
		}
		if !nearRat(g.EffectiveSavingsRate, w.esr) {
			t.Errorf("%s %q: effective savings rate %s, independently %s", p, typ, fmtF(g.EffectiveSavingsRate), fmtRat(w.esr))
		}
		if u := g.UnusedCost; !nearRat(&u, w.unused) {
			t.Errorf("%s %q: unused cost %v, independently %s", p, typ, u, fmtRat(w.unused))
		}
	}
}

func importAndReport(t *testing.T, path, start, end string) model.CommitmentReport {
	t.Helper()
	s := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := s.CommitmentPeriod(CommitmentRequest{Start: start, End: end})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Commitments(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCommitmentsOfLegacyCUR is the acceptance test on the legacy CUR:
// AWS's published sample (which holds no DiscountedUsage, RIFee or
// Savings Plans rows, and no time-priced compute: every ratio is
// undefined, and the test says so) and a fixture with the sample's
// columns and DiscountedUsage, RIFee, SavingsPlanCoveredUsage and
// SavingsPlanRecurringFee rows.
func TestCommitmentsOfLegacyCUR(t *testing.T) {
	tests := []struct {
		name, path, start, end string
		types                  int
	}{
		{"published sample", sharedFile(t, "aws-cur-legacy-sample.csv"), "2023-11-01", "2023-11-30", 1},
		{"fixture with commitments", filepath.Join("testdata", "commitments", "aws-cur-legacy-commitments.csv"), "2026-05-01", "2026-05-31", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := curExpected(t, tt.path)
			if len(want) != tt.types {
				t.Fatalf("independently %d rows, want %d", len(want), tt.types)
			}
			rep := importAndReport(t, tt.path, tt.start, tt.end)
			checkReport(t, rep, model.AWS, want)
		})
	}
	// The fixture's terms: one RI ends in 15 days, the plan in 40, the
	// other RI next year (testNow is 2026-06-10).
	rep := importAndReport(t, tests[1].path, tests[1].start, tests[1].end)
	if len(rep.Expiring) != 2 || rep.Expiring[0].DaysLeft != 15 || !rep.Expiring[0].ExpiringWithin30 ||
		rep.Expiring[1].DaysLeft != 40 || rep.Expiring[1].ExpiringWithin30 || rep.Expiring[1].Type != "Savings Plan" {
		t.Fatalf("expiring = %+v", rep.Expiring)
	}
}

// TestCommitmentsOfFOCUS is the acceptance test on FOCUS files: the
// published FOCUS 1.0 sample (four Savings Plan rows with status Used and
// zero EffectiveCost, no Unused rows: utilization undefined) and a fixture
// with its columns, Used and Unused rows of an AWS Savings Plan and an
// Azure reservation, and a purchase.
func TestCommitmentsOfFOCUS(t *testing.T) {
	tests := []struct {
		name, path, start, end string
	}{
		{"published sample", sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv"), "2024-09-01", "2024-09-30"},
		{"fixture with commitments", filepath.Join("testdata", "commitments", "focus-1.0-commitments.csv"), "2026-05-01", "2026-05-31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := focusExpected(t, tt.path)
			rep := importAndReport(t, tt.path, tt.start, tt.end)
			for p, w := range want {
				checkReport(t, rep, p, w)
			}
			if tt.name == "fixture with commitments" {
				if w := want[model.Azure]["Reservation"]; w.utilization == nil || w.utilization.Cmp(big.NewRat(3, 5)) != 0 {
					t.Fatalf("the fixture's reservation: utilization %s, want 3/5", fmtRat(w.utilization))
				}
				for _, s := range rep.Providers {
					if s.Provider == model.AWS && s.Type == "" && s.ExpiryUnknown != 1 {
						t.Fatalf("FOCUS gives no end of term: %+v", s)
					}
				}
			}
		})
	}
}

// TestCommitmentsOfDemo checks the demo's commitments reach the report:
// every cloud has coverage and utilization strictly between 0 and 1, the
// totals add up from the types, and a live API source says "not reported".
func TestCommitmentsOfDemo(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	p, err := s.CommitmentPeriod(CommitmentRequest{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Commitments(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	totals := map[model.ProviderKey]model.CommitmentSummary{}
	sums := map[model.ProviderKey]float64{}
	for _, r := range rep.Providers {
		if !r.Reported || r.Coverage == nil || r.Utilization == nil || *r.Coverage <= 0 || *r.Coverage >= 1 ||
			*r.Utilization <= 0 || *r.Utilization >= 1 || r.UnusedCost <= 0 {
			t.Fatalf("implausible row %+v", r)
		}
		if r.Type == "" {
			totals[r.Provider] = r
		} else {
			sums[r.Provider] += *r.Coverage
		}
	}
	if len(totals) != len(model.AllProviders) {
		t.Fatalf("totals of %d providers, want all", len(totals))
	}
	for k, tot := range totals {
		if math.Abs(*tot.Coverage-sums[k]) > 1e-9 {
			t.Fatalf("%s: total coverage %v, types add to %v", k, *tot.Coverage, sums[k])
		}
	}
	// testNow's demo: the AWS reservation ends in 21 days, the GCP CUD in 12.
	var soon int
	for _, e := range rep.Expiring {
		if e.ExpiringWithin30 {
			soon++
		}
	}
	if soon != 2 || len(rep.Expiring) != 4 {
		t.Fatalf("expiring = %+v", rep.Expiring)
	}
}
