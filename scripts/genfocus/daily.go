package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// A fleet service: a kind of resource and how its cost moves; how it is
// billed (usage, unit, price) is in kinds, under its code.
type fleetService struct {
	name, category, typ, code string
	weight                    float64 // share of the provider's resources
	median                    float64 // median daily cost in USD
	pattern                   int     // one of the pattern constants
	committable               bool    // may be covered by a commitment discount
}

// Weekly behaviour of a resource's cost.
const (
	steady     = iota // storage, databases: flat, slow growth
	machines          // compute: non-prod is stopped at weekends
	batch             // analytics: mostly weekdays, noisy
	serverless        // request-driven: weekday peak, noisy
)

type fleetRegion struct {
	id, name string
	weight   float64
}

type fleetProvider struct {
	name, issuer string
	weight       float64 // share of the fleet
	accounts     []string
	regions      []fleetRegion
	services     []fleetService
}

var fleet = []fleetProvider{
	{name: "AWS", issuer: "Amazon Web Services, Inc.", weight: 0.42,
		accounts: []string{"123456789012", "210987654321", "345678901234"},
		regions: []fleetRegion{{"us-east-1", "US East (N. Virginia)", 0.45}, {"us-west-2", "US West (Oregon)", 0.2},
			{"eu-west-1", "Europe (Ireland)", 0.2}, {"eu-central-1", "Europe (Frankfurt)", 0.1}, {"ap-southeast-2", "Asia Pacific (Sydney)", 0.05}},
		services: []fleetService{
			{"Amazon Elastic Compute Cloud", "Compute", "Instance", "EC2", 0.28, 9, machines, true},
			{"Amazon Elastic Compute Cloud", "Storage", "Volume", "EBS", 0.12, 3, steady, false},
			{"Amazon Elastic Compute Cloud", "Storage", "Snapshot", "SNAP", 0.04, 1.5, steady, false},
			{"Amazon Virtual Private Cloud", "Networking", "IP Address", "EIP", 0.04, 0.12, steady, false},
			{"Amazon Virtual Private Cloud", "Networking", "NAT Gateway", "NAT", 0.03, 2.5, serverless, false},
			{"Amazon Simple Storage Service", "Storage", "Bucket", "S3", 0.16, 2.5, steady, false},
			{"Amazon Relational Database Service", "Databases", "DB Instance", "RDS", 0.1, 18, steady, true},
			{"AWS Lambda", "Compute", "Function", "LMB", 0.1, 0.6, serverless, false},
			{"Amazon DynamoDB", "Databases", "Table", "DDB", 0.06, 3, serverless, false},
			{"Amazon Elastic Kubernetes Service", "Compute", "Cluster", "EKS", 0.04, 2.4, steady, false},
			{"Elastic Load Balancing", "Networking", "LoadBalancer", "ELB", 0.08, 1.2, serverless, false},
			{"Amazon Redshift", "Analytics", "Cluster", "RS", 0.03, 30, batch, true},
			{"Amazon CloudFront", "Networking", "Distribution", "CF", 0.05, 4, serverless, false},
		}},
	{name: "Microsoft", issuer: "Microsoft", weight: 0.28,
		accounts: []string{"/providers/Microsoft.Billing/billingAccounts/8611537", "/providers/Microsoft.Billing/billingAccounts/9720448"},
		regions: []fleetRegion{{"eastus", "East US", 0.4}, {"westeurope", "West Europe", 0.3},
			{"northeurope", "North Europe", 0.15}, {"westus2", "West US 2", 0.15}},
		services: []fleetService{
			{"Virtual Machines", "Compute", "Virtual machine", "VM", 0.4, 8, machines, true},
			{"Storage Accounts", "Storage", "Storage account", "STG", 0.18, 2, steady, false},
			{"Storage", "Storage", "Disk", "DISK", 0.1, 0.6, steady, false},
			{"Virtual Network", "Networking", "Public IP address", "PIP", 0.05, 0.12, steady, false},
			{"Azure SQL Database", "Databases", "SQL database", "SQL", 0.1, 15, steady, true},
			{"Azure Kubernetes Service", "Compute", "Managed cluster", "AKS", 0.05, 2.4, steady, false},
			{"Azure Cosmos DB", "Databases", "Cosmos DB account", "CDB", 0.07, 6, serverless, false},
			{"Functions", "Compute", "Function app", "FN", 0.08, 0.5, serverless, false},
			{"Load Balancer", "Networking", "Load balancer", "LB", 0.07, 0.6, steady, false},
			{"Azure Data Factory v2", "Integration", "Data factory", "ADF", 0.05, 5, batch, false},
		}},
	{name: "Google Cloud", issuer: "Google Cloud", weight: 0.2,
		accounts: []string{"01A2B3-C4D5E6-F7A8B9", "0F1E2D-3C4B5A-69788A"},
		regions: []fleetRegion{{"us-central1", "Iowa", 0.45}, {"europe-west1", "Belgium", 0.3},
			{"us-east1", "South Carolina", 0.15}, {"asia-northeast1", "Tokyo", 0.1}},
		services: []fleetService{
			{"Compute Engine", "Compute", "Compute Engine instance", "GCE", 0.38, 7, machines, true},
			{"Cloud Storage", "Storage", "Bucket", "GCS", 0.17, 2, steady, false},
			{"Compute Engine", "Storage", "Disk", "GPD", 0.1, 1, steady, false},
			{"Networking", "Networking", "Address", "GIP", 0.04, 0.15, steady, false},
			{"BigQuery", "Analytics", "Dataset", "BQ", 0.12, 12, batch, false},
			{"Cloud SQL", "Databases", "Cloud SQL instance", "CSQL", 0.1, 10, steady, true},
			{"Kubernetes Engine", "Compute", "Cluster", "GKE", 0.06, 2.4, steady, false},
			{"Cloud Run", "Compute", "Service", "RUN", 0.1, 0.8, serverless, false},
			{"Cloud Pub/Sub", "Integration", "Topic", "PS", 0.07, 0.7, serverless, false},
		}},
	{name: "Oracle", issuer: "Oracle", weight: 0.1,
		accounts: []string{"ocid1.tenancy.oc1..aaaaaaaabenchmark"},
		regions: []fleetRegion{{"us-ashburn-1", "US East (Ashburn)", 0.5}, {"eu-frankfurt-1", "Germany Central (Frankfurt)", 0.35},
			{"uk-london-1", "UK South (London)", 0.15}},
		services: []fleetService{
			{"COMPUTE", "Compute", "instance", "B93113", 0.42, 5, machines, true},
			{"BLOCK_STORAGE", "Storage", "volume", "B91961", 0.2, 1.2, steady, false},
			{"OBJECT_STORAGE", "Storage", "bucket", "B91628", 0.1, 0.8, steady, false},
			{"DATABASE", "Databases", "autonomousdatabase", "B90453", 0.16, 14, steady, true},
			{"LOAD_BALANCER", "Networking", "loadbalancer", "B93030", 0.07, 0.5, steady, false},
			{"OKE", "Compute", "cluster", "B96545", 0.05, 2.4, steady, false},
		}},
}

