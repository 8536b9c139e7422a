// Command genfocus writes a synthetic FOCUS 1.0 CSV for the benchmarks,
// deterministic for a given seed, in one of two modes:
//
//   - hourly (default, scripts/import-bench.sh): -rows hourly line items of
//     -resources resources from 2024-01-01, four providers, tags on 70 %;
//   - daily (-daily, scripts/history-bench.sh): a fleet of -resources
//     resources with one row per resource per day over -days days ending at
//     -end, several billing accounts and sub-accounts per provider, a
//     service and region mix, tags on 70 % of resources (team, env, app,
//     cost-center), weekly pattern, trend and day-to-day noise.
//
// Both stream their rows, so memory does not grow with the file.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strconv"
	"time"
)

type resource struct {
	provider, issuer, account, sub, service, category, region, id, typ, sku, tags string
	rate                                                                          float64
}

var providers = []struct {
	name, issuer, account string
	regions               [][2]string
	services              [][3]string // name, category, type
}{
	{"AWS", "Amazon Web Services, Inc.", "123456789012",
		[][2]string{{"us-east-1", "US East (N. Virginia)"}, {"eu-west-1", "Europe (Ireland)"}},
		[][3]string{{"Amazon Elastic Compute Cloud", "Compute", "Instance"}, {"Amazon Simple Storage Service", "Storage", "Bucket"}, {"Amazon Relational Database Service", "Databases", "DB Instance"}}},
	{"Microsoft", "Microsoft", "/providers/Microsoft.Billing/billingAccounts/8611537",
		[][2]string{{"eastus", "East US"}, {"westeurope", "West Europe"}},
		[][3]string{{"Virtual Machines", "Compute", "Virtual machine"}, {"Storage Accounts", "Storage", "Storage account"}, {"Azure SQL Database", "Databases", "SQL database"}}},
	{"Google Cloud", "Google Cloud", "01A2B3-C4D5E6-F7A8B9",
		[][2]string{{"us-central1", "Iowa"}, {"europe-west1", "Belgium"}},
		[][3]string{{"Compute Engine", "Compute", "Compute Engine instance"}, {"Cloud Storage", "Storage", "Bucket"}, {"BigQuery", "Analytics", "Dataset"}}},
	{"Oracle", "Oracle", "ocid1.tenancy.oc1..aaaaaaaabenchmark",
		[][2]string{{"us-ashburn-1", "US East (Ashburn)"}, {"eu-frankfurt-1", "Germany Central (Frankfurt)"}},
		[][3]string{{"COMPUTE", "Compute", "instance"}, {"BLOCK_STORAGE", "Storage", "volume"}, {"DATABASE", "Databases", "autonomousdatabase"}}},
}

const header = `"AvailabilityZone","BilledCost","BillingAccountId","BillingAccountName","BillingCurrency","BillingPeriodEnd","BillingPeriodStart","ChargeCategory","ChargeClass","ChargeDescription","ChargeFrequency","ChargePeriodEnd","ChargePeriodStart","CommitmentDiscountCategory","CommitmentDiscountId","CommitmentDiscountName","CommitmentDiscountStatus","CommitmentDiscountType","ConsumedQuantity","ConsumedUnit","ContractedCost","ContractedUnitPrice","EffectiveCost","InvoiceIssuerName","ListCost","ListUnitPrice","PricingCategory","PricingQuantity","PricingUnit","ProviderName","PublisherName","RegionId","RegionName","ResourceId","ResourceName","ResourceType","ServiceCategory","Id","ServiceName","SkuId","SkuPriceId","SubAccountId","SubAccountName","Tags"`

