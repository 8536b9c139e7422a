package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite/vtab"
)

// The bulk writes of a history write (facts, month and day rollups) go
// through a virtual table instead of bound parameters: SQLite's build here
// is Go, and binding costs as much per value as the insert itself, while a
// virtual table hands SQLite a whole block of rows per statement. A feeder
// runs those statements on a goroutine of its own, so the writer computes
// the rollups and packs the next block while SQLite inserts the last one.

// feedModuleName is the virtual table module, registered once per process;
// each writer connection has one table of it, temp.cp_feed.
const feedModuleName = "costpilot_feed"

// feedCols is how many value columns the feed table has: the widest row
// written through it (key_month) has 9.
const feedCols = 9

var registerFeed = sync.OnceValue(func() error {
	return vtab.RegisterModule(nil, feedModuleName, feedModule{})
})

// feedRows is a block of rows of int64 columns; the columns in floats hold
// float64 bits.
type feedRows struct {
	cols   int
	floats uint16 // bit i: column i is a float64
	vals   []int64
}

func (r *feedRows) len() int { return len(r.vals) / r.cols }

// feedBlocks are the blocks being inserted, by the id the statement names.
var feedBlocks = struct {
	sync.Mutex
	m    map[int64]*feedRows
	next int64
}{m: map[int64]*feedRows{}}

func lendFeed(r *feedRows) int64 {
	feedBlocks.Lock()
	defer feedBlocks.Unlock()
	feedBlocks.next++
	feedBlocks.m[feedBlocks.next] = r
	return feedBlocks.next
}

func returnFeed(id int64) {
	feedBlocks.Lock()
	defer feedBlocks.Unlock()
	delete(feedBlocks.m, id)
}

type feedModule struct{}

func (feedModule) Create(ctx vtab.Context, _ []string) (vtab.Table, error)  { return feedConnect(ctx) }
func (feedModule) Connect(ctx vtab.Context, _ []string) (vtab.Table, error) { return feedConnect(ctx) }

func feedConnect(ctx vtab.Context) (vtab.Table, error) {
	cols := make([]string, feedCols)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d", i)
	}
	if err := ctx.Declare("CREATE TABLE x(" + strings.Join(cols, ", ") + ", feed HIDDEN)"); err != nil {
		return nil, err
	}
	return feedTable{}, nil
}

type feedTable struct{}

// BestIndex takes the block id from feed = ?; without it the table has
// no rows to give (Filter says so).
func (feedTable) BestIndex(info *vtab.IndexInfo) error {
	for i, c := range info.Constraints {
		if c.Column == feedCols && c.Op == vtab.OpEQ && c.Usable {
			info.Constraints[i].ArgIndex = 0
			info.Constraints[i].Omit = true
			info.IdxNum = 1
			info.EstimatedCost = 1
			return nil
		}
	}
	info.EstimatedCost = math.MaxFloat32
	return nil
}

func (feedTable) Open() (vtab.Cursor, error) { return &feedCursor{}, nil }
func (feedTable) Disconnect() error          { return nil }
func (feedTable) Destroy() error             { return nil }

type feedCursor struct {
	r    *feedRows
	i, n int
}

func (c *feedCursor) Filter(idx int, _ string, vals []vtab.Value) error {
	if idx != 1 || len(vals) != 1 {
		return errors.New("feed: a block id (feed = ?) is required")
	}
	id, _ := vals[0].(int64)
	feedBlocks.Lock()
	c.r = feedBlocks.m[id]
	feedBlocks.Unlock()
	if c.r == nil {
		return fmt.Errorf("feed: no block %d", id)
	}
	c.i, c.n = 0, c.r.len()
	return nil
}

func (c *feedCursor) Next() error { c.i++; return nil }
func (c *feedCursor) Eof() bool   { return c.i >= c.n }

func (c *feedCursor) Column(col int) (vtab.Value, error) {
	if col >= c.r.cols {
		return nil, nil
	}
	v := c.r.vals[c.i*c.r.cols+col]
	if c.r.floats&(1<<col) != 0 {
		return math.Float64frombits(uint64(v)), nil
	}
	return v, nil
}

func (c *feedCursor) Rowid() (int64, error) { return int64(c.i), nil }
func (c *feedCursor) Close() error          { c.r = nil; return nil }

// feedRowsPerBlock is how many rows one statement inserts.
const feedRowsPerBlock = 16384