// Tag values, with weights where the share matters: team=data is about 12 %
// of the tagged resources so `tag=team:data` selects a real slice.
var (
	teams       = []string{"data", "platform", "web", "mobile", "ml", "payments", "search", "security", "infra"}
	teamWeights = []float64{0.12, 0.18, 0.16, 0.08, 0.1, 0.1, 0.08, 0.06, 0.12}
	envs        = []string{"prod", "staging", "dev", "test"}
	envWeights  = []float64{0.45, 0.2, 0.3, 0.05}
	apps        = []string{"api", "web", "etl", "worker", "cache", "auth", "billing", "search", "ingest", "reports", "ml", "gateway"}
)

// fleetResource holds the unchanging cells of a resource's rows,
// pre-encoded, so a row is a few copies plus the numbers of the day.
type fleetResource struct {
	head []byte // AvailabilityZone cell and comma
	acct []byte // ,BillingAccountId..BillingCurrency,
	// narrow shape: ,BillingAccountId,BillingCurrency,ChargeCategory,
	narrowAcct []byte
	issuer     []byte // ,InvoiceIssuerName,
	rows       []fleetRow
	base       float64
	growth     float64 // relative change over the whole span
	weekend    float64 // cost factor on Saturdays and Sundays
	noise      float64 // relative standard deviation of a day's cost
	listUp     float64 // ListCost / BilledCost
}

