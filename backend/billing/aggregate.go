package billing

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/costpilot/costpilot/backend/model"
)

var errOverflow = errors.New("amount overflow")

// Aggregation state is compact: a line's identity (all but the day and the
// amounts) is interned once per file as a key id, and a daily line is a
// uint64 (key id << 32 | day) with three amounts and a quantity. One memory budget holds
// both: the identities, counted by their size as they are interned, and
// the sums, which past what the identities leave are written to a sorted
// run on disk by their worker, which starts again; the runs are merged at
// the end (see spill.go). The identities cannot spill (the store needs
// them all at hand), so past their share of the budget an import is
// refused. So memory stays bounded whatever the number of lines.

// DefaultMemoryBudget bounds the aggregation state of one import.
const DefaultMemoryBudget = 256 << 20

// The identities (with the raw keys that name them) may take up to
// keyShare of the budget; the sums always keep the rest.
const keyShare = 0.75

// minSums is how many sums a worker holds before it spills whatever the
// identities take, so that a run is never tiny.
const minSums = 1024

// Sizes behind the estimate of an identity's memory: a CostLine, a
// string's header, a tag's map slot, a map's header, a map entry's share
// of its table, and what allocation rounds up: set against the heap's
// growth (TestIdentityEstimate).
const (
	costLineBytes = int64(unsafe.Sizeof(model.CostLine{}))
	strHeader     = int64(unsafe.Sizeof(""))
	tagSlotBytes  = 2*strHeader + 40
	mapBytes      = 160
	mapSlotBytes  = 16
	roundingBytes = 112
)

// identityBytes estimates what interning c holds: its digest in the
// table's index, the CostLine with its strings and tags.
func identityBytes(c *model.CostLine) int64 {
	n := costLineBytes + int64(unsafe.Sizeof(digest{})) + 4 + mapSlotBytes + roundingBytes
	for _, s := range [...]string{string(c.Provider), c.BillingAccount, c.SubAccount, c.Service, c.ServiceCategory,
		c.Region, c.ResourceID, c.ResourceType, c.ResourceName, c.ChargeCategory, c.Usage, c.Unit, c.Currency} {
		n += int64(len(s))
	}
	if len(c.Tags) > 0 {
		n += mapBytes
		for k, v := range c.Tags {
			n += tagSlotBytes + int64(len(k)+len(v))
		}
	}
	return n
}

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
	ids  map[digest]int32 // by the identity key's digest
	keys map[model.ProviderKey][]model.CostLine
	// order is the providers by index (see providerIndex); names the
	// display names of the extra ones.
	order []model.ProviderKey
	names map[model.ProviderKey]string
	max   int // Options.MaxKeys; 0: no bound
	// bytes is the estimated memory of the identities and raw keys,
	// maxBytes its bound (keyShare of the budget).
	bytes    atomic.Int64
	maxBytes int64
	// raw finds the key of a line's raw dimensions without describing it
	// again: one map for all the workers (in shards, so they seldom wait
	// for each other), so that each raw key is held once however many
	// cores read.
	raw      [rawShards]rawShard
	rawBytes atomic.Int64 // the raw keys' part of bytes
	seeds    [2]maphash.Seed
}

// digest stands for a key in the indexes: two 64-bit hashes with seeds
// drawn for the import. Holding the keys themselves (an identity's names
// and tags twice more, about 2.5 KB of a resource with 20 tags) halved
// how many resources fit the budget. Two different keys would share a
// digest with a chance of about n²/2¹²⁹: 10⁻²⁷ for a million, and the
// seeds are secret, so no file can be made to collide.
type digest [2]uint64

func (t *keyTable) digestBytes(k []byte) digest {
	return digest{maphash.Bytes(t.seeds[0], k), maphash.Bytes(t.seeds[1], k)}
}

func (t *keyTable) digestString(k string) digest {
	return digest{maphash.String(t.seeds[0], k), maphash.String(t.seeds[1], k)}
}

const rawShards = 64

type rawShard struct {
	mu sync.Mutex
	m  map[digest]localKey
}

