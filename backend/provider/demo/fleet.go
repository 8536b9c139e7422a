package demo

import (
	"fmt"
	"hash/fnv"
	"math"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// profile is how a simulated machine behaves.
type profile int

const (
	profRightSized profile = iota // busy enough: no recommendation
	profOversized                 // p95 CPU ~10 %: rightsizing
	profIdle                      // nothing runs on it: idle
	profBursty                    // member of a group with a daily pattern: autoscaling
	profSteady                    // always on, flat: a commitment candidate
	profDev                       // stopped at night and at weekends
)

// asset is one simulated resource with everything needed to price it on
// any day.
type asset struct {
	model.Resource
	profile  profile
	hourly   float64 // on-demand price while running
	born     int     // day offset (from the first history day) it appears
	died     int     // day offset it disappears; -1: alive
	member   int     // index within its group, for the group's size curve
	covered  bool    // covered by an existing commitment (effective < billed)
	kind     string  // instance, volume, public_ip, snapshot, database, bucket
	monthly  float64 // flat monthly price for non-instances
	baseCPU  float64
	baseMem  float64
	peakHour int
}

// service that is not a single resource: data transfer, monitoring,
// support, tax. daily is the base daily cost.
type flatService struct {
	name, category, charge string
	daily                  float64
	spiky                  bool
	pctOfTotal             float64 // support and tax: a share of the day's usage
	// ai are parts of the day's cost billed as AI model tokens instead
	// (Bedrock, Azure OpenAI, Vertex AI), so the provider's daily total
	// is the same with or without them.
	ai []aiPart
}

// aiPart is a share of a flat service's daily cost billed as the tokens
// of one model and kind: the line's quantity is its cost at price per
// unit.
type aiPart struct {
	service, usage, unit string
	share, price         float64
}

// aiCategory is the FOCUS service category of the AI lines.
const aiCategory = "AI and Machine Learning"

// cloud describes one simulated provider account.
type cloud struct {
	key      model.ProviderKey
	currency string
	billing  string
	accounts []string
	names    map[string]string // account id -> name, as the cloud's console shows it
	regions  []string
	services map[string]string // kind -> service name
	category map[string]string // kind -> FOCUS service category
	types    []string          // instance types, cheap to expensive
	armTypes []string
	volType  string
	discount float64 // negotiated discount of billed below list
	flat     []flatService
	scale    int // machines
}

var clouds = map[model.ProviderKey]cloud{
	model.AWS: {
		key: model.AWS, currency: "USD", billing: "111122223333",
		accounts: []string{"123456789012", "210987654321", "345678901234"},
		names: map[string]string{"111122223333": "Acme Corp (payer)", "123456789012": "acme-prod",
			"210987654321": "acme-staging", "345678901234": "acme-data"},
		regions: []string{"us-east-1", "us-west-2", "eu-west-1"},
		services: map[string]string{"instance": "Amazon Elastic Compute Cloud - Compute", "volume": "EC2 - Other",
			"public_ip": "EC2 - Other", "snapshot": "EC2 - Other", "database": "Amazon Relational Database Service",
			"bucket": "Amazon Simple Storage Service"},
		category: map[string]string{"instance": "Compute", "volume": "Storage", "public_ip": "Networking",
			"snapshot": "Storage", "database": "Databases", "bucket": "Storage"},
		types: []string{"t3.medium", "t3.large", "m5.large", "m6i.large", "r5.large", "c5.xlarge", "c6i.xlarge",
			"m5.xlarge", "m6i.xlarge", "r5.xlarge", "r6i.xlarge", "c5.2xlarge", "m5.2xlarge", "m6i.2xlarge"},
		armTypes: []string{"m6g.large", "r6g.large", "m6g.xlarge", "c7g.xlarge", "m7g.xlarge"},
		volType:  "gp3", discount: 0.03,
		flat: []flatService{
			{name: "AWS Data Transfer", category: "Networking", charge: "Usage", daily: 95, spiky: true},
			{name: "AmazonCloudWatch", category: "Management and Governance", charge: "Usage", daily: 24, ai: []aiPart{
				// Amazon Nova Pro: $0.80 and $3.20 per million tokens.
				{"Amazon Bedrock", "USE1-NovaPro-input-tokens", "1K tokens", 0.3, 0.0008},
				{"Amazon Bedrock", "USE1-NovaPro-output-tokens", "1K tokens", 0.2, 0.0032},
			}},
			{name: "AWS Support (Business)", category: "Other", charge: "Usage", pctOfTotal: 0.07},
			{name: "Tax", category: "Other", charge: "Tax", pctOfTotal: 0.0},
		},
		scale: 46,
	},
	model.Azure: {
		key: model.Azure, currency: "USD", billing: "ea-80123456",
		accounts: []string{"8f2d7c1e-4b3a-4e8f-9a21-7c5d3e1f0a42", "1b9e4d2f-7a6c-4c1d-8e5b-2f3a9c7d6e10"},
		names: map[string]string{"ea-80123456": "Acme EA enrollment", "8f2d7c1e-4b3a-4e8f-9a21-7c5d3e1f0a42": "Production",
			"1b9e4d2f-7a6c-4c1d-8e5b-2f3a9c7d6e10": "Dev/Test"},
		regions: []string{"eastus", "westeurope"},
		services: map[string]string{"instance": "Virtual Machines", "volume": "Storage", "public_ip": "Virtual Network",
			"snapshot": "Storage", "database": "Azure SQL Database", "bucket": "Storage"},
		category: map[string]string{"instance": "Compute", "volume": "Storage", "public_ip": "Networking",
			"snapshot": "Storage", "database": "Databases", "bucket": "Storage"},
		types: []string{"Standard_B2s", "Standard_B2ms", "Standard_D2s_v5", "Standard_F4s_v2", "Standard_D4s_v3",
			"Standard_D4s_v5", "Standard_E4s_v5", "Standard_F8s_v2", "Standard_D8s_v5", "Standard_E8s_v5"},
		volType: "premium_lrs", discount: 0.0,
		flat: []flatService{
			{name: "Bandwidth", category: "Networking", charge: "Usage", daily: 60, spiky: true},
			{name: "Azure Monitor", category: "Management and Governance", charge: "Usage", daily: 15, ai: []aiPart{
				// GPT-4o mini (global): $0.15 and $0.60 per million tokens.
				{"Cognitive Services", "Cognitive Services / Azure OpenAI / gpt-4o-mini-0718-Inp-glbl Tokens", "1K", 0.3, 0.00015},
				{"Cognitive Services", "Cognitive Services / Azure OpenAI / gpt-4o-mini-0718-Outp-glbl Tokens", "1K", 0.2, 0.0006},
			}},
		},
		scale: 36,
	},
	model.GCP: {
		key: model.GCP, currency: "USD", billing: "01A2B3-C4D5E6-F7A8B9",
		accounts: []string{"shop-prod-4821", "shop-staging-1187", "data-platform-3390"},
		names: map[string]string{"01A2B3-C4D5E6-F7A8B9": "Acme billing", "shop-prod-4821": "Shop (prod)",
			"shop-staging-1187": "Shop (staging)", "data-platform-3390": "Data platform"},
		regions: []string{"us-central1", "europe-west1"},
		services: map[string]string{"instance": "Compute Engine", "volume": "Compute Engine", "public_ip": "Networking",
			"snapshot": "Compute Engine", "database": "Cloud SQL", "bucket": "Cloud Storage"},
		category: map[string]string{"instance": "Compute", "volume": "Storage", "public_ip": "Networking",
			"snapshot": "Storage", "database": "Databases", "bucket": "Storage"},
		types: []string{"e2-medium", "e2-standard-2", "t2d-standard-2", "n2-standard-2", "e2-standard-4",
			"t2d-standard-4", "n2d-standard-4", "n2-standard-4", "c3-standard-4", "n2-highmem-4", "n2-standard-8", "c3-standard-8"},
		volType: "pd-balanced", discount: 0.0,
		flat: []flatService{
			{name: "Networking", category: "Networking", charge: "Usage", daily: 40, spiky: true},
			{name: "Cloud Monitoring", category: "Management and Governance", charge: "Usage", daily: 9, ai: []aiPart{
				// Gemini 2.0 Flash-Lite: $0.075 and $0.30 per million tokens.
				{"Vertex AI", "E5F6-0A1B / Gemini 2.0 Flash Lite Text Input - Predictions", "count", 0.3, 0.000000075},
				{"Vertex AI", "E5F6-0A1C / Gemini 2.0 Flash Lite Text Output - Predictions", "count", 0.2, 0.0000003},
			}},
			{name: "Support", category: "Other", charge: "Usage", pctOfTotal: 0.03},
		},
		scale: 34,
	},
	model.OCI: {
		key: model.OCI, currency: "USD", billing: "ocid1.tenancy.oc1..aaaademo7k3q",
		accounts: []string{"prod-compartment", "analytics-compartment"},
		names:    map[string]string{"ocid1.tenancy.oc1..aaaademo7k3q": "acme-tenancy"},
		regions:  []string{"us-ashburn-1", "eu-frankfurt-1"},
		services: map[string]string{"instance": "Compute", "volume": "Block Storage", "public_ip": "Networking",
			"snapshot": "Block Storage", "database": "Database", "bucket": "Object Storage"},
		category: map[string]string{"instance": "Compute", "volume": "Storage", "public_ip": "Networking",
			"snapshot": "Storage", "database": "Databases", "bucket": "Storage"},
		types: []string{"VM.Standard.E4.Flex/1/8", "VM.Standard.E4.Flex/2/16", "VM.Standard3.Flex/2/32",
			"VM.Standard.E5.Flex/2/16", "VM.Standard.E4.Flex/4/32", "VM.Standard.E5.Flex/4/64", "VM.Standard.E4.Flex/8/64"},
		armTypes: []string{"VM.Standard.A1.Flex/2/12", "VM.Standard.A1.Flex/4/24"},
		volType:  "balanced", discount: 0.0,
		flat: []flatService{
			{name: "Networking", category: "Networking", charge: "Usage", daily: 12, spiky: true},
		},
		scale: 30,
	},
}

// rng is a small deterministic generator (splitmix64), so the demo never
// depends on math/rand's algorithm or global state.
type rng struct{ s uint64 }

func newRNG(parts ...any) *rng {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return &rng{s: h.Sum64()}
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float returns a number in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func (r *rng) pick(xs []string) string { return xs[r.intn(len(xs))] }

// norm returns a standard normal draw (Box-Muller).
func (r *rng) norm() float64 {
	u1 := r.float()
	if u1 < 1e-12 {
		u1 = 1e-12
	}
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*r.float())
}

// noise is a deterministic draw for a (key, day) pair, independent of the
// order things are generated in.
func noise(parts ...any) float64 { return newRNG(parts...).norm() }

func hexID(r *rng, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.intn(16)]
	}
	return string(b)
}

// HistoryDays is how much history the demo has (docs/decisions.md).
const HistoryDays = 400

// UtilizationDays is how much hourly utilization the inventory carries.
const UtilizationDays = 30

func dayOf(first time.Time, offset int) time.Time { return first.AddDate(0, 0, offset) }
