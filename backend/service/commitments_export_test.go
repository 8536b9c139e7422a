package service

import (
	"bufio"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// The acceptance tests of commitments read from Azure cost exports,
// Google Cloud's billing export and FOCUS 1.1 quantities: each figure of
// the report is compared with a computation of the published definitions
// over the fixture's rows (encoding/csv, big.Rat).

func billingFixture(name string) string {
	return filepath.Join("..", "billing", "testdata", "commitments", name)
}

// sums are one commitment type's independent sums.
type sums struct {
	covered, coveredCost, used, unused, units, unusedUnits big.Rat
	hours                                                  bool
}

// expectations turns per-type sums and the uncovered eligible usage into
// the rows a report should have: coverage by on-demand equivalent, net
// savings over eligible usage, utilization in hours where every
// commitment of the row gives hours, else by cost.
func expectations(by map[string]*sums, onDemand *big.Rat) map[string]expected {
	eligible := new(big.Rat).Set(onDemand)
	all := &sums{hours: true}
	for _, s := range by {
		add(eligible, &s.covered)
		add(&all.covered, &s.covered)
		add(&all.coveredCost, &s.coveredCost)
		add(&all.used, &s.used)
		add(&all.unused, &s.unused)
		add(&all.units, &s.units)
		add(&all.unusedUnits, &s.unusedUnits)
		all.hours = all.hours && s.hours
	}
	out := map[string]expected{}
	rows := map[string]*sums{"": all}
	for typ, s := range by {
		rows[typ] = s
	}
	for typ, s := range rows {
		e := expected{coverage: quo(&s.covered, eligible), unused: &s.unused,
			esr: quo(sub(sub(&s.covered, &s.coveredCost), &s.unused), eligible)}
		if s.hours && s.units.Sign() > 0 {
			e.basis, e.utilization = "hours", quo(sub(&s.units, &s.unusedUnits), &s.units)
		} else {
			e.basis, e.utilization = "cost", quo(&s.used, new(big.Rat).Add(&s.used, &s.unused))
		}
		out[typ] = e
	}
	return out
}

// azureExpected computes an Azure amortized-cost export's figures as
// Microsoft defines them: usage with PricingModel Reservation or
// SavingsPlan is covered, at its pay-as-you-go equivalent (PayGPrice ×
// Quantity, the export's prices being in USD) and at its amortized Cost,
// which is also the commitment used; UnusedReservation and
// UnusedSavingsPlan rows are the unused commitment; utilization = used /
// (used + unused) (the amortized rate per reserved hour is constant, so
// this is the reservation's hour utilization too). Eligible usage paid on
// demand: PricingModel OnDemand usage of virtual machines and SQL
// databases priced by the hour.
func azureExpected(t *testing.T, path string) map[string]expected {
	by := map[string]*sums{}
	get := func(typ string) *sums {
		if by[typ] == nil {
			by[typ] = &sums{}
		}
		return by[typ]
	}
	onDemand := new(big.Rat)
	for _, r := range csvRows(t, path) {
		cost := rat(t, r["CostInBillingCurrency"])
		list := cost
		if r["BillingCurrencyCode"] == "USD" && r["PayGPrice"] != "" {
			list = new(big.Rat).Mul(rat(t, r["PayGPrice"]), rat(t, r["Quantity"]))
		}
		typ := map[string]string{"Reservation": "Reservation", "SavingsPlan": "Savings Plan"}[r["PricingModel"]]
		switch {
		case r["ChargeType"] == "Usage" && typ != "":
			s := get(typ)
			add(&s.covered, list)
			add(&s.coveredCost, cost)
			add(&s.used, cost)
		case r["ChargeType"] == "UnusedReservation" || r["ChargeType"] == "UnusedSavingsPlan":
			add(&get(typ).unused, cost)
		case r["ChargeType"] == "Usage" && r["PricingModel"] == "OnDemand" &&
			(r["MeterCategory"] == "Virtual Machines" || r["MeterCategory"] == "SQL Database") &&
			strings.Contains(r["UnitOfMeasure"], "Hour"):
			add(onDemand, list)
		}
	}
	return expectations(by, onDemand)
}

// TestCommitmentsOfAzure is the acceptance test on Azure cost exports:
// the published EA sample (no reservation or savings plan rows), an
// amortized-cost export with two reservations and a savings plan, and
// that export with its actual-cost half, imported together in either
// order: the commitments are counted once, from the amortized half. The
// actual half alone gives none and says so.
func TestCommitmentsOfAzure(t *testing.T) {
	amortized, actual := billingFixture("azure-ea-amortized-commitments.csv"), billingFixture("azure-ea-actual-commitments.csv")
	tests := []struct {
		name, path, start, end string
		files                  []string
		types                  int
	}{
		{"published EA sample", sharedFile(t, "azure-ea-export-sample.csv"), "2023-09-01", "2023-09-30", nil, 1},
		{"amortized export", amortized, "2026-05-01", "2026-05-31", []string{amortized}, 3},
		{"actual then amortized", amortized, "2026-05-01", "2026-05-31", []string{actual, amortized}, 3},
		{"amortized then actual", amortized, "2026-05-01", "2026-05-31", []string{amortized, actual}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := azureExpected(t, tt.path)
			if len(want) != tt.types {
				t.Fatalf("independently %d rows, want %d", len(want), tt.types)
			}
			files := tt.files
			if files == nil {
				files = []string{tt.path}
			}
			rep := importAllAndReport(t, files, tt.start, tt.end)
			checkReport(t, rep, model.Azure, want)
			if tt.files != nil {
				// Used 3 × 2.7648 + 2 × 9.6, unused 0.6912 + 9.6.
				if w := want["Reservation"]; w.utilization == nil || w.utilization.Cmp(big.NewRat(274944, 274944+102912)) != 0 {
					t.Fatalf("the fixture's reservations: utilization %s", fmtRat(w.utilization))
				}
				for _, s := range rep.Providers {
					if s.Provider == model.Azure && s.Type == "" && (s.Commitments != 3 || s.ExpiryUnknown != 3) {
						t.Fatalf("three commitments, no end of term in the export: %+v", s)
					}
				}
			}
		})
	}
	t.Run("actual export alone", func(t *testing.T) {
		s := openFresh(t, exportConfig(t))
		res, err := s.ImportFiles(adminCtx(), []string{actual}, ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 1 || len(res.Files[0].Warnings) == 0 {
			t.Fatalf("an actual-cost export should warn that it gives no commitments: %+v", res.Files)
		}
		p, err := s.CommitmentPeriod(CommitmentRequest{Start: "2026-05-01", End: "2026-05-31"})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := s.Commitments(adminCtx(), p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Providers {
			if r.Provider == model.Azure && (r.Coverage != nil || r.Utilization != nil || r.Commitments != 0) {
				t.Fatalf("commitments from an actual-cost export: %+v", r)
			}
		}
	})
}

func importAllAndReport(t *testing.T, paths []string, start, end string) model.CommitmentReport {
	t.Helper()
	s := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	for _, p := range paths {
		if _, err := s.ImportFiles(ctx, []string{p}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
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

type gcpCreditRow struct {
	Amount json.Number `json:"amount"`
	Type   string      `json:"type"`
}

// gcpExpected computes a Google Cloud billing export's CUD figures as
// Google defines them. A CUD credit (COMMITTED_USAGE_DISCOUNT resource-
// based, COMMITTED_USAGE_DISCOUNT_DOLLAR_BASE spend-based) prices the
// usage it covers back from on demand, so its absolute amount is the
// covered usage's on-demand equivalent. Utilization = commitment applied /
// commitment: for resource-based CUDs in committed quantity (the usage's
// amount in pricing units times the share of its cost the credit covers,
// over the "Commitment v1" fees' amount), per region, unit and day, the
// groups weighted by their fees (a group may hold several machine
// families' vCPU-hours, so no hours basis); for
// legacy spend-based ones the credits in USD over the fee's pricing units
// / 100 (Google's own query), per day; the new model's fee says it with
// its FEE_UTILIZATION_OFFSET credit. The fee's used part (fee ×
// utilization) is what the covered usage cost; the rest is unused.
// Eligible usage paid on demand: Compute Engine and Cloud SQL usage priced
// by the hour, less what CUD credits covered.
func gcpExpected(t *testing.T, path string) map[string]expected {
	const resource, spend = "Committed Use Discount", "Committed Use Discount (spend-based)"
	type group struct{ fee, capacity, utilized big.Rat }
	groups := map[[3]string]*group{} // type, id, day
	get := func(k [3]string) *group {
		if groups[k] == nil {
			groups[k] = &group{}
		}
		return groups[k]
	}
	by := map[string]*sums{resource: {}, spend: {}}
	onDemand := new(big.Rat)
	for _, r := range csvRows(t, path) {
		if r["cost_type"] != "regular" {
			continue
		}
		var credits []gcpCreditRow
		if err := json.Unmarshal([]byte(r["credits"]), &credits); err != nil {
			t.Fatal(err)
		}
		cost, day := rat(t, r["cost"]), r["usage_start_time"][:10]
		region := r["location.region"] + "/" + r["usage.pricing_unit"]
		if strings.HasPrefix(r["sku.description"], "Commitment") {
			offset, hasOffset := new(big.Rat), false
			for _, c := range credits {
				if c.Type == "FEE_UTILIZATION_OFFSET" {
					offset.Sub(offset, rat(t, string(c.Amount)))
					hasOffset = true
				}
			}
			switch {
			case hasOffset:
				add(&by[spend].used, offset)
				add(&by[spend].unused, sub(cost, offset))
			case strings.Contains(r["sku.description"], "dollar based"):
				g := get([3]string{spend, "", day})
				add(&g.fee, cost)
				add(&g.capacity, new(big.Rat).Quo(rat(t, r["usage.amount_in_pricing_units"]), big.NewRat(100, 1)))
			default:
				g := get([3]string{resource, region, day})
				add(&g.fee, cost)
				add(&g.capacity, rat(t, r["usage.amount_in_pricing_units"]))
			}
			continue
		}
		covered := new(big.Rat)
		for _, c := range credits {
			amt := new(big.Rat).Neg(rat(t, string(c.Amount)))
			switch c.Type {
			case "COMMITTED_USAGE_DISCOUNT":
				add(&by[resource].covered, amt)
				g := get([3]string{resource, region, day})
				q := new(big.Rat).Mul(rat(t, r["usage.amount_in_pricing_units"]), amt)
				add(&g.utilized, q.Quo(q, cost))
			case "COMMITTED_USAGE_DISCOUNT_DOLLAR_BASE":
				add(&by[spend].covered, amt)
				add(&get([3]string{spend, "", day}).utilized, new(big.Rat).Quo(amt, rat(t, r["currency_conversion_rate"])))
			default:
				continue
			}
			add(covered, amt)
		}
		svc := r["service.description"]
		if (svc == "Compute Engine" || svc == "Cloud SQL") && strings.Contains(r["usage.pricing_unit"], "hour") {
			if rest := sub(rat(t, r["cost_at_list"]), covered); rest.Sign() > 0 {
				add(onDemand, rest)
			}
		}
	}
	for k, g := range groups {
		s := by[k[0]]
		u := &g.utilized
		if u.Cmp(&g.capacity) > 0 {
			u = &g.capacity
		}
		used := new(big.Rat).Mul(&g.fee, u)
		used.Quo(used, &g.capacity)
		add(&s.used, used)
		add(&s.coveredCost, used)
		add(&s.unused, sub(&g.fee, used))
	}
	return expectations(by, onDemand)
}

// TestCommitmentsOfGCP is the acceptance test on Google Cloud's billing
// export: a resource-based commitment (vCPUs and memory in one region,
// used in part), a legacy spend-based Cloud SQL commitment and a Compute
// flexible commitment of the new model, in CSV and as JSON lines (the same
// rows): the same figures either way.
func TestCommitmentsOfGCP(t *testing.T) {
	want := gcpExpected(t, billingFixture("gcp-cud.csv"))
	// vCPUs: 144 of 192 hours on day 1, 112 on day 2; memory: half.
	resourceUsed := big.NewRat(3818016*144/192+3818016*112/192+2*2047104/2, 1e6)
	if w := want["Committed Use Discount"]; w.basis != "cost" || w.utilization == nil ||
		w.utilization.Cmp(new(big.Rat).Quo(resourceUsed, big.NewRat(2*(3818016+2047104), 1e6))) != 0 {
		t.Fatalf("the fixture's resource-based CUD: utilization %s (%s)", fmtRat(w.utilization), w.basis)
	}
	cfg, err := config.Parse([]byte("gcp: {enabled: true, source: export, export_paths: [x]}\n"), "gcp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gcp-cud.csv", "gcp-cud.jsonl"} {
		t.Run(name, func(t *testing.T) {
			s := openFresh(t, cfg)
			if _, err := s.ImportFiles(adminCtx(), []string{billingFixture(name)}, ImportOptions{}); err != nil {
				t.Fatal(err)
			}
			p, err := s.CommitmentPeriod(CommitmentRequest{Start: "2026-05-01", End: "2026-05-31"})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := s.Commitments(adminCtx(), p)
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, rep, model.GCP, want)
			for _, s := range rep.Providers {
				// Two resource groups (vCPU hours, memory GiB-hours in
				// us-central1) and the spend-based group.
				if s.Provider == model.GCP && s.Type == "" && (s.Commitments != 3 || s.ExpiryUnknown != 3) {
					t.Fatalf("commitment groups: %+v", s)
				}
			}
		})
	}
}

// TestCommitmentsOfFOCUSQuantities is the acceptance test on FOCUS 1.1
// CommitmentDiscountQuantity and CommitmentDiscountUnit: a reservation
// whose quantities are hours has its utilization in hours (Σ quantity of
// Used rows / Σ quantity of Used and Unused rows, which differs from its
// cost ratio in the fixture), a savings plan whose unit is a currency
// keeps the cost basis; coverage and savings are as in FOCUS 1.0.
func TestCommitmentsOfFOCUSQuantities(t *testing.T) {
	path := billingFixture("focus-1.1-commitments.csv")
	want := focusExpected(t, path)
	hours := map[string]*sums{}
	for _, r := range csvRows(t, path) {
		if r["ChargeCategory"] != "Usage" || r["CommitmentDiscountUnit"] != "Hours" || r["ProviderName"] != "Microsoft" {
			continue
		}
		s := hours[r["CommitmentDiscountType"]]
		if s == nil {
			s = &sums{}
			hours[r["CommitmentDiscountType"]] = s
		}
		q := rat(t, r["CommitmentDiscountQuantity"])
		add(&s.units, q)
		if r["CommitmentDiscountStatus"] == "Unused" {
			add(&s.unusedUnits, q)
		}
	}
	for _, typ := range []string{"", "Reservation"} {
		s := hours["Reservation"]
		w := want[model.Azure][typ]
		costBasis := w.utilization
		w.basis, w.utilization = "hours", quo(sub(&s.units, &s.unusedUnits), &s.units)
		if costBasis == nil || costBasis.Cmp(w.utilization) == 0 {
			t.Fatalf("the fixture should tell hours from cost: %s", fmtRat(costBasis))
		}
		want[model.Azure][typ] = w
	}
	rep := importAndReport(t, path, "2026-05-01", "2026-05-31")
	for p, w := range want {
		checkReport(t, rep, p, w)
	}
}

// TestFOCUS10StillCostBasis checks a FOCUS file without the 1.1 columns
// keeps its cost-basis utilization (the FOCUS 1.0 fixture).
func TestFOCUS10StillCostBasis(t *testing.T) {
	path := filepath.Join("testdata", "commitments", "focus-1.0-commitments.csv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := bufio.NewReader(f).ReadString('\n')
	f.Close()
	if strings.Contains(head, "CommitmentDiscountQuantity") {
		t.Fatal("the FOCUS 1.0 fixture has a 1.1 column")
	}
	rep := importAndReport(t, path, "2026-05-01", "2026-05-31")
	for _, s := range rep.Providers {
		if s.Utilization != nil && s.UtilizationBasis != "cost" {
			t.Fatalf("FOCUS 1.0: %+v", s)
		}
	}
}