func newKeyTable() *keyTable {
	t := &keyTable{ids: map[digest]int32{}, keys: map[model.ProviderKey][]model.CostLine{},
		order: slices.Clone(model.AllProviders), names: map[model.ProviderKey]string{},
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
	for i := range t.raw {
		t.raw[i].m = map[digest]localKey{}
	}
	return t
}

// lookup returns the key raw dimensions k were interned as.
func (t *keyTable) lookup(k []byte) (localKey, bool) {
	d := t.digestBytes(k)
	s := &t.raw[d[0]%rawShards]
	s.mu.Lock()
	lk, ok := s.m[d]
	s.mu.Unlock()
	return lk, ok
}

// remember keeps the key of raw dimensions k; it reports false when
// another worker did first.
func (t *keyTable) remember(k []byte, lk localKey) bool {
	d := t.digestBytes(k)
	s := &t.raw[d[0]%rawShards]
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[d]; ok {
		return false
	}
	s.m[d] = lk
	n := localKeyBytes
	t.rawBytes.Add(n)
	t.bytes.Add(n)
	return true
}

// forgetRaw empties the raw keys when a file starts: they are read by
// the file's own header.
func (t *keyTable) forgetRaw() {
	for i := range t.raw {
		s := &t.raw[i]
		s.mu.Lock()
		s.m = map[digest]localKey{}
		s.mu.Unlock()
	}
	t.bytes.Add(-t.rawBytes.Swap(0))
}

// release frees the indexes, which only interning needs: the store gets
// the identities alone.
func (t *keyTable) release() {
	t.ids = nil
	for i := range t.raw {
		t.raw[i].m = nil
	}
}

// providerIndex is p's index in t.order, the bits of its key ids above
// keyBits: the clouds first, then the extra providers as the file names
// them, at most model.MaxExtraProviders (so ids stay positive). Called
// with t.mu held.
func (t *keyTable) providerIndex(p model.ProviderKey) (int32, *fieldError) {
	if i := slices.Index(t.order, p); i >= 0 {
		return int32(i), nil
	}
	if len(t.order) >= len(model.AllProviders)+model.MaxExtraProviders {
		return 0, badField("provider", "more than %d providers besides aws, azure, gcp and oci in one import (the last is %q)", model.MaxExtraProviders, p)
	}
	t.order = append(t.order, p)
	return int32(len(t.order) - 1), nil
}

// nameProvider keeps the display name of an extra provider (the first
// name met).
func (t *keyTable) nameProvider(p model.ProviderKey, name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.names[p]; !ok && name != "" {
		t.names[p] = name
	}
}

func (t *keyTable) intern(c model.CostLine) (int32, *fieldError) {
	if !c.Provider.Valid() {
		return 0, badField("provider", "provider %q is not aws, azure, gcp, oci or a provider key (lower-case letters, digits and -)", c.Provider)
	}
	k := c.IdentityKey()
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.digestString(k)
	if id, ok := t.ids[d]; ok {
		return id, nil
	}
	pi, fe := t.providerIndex(c.Provider)
	if fe != nil {
		return 0, fe
	}
	if t.max > 0 && len(t.ids) >= t.max {
		return 0, badField("row", "more than %d distinct resources and charges in one import: raise import.max_resources to import it", t.max)
	}
	size := identityBytes(&c)
	if t.maxBytes > 0 && t.bytes.Load()+size > t.maxBytes {
		return 0, badField("row", "the %d distinct resources and charges read so far (their ids, names and tags) take more than the %d MiB an import may hold in memory: split the export (by account or month) to import it",
			len(t.ids), t.maxBytes>>20)
	}
	t.bytes.Add(size)
	n := len(t.keys[c.Provider])
	if n >= maxKeysPerProvider {
		return 0, badField("row", "more than %d distinct resources and charges for %s in one file", maxKeysPerProvider, c.Provider)
	}
	id := pi<<keyBits | int32(n)
	t.ids[d] = id
	t.keys[c.Provider] = append(t.keys[c.Provider], c)
	return id, nil
}

// localKeyBytes is a cached raw key's memory: its digest and entry.
const localKeyBytes = int64(unsafe.Sizeof(localKey{})+unsafe.Sizeof(digest{})) + mapSlotBytes

// localKey is what a worker remembers of a raw key.
type localKey struct {
	id                int32
	provider          model.ProviderKey
	account, currency string
	eligible          bool // on-demand usage of it counts as eligible for commitments
}

// providerNamer is a mapper whose rows may be of providers beyond the
// clouds (FOCUS): it gives their display names.
type providerNamer interface {
	displayName(l *rawLine) string
}

// aggregator sums one worker's lines.
type aggregator struct {
	m     mapper
	keys  *keyTable
	spill *spiller
	kbuf  []byte
	// wins find most sums by key and day (see dayWindow), idx the rest
	// (entry key -> index in sums); winBytes is what the windows hold.
	wins     [][]dayWindow // by provider index, then key within it
	winBytes int64
	// spilled: the worker has written a run; the windows are off from
	// then on, since a worker that spills holds a few days of each key
	// between runs, less than a window's memory pays for.
	spilled bool
	idx     map[uint64]int32
	sums    []entry
	// share is this worker's part of the memory budget (identities
	// included, in equal parts); limit is the most sums it may hold.
	share  int64
	n      int64 // workers sharing the budget
	limit  int
	spans  map[model.ProviderKey]*spans
	totals map[model.ProviderKey]map[string]Totals
	names  map[model.ProviderKey]map[string]string // account id -> name
	// commits are the commitment sums (see commitment.go); they never
	// spill: a few per commitment and day.
	commits map[commitKey]*commitSums
}

func newAggregator(m mapper, keys *keyTable, sp *spiller, budget int64, n int) *aggregator {
	share := budget / int64(n)
	return &aggregator{m: m, keys: keys, spill: sp, share: share, n: int64(n),
		idx: make(map[uint64]int32, 1024), limit: max(int(share/entryBytes), minSums), spans: map[model.ProviderKey]*spans{},
		totals: map[model.ProviderKey]map[string]Totals{}}
}

// room is how many sums the worker may hold: what the identities leave
// of its share, at least minSums and at most its limit.
func (a *aggregator) room() int {
	return min(max(int((a.share-a.keys.bytes.Load()/a.n)/entryBytes), minSums), a.limit)
}

// full says the worker's sums are to spill; the windows count as the
// sums their memory would hold.
func (a *aggregator) full() bool {
	n := len(a.sums) + int(a.winBytes/entryBytes)
	return n >= a.limit || (n >= minSums && n >= a.room())
}

// grow makes room for one more sum: doubling up to what the worker may
// hold, never past it, so that growing leaves little garbage and spilling
// reuses it.
func (a *aggregator) grow() {
	if len(a.sums) < cap(a.sums) {
		return
	}
	ns := make([]entry, len(a.sums), max(min(2*cap(a.sums), a.room()), len(a.sums)+1, 1024))
	copy(ns, a.sums)
	a.sums = ns
}

// add sums l into its daily line; a new key is described once.
func (a *aggregator) add(l *rawLine) *fieldError {
	k := a.kbuf[:0]
	for _, d := range l.dims {
		k = binary.AppendUvarint(k, uint64(len(d)))
		k = append(k, d...)
	}
	a.kbuf = k
	lk, ok := a.keys.lookup(k)
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
		if pn, ok := a.m.(providerNamer); ok && !cl.Provider.Cloud() {
			a.keys.nameProvider(cl.Provider, pn.displayName(l))
		}
		if a.keys.remember(k, lk) {
			if n, ok := a.m.(namer); ok {
				a.addNames(cl.Provider, n.accountNames(l))
			}
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
	dn := l.day.num()
	ek := uint64(uint32(lk.id))<<32 | uint64(uint32(dn))
	var i int32
	slot := a.slot(lk.id, dn)
	if slot != nil {
		i, ok = *slot-1, *slot != 0
	} else {
		i, ok = a.idx[ek]
	}
	if !ok {
		a.grow()
		i = int32(len(a.sums))
		if slot != nil {
			*slot = i + 1
		} else {
			a.idx[ek] = i
		}
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
	if !ok && a.full() {
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
	a.wins, a.winBytes, a.spilled = nil, 0, true
	if r := a.room(); cap(a.sums) > 2*r {
		// The identities grew since the sums did: give their room back.
		a.sums, a.idx = make([]entry, 0, r), make(map[uint64]int32, r)
		return nil
	}
	clear(a.idx)
	a.sums = a.sums[:0]
	return nil
}

// dayWindow finds one key's sums by day without hashing: slot d - first
// holds the index in sums of day d's sum plus one (0: none yet). A key's
// lines mostly fall in one stretch of days (a year of daily or hourly
// lines), read in any order; a day that would stretch the window past
// maxWindow days goes to the map instead, so a window is at most 4 KB.
type dayWindow struct {
	first model.DayNum
	slots []int32
}

const (
	windowStep = 64 // days a window grows by, aligned
	maxWindow  = 1024
)

// slot is where the index of key id's sum of day d is kept, or nil when
// the day is past the key's window or the worker has spilled.
func (a *aggregator) slot(id int32, d model.DayNum) *int32 {
	if a.spilled {
		return nil
	}
	pi, n := int(id>>keyBits), int(id&(maxKeysPerProvider-1))
	if pi >= len(a.wins) {
		a.wins = append(a.wins, make([][]dayWindow, pi+1-len(a.wins))...)
	}
	if ws := a.wins[pi]; n >= len(ws) {
		a.wins[pi] = append(ws, make([]dayWindow, n+1-len(ws))...)
	}
	w := &a.wins[pi][n]
	off := int64(d) - int64(w.first)
	if w.slots == nil || off < 0 || off >= int64(len(w.slots)) {
		if !a.widen(w, d) {
			return nil
		}
		off = int64(d) - int64(w.first)
	}
	return &w.slots[off]
}

// widen makes w's window hold day d, unless it would pass maxWindow.
func (a *aggregator) widen(w *dayWindow, d model.DayNum) bool {
	lo := int64(d) &^ (windowStep - 1)
	hi := lo + windowStep
	if w.slots != nil {
		lo = min(lo, int64(w.first))
		hi = max(hi, int64(w.first)+int64(len(w.slots)))
	}
	if hi-lo > maxWindow {
		return false
	}
	ns := make([]int32, hi-lo)
	if w.slots != nil {
		copy(ns[int64(w.first)-lo:], w.slots)
	}
	a.winBytes += 4 * int64(len(ns)-len(w.slots))
	w.first, w.slots = model.DayNum(lo), ns
	return true
}

// sort orders the sums by key and day. sort.Sort, whose Less compares in
// place, takes 40 % less time than slices.SortFunc, whose comparison is
// handed two 72-byte entries by value.
func (a *aggregator) sort() { sort.Sort(byKey(a.sums)) }

type byKey []entry

func (s byKey) Len() int           { return len(s) }
func (s byKey) Less(i, j int) bool { return s[i].k < s[j].k }
func (s byKey) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

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