func main() {
	rows := flag.Int("rows", 1_000_000, "hourly mode: rows to write")
	nres := flag.Int("resources", 125, "distinct resources (daily mode default: 5000)")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "focus-bench.csv", "output file (- for stdout)")
	daily := flag.Bool("daily", false, "daily fleet mode: one row per resource per day")
	narrow := flag.Bool("narrow", false, "daily mode: the narrow shape (15 FOCUS columns, tags as JSON) instead of the wide one")
	days := flag.Int("days", 365, "daily mode: days to write, ending at -end")
	end := flag.String("end", "", "daily mode: last day YYYY-MM-DD (default: yesterday UTC)")
	flag.Parse()

	var f *os.File
	if *out == "-" {
		f = os.Stdout
	} else {
		var err error
		if f, err = os.Create(*out); err != nil {
			log.Fatal(err)
		}
	}
	w := bufio.NewWriterSize(f, 1<<20)
	h := header
	switch {
	case *daily && *narrow:
		h = narrowHeader
	case *daily:
		h += `,"x_UsageType"` // the AWS usage types of the fleet's kinds
	case *narrow:
		log.Fatal("-narrow is a shape of the daily mode: add -daily")
	}
	if _, err := w.WriteString(h + "\n"); err != nil {
		log.Fatal(err)
	}
	var err error
	if *daily {
		resSet := false
		flag.Visit(func(fl *flag.Flag) { resSet = resSet || fl.Name == "resources" })
		n := *nres
		if !resSet {
			n = 5000
		}
		last := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -1)
		if *end != "" {
			if last, err = time.Parse(time.DateOnly, *end); err != nil {
				log.Fatalf("-end: %v", err)
			}
		}
		if n < 1 || *days < 1 {
			log.Fatal("-resources and -days must be positive")
		}
		err = writeDaily(w, n, *days, last, *seed, *narrow)
	} else {
		err = writeHourly(w, *rows, *nres, *seed)
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil && f != os.Stdout {
		err = f.Close()
	}
	if err != nil {
		log.Fatal(err)
	}
}

// writeHourly writes rows hourly line items of nres resources from
// 2024-01-01, the import benchmark's original file.
func writeHourly(w *bufio.Writer, rows, nres int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 42))
	res := make([]resource, nres)
	for i := range res {
		p := providers[i%len(providers)]
		reg := p.regions[r.IntN(len(p.regions))]
		svc := p.services[r.IntN(len(p.services))]
		tags := "NULL"
		if r.Float64() < 0.7 {
			tags = fmt.Sprintf(`"{""app"": ""app-%02d"", ""env"": ""%s"", ""bu"": ""bu-%d""}"`,
				r.IntN(20), []string{"prod", "dev", "staging"}[r.IntN(3)], r.IntN(6))
		}
		res[i] = resource{
			provider: p.name, issuer: p.issuer, account: p.account, sub: fmt.Sprintf("sub-%s-%02d", p.name[:3], i%7),
			service: svc[0], category: svc[1], typ: svc[2], region: reg[0],
			id:   fmt.Sprintf("res-%s-%s-%06d", p.name[:3], reg[0], i),
			sku:  fmt.Sprintf("SKU%08X", r.Uint32()),
			tags: tags, rate: 0.001 + r.Float64()*2,
		}
	}

	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var b []byte
	id := 0
	for h := 0; id < rows; h++ {
		t0 := start.Add(time.Duration(h) * time.Hour)
		t1 := t0.Add(time.Hour)
		pStart := time.Date(t0.Year(), t0.Month(), 1, 0, 0, 0, 0, time.UTC)
		pEnd := pStart.AddDate(0, 1, 0)
		for i := range res {
			if id >= rows {
				break
			}
			x := &res[i]
			qty := 0.5 + r.Float64()
			list := x.rate * qty
			billed := list * (0.9 + r.Float64()*0.1)
			eff := billed * 0.8
			cat := "Usage"
			if r.IntN(1000) == 0 {
				cat, billed, eff, list = "Credit", -billed, -eff, 0
			}
			b = b[:0]
			b = append(b, "NULL,"...)
			b = strconv.AppendFloat(b, billed, 'f', 10, 64)
			b = fmt.Appendf(b, `,"%s",NULL,"USD","%s","%s","%s",NULL,NULL,"Usage-Based","%s","%s",NULL,NULL,NULL,NULL,NULL,`,
				x.account, pEnd.Format(time.DateTime), pStart.Format(time.DateTime), cat,
				t1.Format(time.DateTime), t0.Format(time.DateTime))
			b = strconv.AppendFloat(b, qty, 'f', 6, 64)
			b = append(b, `,"Hours",NULL,NULL,`...)
			b = strconv.AppendFloat(b, eff, 'f', 10, 64)
			b = fmt.Appendf(b, `,"%s",`, x.issuer)
			b = strconv.AppendFloat(b, list, 'f', 10, 64)
			b = fmt.Appendf(b, `,"%.6f","Standard",`, x.rate)
			b = strconv.AppendFloat(b, qty, 'f', 6, 64)
			b = fmt.Appendf(b, `,"Hours","%s","%s","%s",NULL,"%s",NULL,"%s","%s",%d,"%s","%s",NULL,"%s",NULL,%s`,
				x.provider, x.issuer, x.region, x.id, x.typ, x.category, id, x.service, x.sku, x.sub, x.tags)
			b = append(b, '\n')
			if _, err := w.Write(b); err != nil {
				return err
			}
			id++
		}
	}
	return nil
}
