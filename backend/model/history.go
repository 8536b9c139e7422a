package model

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// DateLayout is the layout of calendar days (UTC) everywhere.
const DateLayout = "2006-01-02"

// CostLine is one row of the daily cost history, in FOCUS terms: the cost of
// one resource (or service, where there is no resource) on one UTC day.
type CostLine struct {
	Provider        ProviderKey `json:"provider"`
	Day             string      `json:"day"`                 // YYYY-MM-DD, UTC; of an aggregated line, its last day
	FirstDay        string      `json:"first_day,omitempty"` // of an aggregated line: its first day
	BillingAccount  string      `json:"billing_account"`
	SubAccount      string      `json:"sub_account"`
	Service         string      `json:"service"`
	ServiceCategory string      `json:"service_category"`
	Region          string      `json:"region"`
	ResourceID      string      `json:"resource_id"`
	ResourceType    string      `json:"resource_type"`
	// ResourceName is the resource's name where the source gives one
	// (FOCUS ResourceName, the CUR Name tag…). Not part of the line's
	// identity: a renamed resource keeps its lines, and the store keeps
	// the latest name beside them.
	ResourceName   string `json:"resource_name,omitempty"`
	ChargeCategory string `json:"charge_category"` // Usage, Purchase, Tax, Credit, Adjustment
	// Usage is what was used, as the bill names it: the AWS usage type
	// (APN1-EBS:VolumeUsage.gp2), the Azure meter (category / subcategory
	// / name), the SKU (id / description) of Google, OCI and FOCUS without
	// x_UsageType. Unit is its pricing unit (GB-Mo, 1 Hour…). Both are part
	// of the line's identity, so the usages of one resource stay apart.
	Usage     string            `json:"usage,omitempty"`
	Unit      string            `json:"unit,omitempty"`
	Tags      map[string]string `json:"tags,omitempty"`
	Currency  string            `json:"currency"`
	Billed    Nanos             `json:"billed"`
	Effective Nanos             `json:"effective"`
	List      Nanos             `json:"list"`
	// Quantity is the usage in Unit, summed like the amounts. A float: it
	// is a measure, not money.
	Quantity float64 `json:"quantity,omitempty"`
}

// Bounds of the usage detail: a bill's descriptions are a few dozen
// characters; anything longer is cut, so one odd row cannot make every
// line key large.
const (
	MaxUsageLen = 256
	MaxUnitLen  = 64
	MaxNameLen  = 256 // a resource name
)

// ClipDim cuts s to at most n bytes, at a rune boundary.
func ClipDim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Batch is a set of cost lines that replaces the history of one provider and
// source over a span of days. When Accounts is not empty, only those billing
// accounts are replaced (an export of one account leaves the others alone).
// The lines come either as Lines or, for large imports, in the compact
// form Facts.
type Batch struct {
	Provider ProviderKey
	// ProviderName is the display name of a provider beyond the clouds
	// (its FOCUS ServiceProviderName), kept beside its key; "" for a cloud.
	ProviderName string
	Source       SourceKind
	From, To     string   // inclusive days, YYYY-MM-DD
	Accounts     []string // billing accounts the batch covers; empty: all
	Origin       string   // file name or API, for the import log
	Lines        []CostLine
	Facts        *Facts
	// Part, when set, says the batch holds only part of what is stored for
	// its days (see Part); nil: the batch replaces its span whole.
	Part *Part
	// AccountNames are names the source gives its accounts (id to name),
	// kept for showing names instead of ids; they do not change the lines.
	AccountNames map[string]string
	// Commitments are the batch's commitment discounts per day and the
	// eligible usage they left uncovered. A whole batch (Part nil)
	// replaces the commitment facts of its span even when it has none; a
	// part replaces them only when it carries some.
	Commitments []CommitmentFact
	// CommitmentsNote, from a live connector that reads commitment
	// discounts, says why the batch carries none although its costs are
	// complete: the calls that read them failed (a missing permission…).
	CommitmentsNote string
}

// Part kinds: how a batch adds to what is stored for its days.
const (
	// PartSlice is one report of a series whose reports add up (OCI cost
	// reports cover a few hours each and are never restated): it replaces
	// only the stored report of the same name and accounts.
	PartSlice = "slice"
	// PartActual and PartAmortized are the two halves of an Azure cost
	// export pair for one scope and period: billed and list cost come from
	// the actual-cost export, effective cost from the amortized one; a half
	// alone gives all three. A newer export of the same half replaces the
	// older.
	PartActual    = "actual"
	PartAmortized = "amortized"
)

// Part describes a batch that adds to the history instead of replacing its
// whole span.
type Part struct {
	Kind  string
	Label string // a slice's report name: with the accounts, its identity
}

// Facts is a batch's daily lines in compact form: each distinct line
// identity once in Keys (a CostLine whose Day, amounts and quantity are
// unused), and the amounts and quantity per key and day from Each, in key then day order. Each may be
// called once; it stops at the first error of yield or of its own source.
type Facts struct {
	Keys []CostLine
	Each func(yield func(Fact) error) error
	N    int64 // number of facts
}

