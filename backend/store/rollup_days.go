package store

import (
	"cmp"
	"maps"
	"slices"

	"github.com/costpilot/costpilot/backend/model"
)

// dayRollup sums a write's facts into the rows of a daily rollup (svc_day
// or grp_day) in blocks of 64 days per rollup key. Facts come in line key
// then day order, so consecutive facts mostly fall in the block used last
// and cost no map lookup. Past its budget of blocks it writes what it
// holds, adding to rows written before, and starts again: memory stays
// bounded whatever the number of keys and the span of days.
type dayRollup struct {
	ins    *feedInsert // adds to the rows a previous flush wrote
	budget int         // blocks held before a flush
	blocks map[blockKey]*dayBlock
	last   blockKey
	lastB  *dayBlock
}

const (
	blockDays  = 64
	blockShift = 6 // log2(blockDays)
)

// rollupBlocks is the budget of blocks a rollup holds (2 KB each: 64 MB);
// a variable so that a test can make every write flush.
var rollupBlocks = 1 << 15

type blockKey struct {
	key   int64
	block int64 // day >> blockShift, rounding down before 1970 too
}

// dayBlock is 64 days of one rollup key; has marks the days a fact fell
// on, whose row exists even when its sums are 0.
type dayBlock struct {
	s   [blockDays]sums
	has uint64
}

func newDayRollup(ins *feedInsert) *dayRollup {
	return &dayRollup{ins: ins, budget: rollupBlocks, blocks: map[blockKey]*dayBlock{}}
}

func (r *dayRollup) add(key int64, day model.DayNum, s sums) error {
	bk := blockKey{key, int64(day) >> blockShift}
	b := r.lastB
	if b == nil || bk != r.last {
		b = r.blocks[bk]
		if b == nil {
			if len(r.blocks) >= r.budget {
				if err := r.flush(); err != nil {
					return err
				}
			}
			b = &dayBlock{}
			r.blocks[bk] = b
		}
		r.last, r.lastB = bk, b
	}
	i := int64(day) & (blockDays - 1)
	b.s[i].plus(s)
	b.has |= 1 << i
	return nil
}

// flush writes the rows held, in key and day order (the table's primary
// key order, which SQLite inserts fastest), adding to any row a previous
// flush wrote.
func (r *dayRollup) flush() error {
	for _, bk := range slices.SortedFunc(maps.Keys(r.blocks), func(a, b blockKey) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.block, b.block))
	}) {
		b := r.blocks[bk]
		for i := range int64(blockDays) {
			if b.has&(1<<i) == 0 {
				continue
			}
			s := b.s[i]
			if err := r.ins.add(bk.key, bk.block<<blockShift+i, s.billed, s.effective, s.list); err != nil {
				return err
			}
		}
	}
	clear(r.blocks)
	r.lastB = nil
	return r.ins.flush()
}
