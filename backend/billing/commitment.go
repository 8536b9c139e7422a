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
// measures are in the README ("Commitments").

// commitKind is what a row is to the commitment measures.
type commitKind uint8

const (
	commitNone commitKind = iota
	// commitCandidate is usage paid on demand and priced by time: eligible
	// usage when its service is compute or a database (eligibleKey).
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

// timePriced reports whether a pricing unit is a unit of time (Hrs, Hours,
// GB-Seconds…): the usage commitments are sold for; data transfer,
// storage and requests are not.
func timePriced(unit []byte) bool {
	u := bytes.ToLower(unit)
	return bytes.Contains(u, []byte("hour")) || bytes.Contains(u, []byte("hrs")) ||
		bytes.Contains(u, []byte("second"))
}

// eligibleKey reports whether on-demand usage of a line key can be covered
// by a commitment: usage of compute or databases.
func eligibleKey(c *model.CostLine) bool {
	return strings.EqualFold(c.ChargeCategory, "Usage") &&
		(strings.EqualFold(c.ServiceCategory, "Compute") || strings.EqualFold(c.ServiceCategory, "Databases"))
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
