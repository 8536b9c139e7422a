package billing

import (
	"bytes"
	"cmp"
	"math/big"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// Commitment discounts (reservations, savings plans) are summed beside the
// daily lines, per commitment, account and day: a few rows per commitment
// and day, whatever the number of source rows. A mapper fills a line's
// commit only when its export has the columns; the definitions of the
// measures are in docs/commitments.md.

// commitKind is what a row is to the commitment measures.
type commitKind uint8

const (
	commitNone commitKind = iota
	// commitCandidate is usage paid on demand the row's half of the
	// eligibility rule accepts (rowRule): eligible usage when its line key
	// is too (eligibleKey).
	commitCandidate
	// commitCovered is usage a commitment covered.
	commitCovered
	// commitFee is a commitment's own charge: what was purchased for the
	// period, used and unused.
	commitFee
)

// commitRow is what one source row says about commitments.
type commitRow struct {
	kind           commitKind
	id, typ, cat   []byte
	end            day
	coveredList    exact // on-demand equivalent of covered usage
	coveredCost    exact // what the covered usage cost, amortized
	used, unused   exact // commitment applied to usage and left unused
	units, unused2 exact // purchased and unused quantity (RI hours)
	// A commitment fee whose used part the row cannot tell (Google
	// Cloud's CUD fees): fee is split by utilized / capacity once the day
	// of the commitment is summed (see split), both in one unit (the
	// committed quantity, or the commitment's on-demand value).
	fee, capacity, utilized exact
	// partial marks a candidate row partly covered by a commitment:
	// onDemand, not the row's list cost, is its uncovered part.
	partial  bool
	onDemand exact
}

// Commitment types and categories the exports without such labels get
// (exported for the connectors that read the same exports where they
// live, so both name them alike).
const (
	// TypeReservedInstance is an AWS reservation's type.
	TypeReservedInstance = "Reserved Instance"
	// TypeSavingsPlan is a savings plan's type.
	TypeSavingsPlan = "Savings Plan"
	// CategoryUsage is FOCUS's CommitmentDiscountCategory of a
	// commitment to a quantity of usage.
	CategoryUsage = "Usage"
	// CategorySpend is that of a commitment to an amount spent.
	CategorySpend = "Spend"
)

// timeUnits are the (lower-case) words of a pricing unit of time (Hrs,
// Hours, GB-Seconds…): the usage commitments are sold for; data
// transfer, storage and requests are not.
var timeUnits = []string{"hour", "hrs", "second"}

// onDemandCategories are the PricingCategory values (in any case) of
// usage paid on demand.
var onDemandCategories = []string{"standard", "on-demand", "ondemand", "on demand"}

// timePriced reports whether a pricing unit is a unit of time (timeUnits).
func timePriced(unit []byte) bool {
	u := bytes.ToLower(unit)
	for _, w := range timeUnits {
		if bytes.Contains(u, []byte(w)) {
			return true
		}
	}
	return false
}

// Eligibility for a commitment discount is one rule in two halves: the
// line key's (eligibleKey: a usage charge of a service commitments are
// sold for, not an address, gateway or load balancer) and the row's
// (rowRule: paid on demand, priced by a unit of time, and no usage type or
// description of a charge no commitment covers). Eligible usage is the
// list cost of the rows both accept, or that a commitment covered: the
// figure the Commitments view and the purchase recommendation share.
// The clouds' rules: AWS savings plans cover EC2 instance hours, Fargate,
// Lambda compute and SageMaker; reservations EC2, RDS, ElastiCache,
// OpenSearch, Redshift, DynamoDB capacity and MemoryDB; never addresses,
// NAT gateways, load balancers, EBS, data transfer, Spot or extended
// support. Azure reservations and savings plans cover VM hours (not
// disks, addresses, bandwidth, licences), databases and some analytics;
// Google Cloud CUDs vCPU and memory of machines and database instances;
// OCI's annual commitment is sized by compute and database hours.

// eligibleCategories are the FOCUS service categories with a commitment
// for their time-priced usage; analyticsReservable names the analytics
// and machine-learning services among them (lower case).
var (
	eligibleCategories  = []string{"compute", "databases", "containers"}
	analyticsReservable = []string{"redshift", "opensearch", "elasticsearch", "synapse", "data explorer", "databricks", "sagemaker"}
)

// ineligibleUsage are (lower-case) words of a usage type, SKU, meter,
// charge description or resource type that mark a charge no commitment
// covers even when its service is compute: public addresses, NAT
// gateways, load balancers, data transfer, Spot and preemptible capacity,
// extended support, Kubernetes control planes, security add-ons and
// licences billed apart.
var ineligibleUsage = []string{
	"publicipv4", "public ipv4", "elasticip", "elastic ip", "elastic-ip", "ip address", "ipaddress", "public ip",
	"publicip", "static ip", "external ip", "addresses",
	"natgateway", "nat gateway", "nat-gateway", "cloud nat",
	"loadbalancer", "load balancer", "load-balancer", "lcu-", "lcuusage", "forwarding rule", "forwardingrule",
	"data transfer", "datatransfer", "-bytes", "data processed", "egress",
	"spot", "preemptible", "low priority", "snapshot", "pd capacity",
	"extended support", "extendedsupport",
	"percluster", "cluster usage", "kubernetes clusters", "cluster management", "uptime sla",
	"defender for", "licensing fee", "licenses",
}

// eligibleKey is the line key's half of the rule: usage of a service a
// commitment covers (compute, databases, containers, reservable analytics
// and machine learning), not of a Kubernetes control plane, and of no
// resource type ineligibleUsage names.
func eligibleKey(c *model.CostLine) bool {
	if !strings.EqualFold(c.ChargeCategory, "Usage") {
		return false
	}
	cat := c.ServiceCategory
	if cat == "" {
		cat = serviceCategory(c.Provider, c.Service)
	}
	cat = strings.ToLower(cat)
	svc := strings.ToLower(c.Service)
	switch {
	case slices.Contains(eligibleCategories, cat):
	case cat == "analytics" || cat == "ai and machine learning":
		if !slices.ContainsFunc(analyticsReservable, func(s string) bool { return strings.Contains(svc, s) }) {
			return false
		}
	default:
		return false
	}
	rt := []byte(c.ResourceType)
	if kubernetes(svc) && bytes.Contains(bytes.ToLower(rt), []byte("cluster")) {
		return false // the control plane's hours, not its nodes
	}
	return !ineligibleText(rt)
}

// kubernetes reports a managed Kubernetes service name (lower case).
func kubernetes(svc string) bool {
	return strings.Contains(svc, "kubernetes") || svc == "oke" || svc == "container_engine"
}

// ineligibleText reports whether s names a charge no commitment covers.
func ineligibleText(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	var low [256]byte
	b := low[:0]
	if len(s) > len(low) {
		b = make([]byte, 0, len(s))
	}
	for _, c := range s {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	for _, w := range ineligibleUsage {
		if bytes.Contains(b, []byte(w)) {
			return true
		}
	}
	return false
}

// rowRule is a row's half of the rule, with the verdicts of the rows it
// has seen: a usage row paid on demand (PricingCategory neither Dynamic,
// Committed nor Other when the export gives it), priced by a unit of time
// (not LCU-hours), whose texts (usage type, SKU, meter, description) name
// no ineligible charge. Each mapper (one per worker) holds one.
type rowRule struct {
	seen map[string]bool
	buf  []byte
}

// EligibleRow is the row's half of the commitment eligibility rule, for
// the connectors that aggregate an export where it lives: a row with this
// PricingCategory ("" when not given), pricing unit and texts (usage
// type, SKU or meter, charge description) may be eligible usage; its line
// must also pass EligibleUsage.
func EligibleRow(pricingCategory, unit string, texts ...string) bool {
	var r rowRule
	bs := make([][]byte, len(texts))
	for i, t := range texts {
		bs[i] = []byte(t)
	}
	return r.eligible([]byte(pricingCategory), []byte(unit), bs...)
}

// RowWords is the row's half of the eligibility rule as the words it
// matches, for a connector whose query must state part of it where the
// rows are: the rule reads these very lists, so a predicate built from
// them is the rule's, not a second one.
type RowWords struct {
	// OnDemand are the PricingCategory values of usage paid on demand,
	// matched whole in any case; a row without one is on demand too.
	OnDemand []string
	// TimeUnits: a pricing unit of time contains one (lower case).
	TimeUnits []string
	// Ineligible: a unit or text (usage type, SKU, meter, charge
	// description) containing one (lower case, ASCII) names a charge no
	// commitment covers.
	Ineligible []string
}

// EligibleRowWords returns the words of EligibleRow (copies).
func EligibleRowWords() RowWords {
	return RowWords{OnDemand: slices.Clone(onDemandCategories), TimeUnits: slices.Clone(timeUnits),
		Ineligible: slices.Clone(ineligibleUsage)}
}

// unknownTime stands for the unit of an export without a unit column:
// its rows are taken as priced by time, the other halves still apply.
var unknownTime = []byte("hours")

// rowRuleMemo bounds the verdicts a rowRule keeps: usage types repeat,
// descriptions with prices less so.
const rowRuleMemo = 1 << 14

func (r *rowRule) eligible(pricingCategory, unit []byte, texts ...[]byte) bool {
	if len(pricingCategory) > 0 && !equalFoldAny(pricingCategory, onDemandCategories...) {
		return false
	}
	if !timePriced(unit) {
		return false
	}
	b := append(r.buf[:0], unit...)
	for _, t := range texts {
		b = append(append(b, 0), t...)
	}
	r.buf = b
	if v, ok := r.seen[string(b)]; ok {
		return v
	}
	v := !ineligibleText(unit)
	for _, t := range texts {
		v = v && !ineligibleText(t)
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if len(r.seen) < rowRuleMemo {
		r.seen[string(b)] = v
	}
	return v
}

// commitKey identifies the commitment sums of one day.
type commitKey struct {
	provider          model.ProviderKey
	account, currency string
	id, typ, cat      string
	day               model.DayNum
}

// commitSums are the sums of one commitKey.
type commitSums struct {
	end                                    day
	coveredList, coveredCost, used, unused exact
	onDemand, units, unusedUnits           exact
	fee, capacity, utilized                exact
}

func (s *commitSums) add(o *commitSums) bool {
	ok := true
	for _, p := range [...]struct {
		dst *exact
		v   exact
	}{{&s.coveredList, o.coveredList},
		{&s.coveredCost, o.coveredCost}, {&s.used, o.used}, {&s.unused, o.unused}, {&s.onDemand, o.onDemand},
		{&s.units, o.units}, {&s.unusedUnits, o.unusedUnits},
		{&s.fee, o.fee}, {&s.capacity, o.capacity}, {&s.utilized, o.utilized}} {
		var k bool
		if *p.dst, k = p.dst.add(p.v); !k {
			ok = false
		}
	}
	if !o.end.isZero() && (s.end.isZero() || string(o.end[:]) > string(s.end[:])) {
		s.end = o.end
	}
	return ok
}

// addCommit sums a line's commitment measures; lk is its line key.
func (a *aggregator) addCommit(l *rawLine, lk localKey) *fieldError {
	c := &l.commit
	var s commitSums
	k := commitKey{provider: lk.provider, account: lk.account, currency: lk.currency, day: l.day.num()}
	switch c.kind {
	case commitCandidate:
		if !lk.eligible {
			return nil
		}
		s.onDemand = l.list
		if c.partial {
			s.onDemand = c.onDemand
		}
	case commitCovered, commitFee:
		k.id, k.typ, k.cat = string(c.id), string(c.typ), string(c.cat)
		s = commitSums{end: c.end, coveredList: c.coveredList, coveredCost: c.coveredCost, used: c.used,
			unused: c.unused, units: c.units, unusedUnits: c.unused2, fee: c.fee, capacity: c.capacity,
			utilized: c.utilized}
	default:
		return nil
	}
	if a.commits == nil {
		a.commits = map[commitKey]*commitSums{}
	}
	t := a.commits[k]
	if t == nil {
		t = &commitSums{}
		a.commits[k] = t
	}
	if !t.add(&s) {
		return badField("cost", "%v: commitment sum exceeds the supported range", errOverflow)
	}
	return nil
}

// commitFacts merges the workers' commitment sums into each provider's
// facts, rounded once, in a stable order.
func commitFacts(ws []*worker) (map[model.ProviderKey][]model.CommitmentFact, error) {
	all := map[commitKey]*commitSums{}
	for _, w := range ws {
		for k, s := range w.agg.commits {
			t := all[k]
			if t == nil {
				t = &commitSums{}
				all[k] = t
			}
			if !t.add(s) {
				return nil, errOverflow
			}
		}
	}
	out := map[model.ProviderKey][]model.CommitmentFact{}
	for k, s := range all {
		if !s.split() {
			return nil, errOverflow
		}
		f := model.CommitmentFact{Account: k.account, Day: k.day, ID: k.id, Type: k.typ, Category: k.cat,
			Currency: k.currency, CoveredList: s.coveredList.round(), CoveredCost: s.coveredCost.round(),
			Used: s.used.round(), Unused: s.unused.round(), OnDemand: s.onDemand.round(),
			Units: s.units.round(), UnusedUnits: s.unusedUnits.round()}
		if !s.end.isZero() {
			f.End = s.end.num()
		}
		out[k.provider] = append(out[k.provider], f)
	}
	for _, fs := range out {
		slices.SortFunc(fs, func(a, b model.CommitmentFact) int {
			return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.Account, b.Account), cmp.Compare(a.ID, b.ID),
				cmp.Compare(a.Type, b.Type), cmp.Compare(a.Currency, b.Currency))
		})
	}
	return out, nil
}

// split divides a day's commitment fee into its used and unused parts by
// utilized / capacity (at most 1): the used part is what the covered usage
// cost. Capacity and utilized are not kept as units: a group may sum
// vCPU-hours of several machine families, so utilization stays by cost,
// each group weighted by its fee. With no capacity the split is unknown:
// the fee is counted as the covered usage's cost and neither used nor
// unused, so utilization stays undefined while savings stay right.
func (s *commitSums) split() bool {
	if s.fee.isZero() && s.capacity.isZero() {
		return true
	}
	fee, capacity := s.fee.rat(), s.capacity.rat()
	s.fee, s.capacity = exact{}, exact{}
	if capacity.Sign() <= 0 {
		var ok bool
		s.coveredCost, ok = s.coveredCost.add(exactOf(fee))
		return ok
	}
	u := s.utilized.rat()
	s.utilized = exact{}
	if u.Cmp(capacity) > 0 {
		u = capacity
	}
	if u.Sign() < 0 {
		u = new(big.Rat)
	}
	used := new(big.Rat).Mul(fee, u)
	used.Quo(used, capacity)
	for _, p := range []struct {
		dst *exact
		v   *big.Rat
	}{{&s.used, used}, {&s.unused, new(big.Rat).Sub(fee, used)}, {&s.coveredCost, used}} {
		v, ok := exactRat(p.v)
		if !ok {
			return false
		}
		if *p.dst, ok = p.dst.add(v); !ok {
			return false
		}
	}
	return true
}

// exactOf is x to 18 decimals, zero when it does not fit (x is a sum of
// exact amounts, so it does).
func exactOf(x *big.Rat) exact {
	v, _ := exactRat(x)
	return v
}
