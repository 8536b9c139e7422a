package billing

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/costpilot/costpilot/backend/model"
)

var errOverflow = errors.New("amount overflow")

// Aggregation state is compact: a line's identity (all but the day and the
// amounts) is interned once per file as a key id, and a daily line is a
// uint64 (key id << 32 | day) with three amounts and a quantity. Past a memory budget a
// worker writes its sums to a sorted run on disk and starts again; the
// runs are merged at the end (see spill.go). So memory stays bounded
// whatever the number of distinct daily lines.

// DefaultMemoryBudget bounds the aggregation state of one import.
const DefaultMemoryBudget = 256 << 20

// entryBytes is what one daily line costs in a worker: its map slot, its
// entry (72 bytes), and the slack of both growing.
const entryBytes = 120

// keyBits is how many bits of a key id count keys within a provider; the
// bits above them are the provider's index, so the lines of one provider
// sort together.
const keyBits = 24

const maxKeysPerProvider = 1 << keyBits

// entry is one daily line being summed.
type entry struct {
	k          uint64 // key id << 32 | uint32(day number)
	b, e, l, q exact  // the amounts and the quantity (millions of units)
}

func (x *entry) key() int32        { return int32(x.k >> 32) }
func (x *entry) day() model.DayNum { return model.DayNum(int32(uint32(x.k))) }

func (x *entry) add(y *entry) bool {
	var ok1, ok2, ok3, ok4 bool
	x.b, ok1 = x.b.add(y.b)
	x.e, ok2 = x.e.add(y.e)
	x.l, ok3 = x.l.add(y.l)
	x.q, ok4 = x.q.add(y.q)
	return ok1 && ok2 && ok3 && ok4
}

// sum sets *dst to the exact sum of xs; a fieldError naming column on
// overflow.
func sum(dst *exact, column string, xs ...exact) *fieldError {
	var t exact
	for _, x := range xs {
		var ok bool
		if t, ok = t.add(x); !ok {
			return badField(column, "%v", errOverflow)
		}
	}
	*dst = t
	return nil
}

// addNanos adds with an overflow check.
func addNanos(a, b model.Nanos) (model.Nanos, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return a, false
	}
	return s, true
}

// keyTable interns line identities for all the workers of one file.
type keyTable struct {
	mu   sync.Mutex
	ids  map[string]int32
	keys map[model.ProviderKey][]model.CostLine
	max  int // Options.MaxKeys; 0: no bound
}

func newKeyTable() *keyTable {
	return &keyTable{ids: map[string]int32{}, keys: map[model.ProviderKey][]model.CostLine{}}
}

func providerIndex(p model.ProviderKey) int32 {
	for i, k := range model.AllProviders {
		if k == p {
			return int32(i)
		}
	}
	return int32(len(model.AllProviders))
}

func (t *keyTable) intern(c model.CostLine) (int32, *fieldError) {
	if !c.Provider.Valid() {
		return 0, badField("provider", "provider %q is not aws, azure, gcp or oci", c.Provider)
	}
	k := c.IdentityKey()
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[k]; ok {
		return id, nil
	}
	if t.max > 0 && len(t.ids) >= t.max {
		return 0, badField("row", "more than %d distinct resources and charges in one import: raise import.max_resources to import it", t.max)
	}
	n := len(t.keys[c.Provider])
	if n >= maxKeysPerProvider {
		return 0, badField("row", "more than %d distinct resources and charges for %s in one file", maxKeysPerProvider, c.Provider)
	}
	id := providerIndex(c.Provider)<<keyBits | int32(n)
	t.ids[k] = id
	t.keys[c.Provider] = append(t.keys[c.Provider], c)
	return id, nil
}

// localKey is what a worker remembers of a raw key.
type localKey struct {
	id                int32
	provider          model.ProviderKey
	account, currency string
	eligible          bool // on-demand usage of it counts as eligible for commitments
}