// Fact is the amounts and quantity of one line key on one day.
type Fact struct {
	Key                     int32 // index into Facts.Keys
	Day                     DayNum
	Billed, Effective, List Nanos
	Quantity                float64
	// Frac is what each amount's exact sum (to 18 decimals) has beyond its
	// rounded nanos, in units of 1e-18 (|Frac| <= 5e8): kept where parts
	// of one day are summed later, so they are rounded once.
	Frac [3]int64
}

// LineFacts turns lines into the compact form, summing lines with the same
// identity and day.
func LineFacts(lines []CostLine) (*Facts, error) {
	type kd struct {
		key int32
		day DayNum
	}
	ids := map[string]int32{}
	var keys []CostLine
	sums := map[kd]*Fact{}
	for i := range lines {
		l := &lines[i]
		d, ok := ParseDayNum(l.Day)
		if !ok {
			return nil, fmt.Errorf("line %d: bad day %q", i, l.Day)
		}
		id, ok := ids[l.IdentityKey()]
		if !ok {
			id = int32(len(keys))
			ids[l.IdentityKey()] = id
			k := *l
			k.Day, k.Billed, k.Effective, k.List, k.Quantity = "", 0, 0, 0, 0
			keys = append(keys, k)
		}
		f := sums[kd{id, d}]
		if f == nil {
			f = &Fact{Key: id, Day: d}
			sums[kd{id, d}] = f
		}
		f.Billed += l.Billed
		f.Effective += l.Effective
		f.List += l.List
		f.Quantity += l.Quantity
	}
	out := make([]Fact, 0, len(sums))
	for _, f := range sums {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Key != out[j].Key {
			return out[i].Key < out[j].Key
		}
		return out[i].Day < out[j].Day
	})
	return &Facts{Keys: keys, N: int64(len(out)), Each: func(yield func(Fact) error) error {
		for _, f := range out {
			if err := yield(f); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// IdentityKey identifies a line by everything but its day and amounts.
func (c *CostLine) IdentityKey() string {
	return strings.Join([]string{string(c.Provider), c.BillingAccount, c.SubAccount, c.Service,
		c.ServiceCategory, c.Region, c.ResourceID, c.ResourceType, c.ChargeCategory,
		CanonicalTags(c.Tags), c.Currency, c.Usage, c.Unit}, "\x1f")
}

// CanonicalTags encodes tags as JSON with sorted keys (encoding/json sorts
// map keys): one spelling per tag set.
func CanonicalTags(tags map[string]string) string {
	if len(tags) == 0 {
		return "{}"
	}
	b, _ := json.Marshal(tags)
	return string(b)
}

// Resource is one item of a provider's inventory.
type Resource struct {
	Provider     ProviderKey       `json:"provider"`
	ResourceID   string            `json:"resource_id"`
	Name         string            `json:"name"`
	ResourceType string            `json:"resource_type"` // instance, volume, public_ip, snapshot, database, ...
	Service      string            `json:"service"`
	Account      string            `json:"account"`
	Region       string            `json:"region"`
	InstanceType string            `json:"instance_type,omitempty"`
	State        string            `json:"state"` // running, stopped, available, in-use, ...
	Attached     bool              `json:"attached"`
	SizeGB       float64           `json:"size_gb,omitempty"`
	VCPU         float64           `json:"vcpu,omitempty"`
	MemoryGB     float64           `json:"memory_gb,omitempty"`
	HourlyCost   float64           `json:"hourly_cost"`
	Group        string            `json:"group,omitempty"` // autoscaling group or fleet
	CreatedAt    time.Time         `json:"created_at"`
	Tags         map[string]string `json:"tags,omitempty"`
}

// UtilizationSample is one hourly utilization reading of a resource.
// CPU and Memory are fractions (0..1); Memory is negative when unknown
// (no agent publishes it). Network is bytes in plus out over the hour.
type UtilizationSample struct {
	ResourceID   string    `json:"resource_id"`
	Time         time.Time `json:"time"`
	CPU          float64   `json:"cpu"`
	Memory       float64   `json:"memory"`
	NetworkBytes float64   `json:"network_bytes"`
}

// Inventory is what a provider knows of its resources right now, with
// their recent utilization.
type Inventory struct {
	Provider    ProviderKey         `json:"provider"`
	Resources   []Resource          `json:"resources"`
	Utilization []UtilizationSample `json:"utilization"`
}

// DailyPoint is the cost of one day, or of the bucket (week, month)
// starting that day.
type DailyPoint struct {
	Date string  `json:"date"`
	Cost float64 `json:"cost"`
	// Partial marks a bucket the period covers only in part (a month
	// whose first days are before the period starts); Days is then how
	// many of its days the period has. A chart marks it, so it is not
	// read as a dip.
	Partial bool `json:"partial,omitempty"`
	Days    int  `json:"days,omitempty"`
}

// Amount is the line's amount in metric m (billed when m is empty).
func (l *CostLine) Amount(m CostMetric) Nanos {
	switch m {
	case MetricEffective:
		return l.Effective
	case MetricList:
		return l.List
	}
	return l.Billed
}