// fleetRow is one usage a resource bills every day (most bill one).
type fleetRow struct {
	charge   []byte  // ChargeCategory..ChargeFrequency,
	commit   []byte  // the five CommitmentDiscount cells and comma
	unit     []byte  // ,ConsumedUnit,ContractedCost,ContractedUnitPrice,
	price    []byte  // ,ListUnitPrice,PricingCategory,
	mid      []byte  // ,PricingUnit..ServiceCategory,
	tail     []byte  // ,ServiceName..Tags,x_UsageType and newline
	narrow   []byte  // narrow shape: ,ProviderName..Tags and newline
	share    float64 // of the resource's daily cost
	discount float64 // EffectiveCost / BilledCost
	price1   float64 // unit price, for the quantities
}

func pick(r *rand.Rand, weights []float64) int {
	x := r.Float64()
	var sum float64
	for _, w := range weights {
		sum += w
	}
	x *= sum
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// quote makes s a CSV cell, quoted only when it must be (as most exporters
// write them; it also keeps the file small).
func quote(s string) string {
	if !strings.ContainsAny(s, ",\"\n") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// subAccounts returns a provider's sub-accounts (AWS member accounts, Azure
// subscriptions, Google Cloud projects, OCI compartments) of one billing
// account, as id and name.
func subAccounts(r *rand.Rand, p *fleetProvider, acct int) [][2]string {
	n := 4 + r.IntN(5)
	out := make([][2]string, n)
	for i := range out {
		team := teams[r.IntN(len(teams))]
		env := envs[pick(r, envWeights)]
		name := fmt.Sprintf("%s-%s-%d", team, env, acct*10+i)
		var id string
		switch p.name {
		case "AWS":
			id = fmt.Sprintf("%012d", r.Int64N(1e12))
		case "Microsoft":
			id = fmt.Sprintf("/subscriptions/%08x-%04x-4%03x-a%03x-%012x", r.Uint32(), r.IntN(1<<16), r.IntN(1<<12), r.IntN(1<<12), r.Int64N(1<<48))
		case "Google Cloud":
			id = fmt.Sprintf("%s-%06d", name, r.IntN(1e6))
		default:
			id = fmt.Sprintf("ocid1.compartment.oc1..aaaaaaaa%s%d", strings.ReplaceAll(name, "-", ""), r.IntN(1e6))
		}
		out[i] = [2]string{id, name}
	}
	return out
}

func newFleet(r *rand.Rand, n int) []fleetResource {
	pw := make([]float64, len(fleet))
	for i := range fleet {
		pw[i] = fleet[i].weight
	}
	subs := make([][][][2]string, len(fleet))
	for i := range fleet {
		for a := range fleet[i].accounts {
			subs[i] = append(subs[i], subAccounts(r, &fleet[i], a))
		}
	}
	res := make([]fleetResource, n)
	for i := range res {
		pi := pick(r, pw)
		p := &fleet[pi]
		sw := make([]float64, len(p.services))
		for j := range p.services {
			sw[j] = p.services[j].weight
		}
		svc := &p.services[pick(r, sw)]
		rw := make([]float64, len(p.regions))
		for j := range p.regions {
			rw[j] = p.regions[j].weight
		}
		reg := p.regions[pick(r, rw)]
		ai := r.IntN(len(p.accounts))
		sub := subs[pi][ai][r.IntN(len(subs[pi][ai]))]

		env := envs[pick(r, envWeights)]
		team := teams[pick(r, teamWeights)]
		app := team + "-" + apps[r.IntN(len(apps))]
		tags := "NULL"
		if r.Float64() < 0.7 {
			// Not every tagged resource carries every key, as in real fleets.
			var kv []string
			if r.Float64() < 0.92 {
				kv = append(kv, fmt.Sprintf(`""team"": ""%s""`, team))
			}
			kv = append(kv, fmt.Sprintf(`""env"": ""%s""`, env))
			if r.Float64() < 0.8 {
				kv = append(kv, fmt.Sprintf(`""app"": ""%s""`, app))
			}
			if r.Float64() < 0.6 {
				kv = append(kv, fmt.Sprintf(`""cost-center"": ""CC-%d""`, 1000+100*pick(r, teamWeights)+r.IntN(3)))
			}
			tags = `"{` + strings.Join(kv, ", ") + `}"`
		}

		name := fmt.Sprintf("%s-%s-%05d", app, env, i)
		zone := "NULL"
		if svc.pattern == machines || svc.category == "Databases" {
			zone = quote(reg.id + string(rune('a'+r.IntN(3))))
		}
		var id string
		switch p.name {
		case "AWS":
			switch svc.code {
			case "EC2":
				id = fmt.Sprintf("i-%017x", r.Uint64()>>4)
			case "S3":
				id = name
			case "EBS", "SNAP", "EIP", "NAT":
				prefix := map[string]string{"EBS": "vol", "SNAP": "snap", "EIP": "eipalloc", "NAT": "nat"}[svc.code]
				id = fmt.Sprintf("%s-%017x", prefix, r.Uint64()>>4)
			default:
				id = fmt.Sprintf("arn:aws:%s:%s:%s:%s", strings.ToLower(svc.code), reg.id, sub[0], name)
			}
		case "Microsoft":
			id = fmt.Sprintf("%s/resourcegroups/rg-%s/providers/microsoft.%s/%s", sub[0], team, strings.ToLower(svc.code), name)
		case "Google Cloud":
			id = fmt.Sprintf("projects/%s/%s/%s", sub[0], reg.id, name)
		default:
			id = fmt.Sprintf("ocid1.%s.oc1.%s.%016x%08x", strings.ToLower(svc.typ), reg.id, r.Uint64(), i)
		}

		x := &res[i]
		// Log-normal sizes: most resources are small, a few dominate.
		x.base = svc.median * math.Exp(r.NormFloat64()*1.1)
		x.growth = -0.15 + r.Float64()*0.5
		x.listUp = 1 + r.Float64()*0.08
		x.weekend, x.noise = 0.97, 0.03
		switch svc.pattern {
		case machines:
			x.weekend, x.noise = 0.85, 0.05
			if env != "prod" {
				x.weekend = 0.4 // scheduled shutdown of non-production machines
			}
		case batch:
			x.weekend, x.noise = 0.35, 0.15
		case serverless:
			x.weekend, x.noise = 0.7, 0.1
		default:
			x.growth = 0.05 + r.Float64()*0.4 // storage and databases mostly grow
		}
		commit, category, discount := "NULL,NULL,NULL,NULL,NULL,", "Standard", 1.0
		if svc.committable && env == "prod" && r.Float64() < 0.5 {
			discount, category = 0.72, "Committed"
			commit = fmt.Sprintf("Usage,commitment-%s-%s,%s,Used,Reserved,", strings.ToLower(svc.code), reg.id, quote(svc.name+" 1yr"))
		}
		ks := kinds[svc.code]
		kw := make([]float64, len(ks))
		for j := range ks {
			kw[j] = ks[j].weight
		}
		k := &ks[pick(r, kw)]

		x.head = []byte(zone + ",")
		// Optional descriptive cells (account, region and resource names,
		// SKU price id) stay NULL, as in many real exports: it keeps rows
		// near 650 bytes (1.2 GB for 5,000 x 365).
		x.acct = []byte("," + quote(p.accounts[ai]) + ",NULL,USD,")
		x.narrowAcct = []byte("," + quote(p.accounts[ai]) + ",USD,Usage,")
		x.issuer = []byte("," + quote(p.issuer) + ",")
		row := func(k *usageKind, share, discount float64, category, commit string) fleetRow {
			ut := usageType(p.name, k, reg.id)
			if ut == "" {
				ut = "NULL"
			}
			return fleetRow{
				charge: []byte("Usage,NULL," + quote(chargeDescription(p.name, k, reg.id, reg.name)) + ",Usage-Based,"),
				commit: []byte(commit),
				unit:   []byte("," + quote(k.unit) + ",NULL,NULL,"),
				price:  []byte("," + strconv.FormatFloat(k.price*x.listUp, 'f', 8, 64) + "," + quote(category) + ","),
				mid:    []byte("," + quote(k.unit) + "," + quote(p.name) + "," + quote(p.issuer) + "," + quote(reg.id) + ",NULL," + quote(id) + ",NULL," + quote(svc.typ) + "," + quote(svc.category) + ","),
				tail:   []byte("," + quote(svc.name) + "," + quote(skuID(p.name, k, reg.id)) + ",NULL," + quote(sub[0]) + "," + quote(sub[1]) + "," + tags + "," + quote(ut) + "\n"),
				narrow: []byte("," + quote(p.name) + "," + quote(reg.id) + "," + quote(id) + "," + quote(svc.category) + "," +
					quote(svc.name) + "," + quote(sub[0]) + "," + tags + "\n"),
				share:    share,
				discount: discount,
				price1:   k.price,
			}
		}
		if k.extra == nil {
			x.rows = []fleetRow{row(k, 1, discount, category, commit)}
		} else {
			// The second usage is never covered by the commitment.
			x.rows = []fleetRow{row(k, 1-k.share, discount, category, commit), row(k.extra, k.share, 1, "Standard", "NULL,NULL,NULL,NULL,NULL,")}
		}
	}
	return res
}

// narrowHeader is the narrow shape's header: the few columns a minimal
// FOCUS export carries, tags as JSON. The same fleet and numbers as the
// wide shape, at well under half the bytes a row, so parsing weighs less
// against storing.
const narrowHeader = `BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodEnd,ChargePeriodStart,EffectiveCost,ListCost,ProviderName,RegionId,ResourceId,ServiceCategory,ServiceName,SubAccountId,Tags`

// writeDaily writes one row per resource per day (two for the resources
// that bill a second usage) for days days ending at last, day by day, in
// the wide shape (header) or the narrow one (narrowHeader). Memory is the
// fleet table, whatever the row count.
func writeDaily(w *bufio.Writer, n, days int, last time.Time, seed uint64, narrow bool) error {
	r := rand.New(rand.NewPCG(seed, 7))
	res := newFleet(r, n)
	first := last.AddDate(0, 0, -(days - 1))
	var b []byte
	id := 0
	for d := 0; d < days; d++ {
		t0 := first.AddDate(0, 0, d)
		t1 := t0.AddDate(0, 0, 1)
		pStart := time.Date(t0.Year(), t0.Month(), 1, 0, 0, 0, 0, time.UTC)
		pEnd := pStart.AddDate(0, 1, 0)
		periods := []byte(pEnd.Format(time.DateTime) + "," + pStart.Format(time.DateTime) + ",")
		charges := []byte(t1.Format(time.DateTime) + "," + t0.Format(time.DateTime) + ",")
		weekend := t0.Weekday() == time.Saturday || t0.Weekday() == time.Sunday
		frac := float64(d) / float64(days)
		for i := range res {
			x := &res[i]
			f := 1 + x.growth*frac
			if weekend {
				f *= x.weekend
			}
			f *= 1 + x.noise*max(-3, min(3, r.NormFloat64()))
			if r.IntN(5000) == 0 {
				f *= 2 + 2*r.Float64() // a rare spike, as a runaway job would make
			}
			for j := range x.rows {
				row := &x.rows[j]
				billed := x.base * f * row.share
				qty := billed / row.price1
				b = b[:0]
				if narrow {
					b = strconv.AppendFloat(b, billed, 'f', 8, 64)
					b = append(b, x.narrowAcct...)
					b = append(b, charges...)
					b = strconv.AppendFloat(b, billed*row.discount, 'f', 8, 64)
					b = append(b, ',')
					b = strconv.AppendFloat(b, billed*x.listUp, 'f', 8, 64)
					b = append(b, row.narrow...)
					if _, err := w.Write(b); err != nil {
						return err
					}
					continue
				}
				b = append(b, x.head...)
				b = strconv.AppendFloat(b, billed, 'f', 8, 64)
				b = append(b, x.acct...)
				b = append(b, periods...)
				b = append(b, row.charge...)
				b = append(b, charges...)
				b = append(b, row.commit...)
				b = strconv.AppendFloat(b, qty, 'f', 4, 64)
				b = append(b, row.unit...)
				b = strconv.AppendFloat(b, billed*row.discount, 'f', 8, 64)
				b = append(b, x.issuer...)
				b = strconv.AppendFloat(b, billed*x.listUp, 'f', 8, 64)
				b = append(b, row.price...)
				b = strconv.AppendFloat(b, qty, 'f', 4, 64)
				b = append(b, row.mid...)
				b = strconv.AppendInt(b, int64(id), 10)
				b = append(b, row.tail...)
				if _, err := w.Write(b); err != nil {
					return err
				}
				id++
			}
		}
	}
	return nil
}