// aggregator sums one worker's lines.
type aggregator struct {
	m      mapper
	keys   *keyTable
	spill  *spiller
	local  map[string]localKey // raw dims -> key
	kbuf   []byte
	idx    map[uint64]int32 // entry key -> index in entries
	sums   []entry
	limit  int
	spans  map[model.ProviderKey]*spans
	totals map[model.ProviderKey]map[string]Totals
	names  map[model.ProviderKey]map[string]string // account id -> name
	// commits are the commitment sums (see commitment.go); they never
	// spill: a few per commitment and day.
	commits map[commitKey]*commitSums
}

func newAggregator(m mapper, keys *keyTable, sp *spiller, limit int) *aggregator {
	return &aggregator{m: m, keys: keys, spill: sp, local: make(map[string]localKey, 1024),
		idx: make(map[uint64]int32, 1024), limit: max(limit, 1024), spans: map[model.ProviderKey]*spans{},
		totals: map[model.ProviderKey]map[string]Totals{}}
}

// add sums l into its daily line; a new key is described once.
func (a *aggregator) add(l *rawLine) *fieldError {
	k := a.kbuf[:0]
	for _, d := range l.dims {
		k = binary.AppendUvarint(k, uint64(len(d)))
		k = append(k, d...)
	}
	a.kbuf = k
	lk, ok := a.local[string(k)]
	if !ok {
		cl, ferr := a.m.describe(l)
		if ferr != nil {
			return ferr
		}
		id, ferr := a.keys.intern(cl)
		if ferr != nil {
			return ferr
		}
		lk = localKey{id: id, provider: cl.Provider, account: cl.BillingAccount, currency: cl.Currency,
			eligible: eligibleKey(&cl)}
		a.local[string(k)] = lk
		if n, ok := a.m.(namer); ok {
			a.addNames(cl.Provider, n.accountNames(l))
		}
	}
	sp := a.spans[lk.provider]
	if sp == nil {
		sp = &spans{}
		a.spans[lk.provider] = sp
	}
	sp.rows.widen(l.day)
	sp.period.widen(l.pstart)
	sp.period.widen(l.pend)
	ek := uint64(uint32(lk.id))<<32 | uint64(uint32(l.day.num()))
	i, ok := a.idx[ek]
	if !ok {
		i = int32(len(a.sums))
		a.idx[ek] = i
		a.sums = append(a.sums, entry{k: ek})
	}
	if !a.sums[i].add(&entry{b: l.billed, e: l.effective, l: l.list, q: l.quantity}) {
		return badField("cost", "%v: daily sum of the cost or the quantity exceeds the supported range", errOverflow)
	}
	if l.commit.kind != commitNone {
		if fe := a.addCommit(l, lk); fe != nil {
			return fe
		}
	}
	if len(a.sums) >= a.limit {
		if err := a.flush(); err != nil {
			return badField("row", "cannot spill the import's sums to disk: %v", err)
		}
	}
	return nil
}

// addNames keeps the account names a line gives.
func (a *aggregator) addNames(p model.ProviderKey, pairs [][2][]byte) {
	for _, pr := range pairs {
		id, name := strings.TrimSpace(string(pr[0])), strings.TrimSpace(string(pr[1]))
		if id == "" || name == "" || name == id {
			continue
		}
		if a.names == nil {
			a.names = map[model.ProviderKey]map[string]string{}
		}
		if a.names[p] == nil {
			a.names[p] = map[string]string{}
		}
		a.names[p][id] = name
	}
}

// flush moves the sums to a sorted run on disk and starts again.
func (a *aggregator) flush() error {
	a.sort()
	if err := a.spill.write(a.sums); err != nil {
		return err
	}
	clear(a.idx)
	a.sums = a.sums[:0]
	return nil
}

func (a *aggregator) sort() {
	slices.SortFunc(a.sums, func(x, y entry) int {
		switch {
		case x.k < y.k:
			return -1
		case x.k > y.k:
			return 1
		}
		return 0
	})
}

// spans are the days one provider's lines cover (rows) and the billing
// periods they name (period).
type spans struct {
	rows, period span
}

// span is a range of days.
type span struct {
	from, to day
}

func (s *span) widen(d day) {
	if d.isZero() {
		return
	}
	if s.from.isZero() || string(d[:]) < string(s.from[:]) {
		s.from = d
	}
	if s.to.isZero() || string(d[:]) > string(s.to[:]) {
		s.to = d
	}
}