// feeder runs the inserts of blocks on its own goroutine, in the order
// they are sent. The transaction is shared with the sender, whose own
// statements database/sql serializes with the feeder's; they must not
// touch the tables the feeder writes until close has returned.
type feeder struct {
	ctx    context.Context
	tx     *sql.Tx
	jobs   chan feedJob
	free   chan *feedRows
	done   chan error
	failed atomic.Bool
	closed bool
}

type feedJob struct {
	insert string // the statement, reading the block from temp.cp_feed
	rows   *feedRows
}

// feedQueue is how many blocks wait for the feeder: enough to ride out
// a slow statement, little memory (a block is 16384 rows of up to 72 bytes).
const feedQueue = 3

func newFeeder(ctx context.Context, tx *sql.Tx) (*feeder, error) {
	if _, err := tx.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.cp_feed USING `+feedModuleName); err != nil {
		return nil, fmt.Errorf("feed table: %w", err)
	}
	f := &feeder{ctx: ctx, tx: tx, jobs: make(chan feedJob, feedQueue), free: make(chan *feedRows, feedQueue+2),
		done: make(chan error, 1)}
	go f.run()
	return f, nil
}

func (f *feeder) run() {
	stmts := map[string]*sql.Stmt{}
	var err error
	for j := range f.jobs {
		if err == nil {
			if err = f.insert(stmts, j); err != nil {
				f.failed.Store(true)
			}
		}
		select {
		case f.free <- j.rows:
		default:
		}
	}
	for _, st := range stmts {
		if cerr := st.Close(); err == nil {
			err = cerr
		}
	}
	f.done <- err
}

func (f *feeder) insert(stmts map[string]*sql.Stmt, j feedJob) error {
	st := stmts[j.insert]
	if st == nil {
		var err error
		if st, err = f.tx.PrepareContext(f.ctx, j.insert); err != nil {
			return fmt.Errorf("prepare %s: %w", j.insert, err)
		}
		stmts[j.insert] = st
	}
	id := lendFeed(j.rows)
	defer returnFeed(id)
	if _, err := st.ExecContext(f.ctx, id); err != nil {
		return fmt.Errorf("%s: %w", j.insert, err)
	}
	return nil
}

// errFeedFailed stops a sender early; close returns the feeder's error.
var errFeedFailed = errors.New("feed failed")

func (f *feeder) send(j feedJob) error {
	if f.failed.Load() {
		return errFeedFailed
	}
	select {
	case f.jobs <- j:
		return nil
	case <-f.ctx.Done():
		return f.ctx.Err()
	}
}

// rows returns an empty block of cols columns.
func (f *feeder) rows(cols int, floats uint16) *feedRows {
	var r *feedRows
	select {
	case r = <-f.free:
		r.vals = r.vals[:0]
	default:
		r = &feedRows{vals: make([]int64, 0, feedRowsPerBlock*feedCols)}
	}
	r.cols, r.floats = cols, floats
	return r
}

// close waits for every block sent and returns the first error.
func (f *feeder) close() error {
	if f.closed {
		return nil
	}
	f.closed = true
	close(f.jobs)
	return <-f.done
}

// feedInsert collects the rows of one INSERT for a feeder.
type feedInsert struct {
	f      *feeder
	insert string
	cols   int
	floats uint16
	cur    *feedRows
}

// newFeedInsert inserts rows of table(columns) through f; floats marks
// the float64 columns, suffix follows the rows (an upsert clause).
func newFeedInsert(f *feeder, table string, cols int, floats uint16, suffix string) *feedInsert {
	sel := make([]string, cols)
	for i := range sel {
		sel[i] = fmt.Sprintf("c%d", i)
	}
	return &feedInsert{f: f, cols: cols, floats: floats,
		insert: "INSERT INTO " + table + " SELECT " + strings.Join(sel, ", ") + " FROM temp.cp_feed WHERE feed = ?" + suffix}
}

func (b *feedInsert) add(vals ...int64) error {
	if b.cur == nil {
		b.cur = b.f.rows(b.cols, b.floats)
	}
	b.cur.vals = append(b.cur.vals, vals...)
	if b.cur.len() == feedRowsPerBlock {
		return b.flush()
	}
	return nil
}

// flush sends the rows held.
func (b *feedInsert) flush() error {
	if b.cur == nil || len(b.cur.vals) == 0 {
		return nil
	}
	r := b.cur
	b.cur = nil
	return b.f.send(feedJob{insert: b.insert, rows: r})
}
