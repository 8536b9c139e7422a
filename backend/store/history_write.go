package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// ReplaceHistory writes batches in one transaction. Each batch first
// deletes the history of its provider and source over [From, To] (only of
// its Accounts when it names some), so re-importing or re-syncing a period
// replaces it and nothing is counted twice; a part batch (Batch.Part) adds
// to what is stored instead and replaces only the part it restates. The
// rollups are kept in the same transaction.
func (s *Store) ReplaceHistory(ctx context.Context, batches ...model.Batch) error {
	_, err := s.apply(ctx, false, false, nil, batches...)
	return err
}

// SpanChange is what one batch rewrote: its provider's accounts (all when
// empty) over the inclusive days From..To, with the stored sums there
// before and after, per currency.
type SpanChange struct {
	Provider      model.ProviderKey
	From, To      string
	Accounts      []string
	Before, After []CurrencySums
}

// errDryRun rolls a dry run's transaction back.
var errDryRun = errors.New("dry run")

// ApplyHistory is ReplaceHistory that reports, per batch, the span it
// rewrote with the sums before and after. With dry, it computes the same
// and keeps nothing: the transaction is rolled back.
func (s *Store) ApplyHistory(ctx context.Context, dry bool, batches ...model.Batch) ([]SpanChange, error) {
	return s.apply(ctx, dry, true, nil, batches...)
}

// ImportLog is what an imported file leaves beside its history: a line
// of the imports log, the account names it gave and its audit event.
type ImportLog struct {
	Path, Format string
	Rows         int64
	Providers    string // comma-separated
	First, Last  string
	AccountNames map[model.ProviderKey]map[string]string
	Audit        AuditEvent
	// Progress, when set, hears how many of the batches' daily lines are
	// written (done of total), every progressEvery lines and at the end;
	// the rollups and the commit follow the last call.
	Progress func(done, total int64)
}

// progressEvery is how many daily lines a write reports progress after.
const progressEvery = 1 << 16

// ImportHistory is ApplyHistory for an imported file: the history, the
// account names, the imports log and the audit event land in one
// transaction, or nothing does.
func (s *Store) ImportHistory(ctx context.Context, log ImportLog, batches ...model.Batch) ([]SpanChange, error) {
	return s.apply(ctx, false, true, &log, batches...)
}

func (s *Store) apply(ctx context.Context, dry, measure bool, log *ImportLog, batches ...model.Batch) ([]SpanChange, error) {
	var changes []SpanChange
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		w := &historyWriter{tx: tx, strs: map[string]int64{}, tags: map[string]int64{},
			svc: map[svcKey]int64{}, grp: map[grpKey]int64{}, roll: newTagRoller(), measuring: measure,
			stmts: map[string]*sql.Stmt{}}
		w.roll.scan = w.scanRow
		defer w.closeStmts()
		if log != nil && log.Progress != nil {
			w.progress = log.Progress
			for _, b := range batches {
				w.total += BatchLines(b)
			}
		}
		for _, b := range batches {
			if err := nameProvider(ctx, tx, b); err != nil {
				return err
			}
			if err := w.replace(ctx, b); err != nil {
				return err
			}
			if err := w.measure(ctx, false); err != nil {
				return err
			}
			if err := touchSyncState(ctx, tx, b); err != nil {
				return err
			}
		}
		if w.progress != nil {
			w.progress(w.total, w.total) // every line is in; rollups and commit follow
		}
		changes = w.changes
		if dry {
			return errDryRun
		}
		if from, to, ok := batchDays(batches); ok {
			if err := k8sAfterWrite(ctx, tx, from, to); err != nil {
				return err
			}
		}
		if log != nil {
			return writeImportLog(ctx, tx, *log)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return nil, fmt.Errorf("store: replace history: %w", err)
	}
	return changes, nil
}

// BatchLines is how many daily lines a batch writes, as its progress
// counts them (facts, or lines not yet summed to facts: an upper bound).
func BatchLines(b model.Batch) int64 {
	if b.Facts != nil {
		return b.Facts.N
	}
	return int64(len(b.Lines))
}

// rewrites records the span a batch is about to rewrite and its sums
// before; measure(after) completes it once written.
func (w *historyWriter) rewrites(ctx context.Context, p model.ProviderKey, src model.SourceKind, accounts []string, from, to model.DayNum) error {
	w.changes = append(w.changes, SpanChange{Provider: p, From: from.String(), To: to.String(), Accounts: slices.Clone(accounts)})
	w.src = src
	return w.measure(ctx, true)
}

func (w *historyWriter) measure(ctx context.Context, before bool) error {
	if !w.measuring {
		return nil
	}
	c := &w.changes[len(w.changes)-1]
	if !before && w.known != nil {
		c.After, w.known = w.known, nil
		return nil
	}
	from, _ := model.ParseDayNum(c.From)
	to, _ := model.ParseDayNum(c.To)
	sums, err := spanSums(ctx, w.tx, c.Provider, w.src, c.Accounts, from, to)
	if err != nil {
		return fmt.Errorf("span sums: %w", err)
	}
	if before {
		c.Before = sums
	} else {
		c.After = sums
	}
	return nil
}

// historyWriter interns the dimension strings, tag sets and keys of one
// transaction.
type historyWriter struct {
	tx   *sql.Tx
	strs map[string]int64
	tags map[string]int64
	svc  map[svcKey]int64
	grp  map[grpKey]int64
	roll *tagRoller
	// stmts are the interning statements, prepared once per transaction.
	stmts map[string]*sql.Stmt

	measuring bool
	known     []CurrencySums // the last batch's sums after, when the write knew them
	// progress hears written of total daily lines (ImportLog.Progress).
	progress       func(done, total int64)
	written, total int64
	changes        []SpanChange     // one per batch written
	src            model.SourceKind // of the last change
}

type svcKey struct {
	provider, source         string
	account, service, curren int64
}

// grpKey is a line key without its resource and tags: the key of the
// group rollup.
type grpKey struct {
	provider, source                                string
	account, sub, service, category, region, charge int64
	curren                                          int64
}

type sums struct{ billed, effective, list int64 }

func (a *sums) plus(b sums) {
	a.billed += b.billed
	a.effective += b.effective
	a.list += b.list
}

func (w *historyWriter) replace(ctx context.Context, b model.Batch) error {
	if !b.Provider.Valid() {
		return fmt.Errorf("batch has unknown provider %q", b.Provider)
	}
	from, ok := model.ParseDayNum(b.From)
	if !ok {
		return fmt.Errorf("batch from day %q is not YYYY-MM-DD", b.From)
	}
	to, ok := model.ParseDayNum(b.To)
	if !ok || to < from {
		return fmt.Errorf("batch to day %q is not a day on or after %s", b.To, b.From)
	}
	facts := b.Facts
	if facts == nil {
		var err error
		if facts, err = model.LineFacts(b.Lines); err != nil {
			return fmt.Errorf("batch: %w", err)
		}
	}
	ids, skeys, gkeys, err := w.batchKeys(ctx, b, facts)
	if err != nil {
		return err
	}
	// The batch's facts with their global ids, checked on the way.
	each := func(yield func(idFact) error) error {
		lastKey, lastDay := int32(-1), model.DayNum(0)
		return facts.Each(func(f model.Fact) error {
			if f.Key < 0 || int(f.Key) >= len(ids) {
				return fmt.Errorf("fact of unknown key %d", f.Key)
			}
			if f.Day < from || f.Day > to {
				return fmt.Errorf("line day %s outside %s..%s", f.Day, b.From, b.To)
			}
			if f.Key < lastKey || (f.Key == lastKey && f.Day <= lastDay) {
				return fmt.Errorf("facts out of key and day order")
			}
			lastKey, lastDay = f.Key, f.Day
			if w.written++; w.progress != nil && w.written%progressEvery == 0 {
				w.progress(w.written, w.total)
			}
			return yield(idFact{key: ids[f.Key], skey: skeys[f.Key], gkey: gkeys[f.Key], day: f.Day, index: f.Key,
				s: sums{int64(f.Billed), int64(f.Effective), int64(f.List)}, q: f.Quantity, frac: f.Frac})
		})
	}
	if err := w.writeCommitments(ctx, b, from, to); err != nil {
		return err
	}
	if err := w.writeResourceNames(ctx, b.Provider, facts.Keys, to); err != nil {
		return err
	}
	if b.Part != nil {
		return w.addPart(ctx, b, from, to, each)
	}
	scope, scopeArgs, err := w.scopeKeys(ctx, b.Provider, b.Source, b.Accounts)
	if err != nil {
		return err
	}
	if err := w.rewrites(ctx, b.Provider, b.Source, b.Accounts, from, to); err != nil {
		return err
	}
	// What the batch replaces is its own now: parts stored over its span
	// lose their days there, so a later part does not bring them back.
	if err := w.cutParts(ctx, b, scope, scopeArgs, from, to); err != nil {
		return err
	}
	if !w.measuring {
		return w.write(ctx, scope, scopeArgs, from, to, each)
	}
	return w.writeMeasured(ctx, scope, scopeArgs, from, to, facts, each)
}

// batchKeys checks that every key of the batch is of one of its accounts
// and returns the keys' global ids and those of their rollup keys.
func (w *historyWriter) batchKeys(ctx context.Context, b model.Batch, facts *model.Facts) (ids, skeys, gkeys []int64, err error) {
	inScope := map[string]bool{}
	for _, a := range b.Accounts {
		inScope[a] = true
	}
	// The batch's tag keys and dimension values join (or leave) the tag
	// rollup before any of its facts is written.
	lines := make([]rolled, len(facts.Keys))
	for i := range facts.Keys {
		lines[i] = keyRolled(&facts.Keys[i])
	}
	if err := w.roll.admit(ctx, w.tx, lines); err != nil {
		return nil, nil, nil, err
	}
	ids = make([]int64, len(facts.Keys))
	skeys = make([]int64, len(facts.Keys))
	gkeys = make([]int64, len(facts.Keys))
	for i := range facts.Keys {
		k := &facts.Keys[i]
		if len(inScope) > 0 && !inScope[k.BillingAccount] {
			return nil, nil, nil, fmt.Errorf("batch line of account %q outside the batch's accounts", k.BillingAccount)
		}
		if ids[i], skeys[i], gkeys[i], err = w.lineKey(ctx, b, k); err != nil {
			return nil, nil, nil, err
		}
	}
	return ids, skeys, gkeys, nil
}

// writeMeasured is write that also keeps the span's totals after it in
// w.known (while measuring).
func (w *historyWriter) writeMeasured(ctx context.Context, scope string, scopeArgs []any, from, to model.DayNum, facts *model.Facts,
	each func(func(idFact) error) error) error {
	// After a replace its span holds exactly the batch's facts: their
	// sums are the stored totals after, without reading them back.
	after := map[string]*CurrencySums{}
	counted := func(yield func(idFact) error) error {
		return each(func(f idFact) error {
			cur := facts.Keys[f.index].Currency
			if cur == "" {
				cur = "USD"
			}
			c := after[cur]
			if c == nil {
				c = &CurrencySums{Currency: cur}
				after[cur] = c
			}
			c.Billed += model.Nanos(f.s.billed)
			c.Effective += model.Nanos(f.s.effective)
			c.List += model.Nanos(f.s.list)
			return yield(f)
		})
	}
	if err := w.write(ctx, scope, scopeArgs, from, to, counted); err != nil {
		return err
	}
	w.known = make([]CurrencySums, 0, len(after))
	for _, cur := range slices.Sorted(maps.Keys(after)) {
		w.known = append(w.known, *after[cur])
	}
	return nil
}

// idFact is one fact with the global ids of its line key and rollup keys.
type idFact struct {
	key, skey, gkey int64
	day             model.DayNum
	s               sums
	q               float64  // the quantity (model.Fact.Quantity)
	frac            [3]int64 // model.Fact.Frac
	index           int32    // the key's index in the batch (Facts.Keys); recomputed facts have none
}

// write replaces the facts of the keys in scope over [from, to] by those
// each yields (in key then day order) and keeps the rollups.
func (w *historyWriter) write(ctx context.Context, scope string, scopeArgs []any, from, to model.DayNum, each func(func(idFact) error) error) error {
	fm, tm := from.Month(), to.Month()
	if err := w.clear(ctx, scope, scopeArgs, from, to, fm, tm); err != nil {
		return err
	}

	// Full months are summed here from the new facts alone; the months the
	// span only partly covers also hold older facts and are summed in SQL.
	full := func(m model.Month) bool { return m.First() >= from && m.Last() <= to }
	feed, err := newFeeder(ctx, w.tx)
	if err != nil {
		return err
	}
	err = w.feedFacts(ctx, feed, full, each)
	// Everything sent is in (or the first error known) before the month
	// sums and key bounds below read the facts back.
	if cerr := feed.close(); err == nil || errors.Is(err, errFeedFailed) {
		err = cmp.Or(cerr, err)
	}
	if err != nil {
		return err
	}
	edges := []model.Month{fm}
	if tm != fm {
		edges = append(edges, tm)
	}
	for _, m := range edges {
		if full(m) {
			continue
		}
		if err := w.sumMonth(ctx, scope, scopeArgs, m); err != nil {
			return err
		}
	}
	const bounds = `UPDATE line_keys SET
		first_day = COALESCE((SELECT MIN(day) FROM facts WHERE key = line_keys.id), 0),
		last_day = COALESCE((SELECT MAX(day) FROM facts WHERE key = line_keys.id), 0)
		WHERE id IN (`
	if _, err := w.tx.ExecContext(ctx, bounds+scope+`)`, scopeArgs...); err != nil {
		return fmt.Errorf("key bounds: %w", err)
	}
	return nil
}

// feedFacts sends the facts each yields to feed, with their month and
// day rollups.
func (w *historyWriter) feedFacts(ctx context.Context, feed *feeder, full func(model.Month) bool, each func(func(idFact) error) error) error {
	const sumsSuffix = ` ON CONFLICT DO UPDATE SET billed = billed + excluded.billed,
		effective = effective + excluded.effective, list = list + excluded.list`
	svcDay := newDayRollup(newFeedInsert(feed, "svc_day(skey, day, billed, effective, list)", 5, 0, sumsSuffix))
	grpDay := newDayRollup(newFeedInsert(feed, "grp_day(gkey, day, billed, effective, list)", 5, 0, sumsSuffix))
	tagDay := newDayRollup(newFeedInsert(feed, "tag_day(tkid, day, billed, effective, list)", 5, 0, sumsSuffix))
	tagKey, tagKeys := int64(-1), []int64(nil)
	factIns := newFeedInsert(feed, "facts(key, day, billed, effective, list, quantity)", 6, 1<<5, "")
	monthIns := newFeedInsert(feed, "key_month(key, month, billed, effective, list, days, first_day, last_day, quantity)", 9, 1<<8, "")
	var cur struct {
		key      int64
		month    model.Month
		s        sums
		q        float64
		n        int64
		fd, ld   model.DayNum
		hasMonth bool
	}
	flushMonth := func() error {
		if !cur.hasMonth || !full(cur.month) {
			return nil
		}
		return monthIns.add(cur.key, int64(cur.month), cur.s.billed, cur.s.effective, cur.s.list, cur.n, int64(cur.fd), int64(cur.ld),
			int64(math.Float64bits(cur.q)))
	}
	err := each(func(f idFact) error {
		if err := factIns.add(f.key, int64(f.day), f.s.billed, f.s.effective, f.s.list, int64(math.Float64bits(f.q))); err != nil {
			return err
		}
		if err := svcDay.add(f.skey, f.day, f.s); err != nil {
			return err
		}
		if err := grpDay.add(f.gkey, f.day, f.s); err != nil {
			return err
		}
		if f.key != tagKey {
			ids, err := w.roll.ofLine(ctx, w.tx, f.key)
			if err != nil {
				return err
			}
			tagKey, tagKeys = f.key, ids
		}
		for _, tk := range tagKeys {
			if err := tagDay.add(tk, f.day, f.s); err != nil {
				return err
			}
		}
		m := f.day.Month()
		if !cur.hasMonth || cur.key != f.key || cur.month != m {
			if err := flushMonth(); err != nil {
				return err
			}
			cur.key, cur.month, cur.s, cur.q, cur.n, cur.fd, cur.hasMonth = f.key, m, sums{}, 0, 0, f.day, true
		}
		cur.s.plus(f.s)
		cur.q += f.q
		cur.n++
		cur.ld = f.day
		return nil
	})
	if err == nil {
		err = flushMonth()
	}
	for _, b := range []interface{ flush() error }{factIns, monthIns, svcDay, grpDay, tagDay} {
		if err != nil {
			break
		}
		err = b.flush()
	}
	return err
}

// scopeKeys is the SQL selecting the ids of the line keys a batch
// replaces: its provider and source, and its accounts when it names some.
func (w *historyWriter) scopeKeys(ctx context.Context, p model.ProviderKey, src model.SourceKind, accounts []string) (string, []any, error) {
	q := `SELECT id FROM line_keys WHERE provider = ? AND source = ?`
	args := []any{string(p), string(src)}
	if len(accounts) > 0 {
		ids := make([]string, len(accounts))
		for i, a := range accounts {
			id, err := w.str(ctx, a)
			if err != nil {
				return "", nil, err
			}
			ids[i] = fmt.Sprint(id)
		}
		// Integer ids from the dictionary, never user text.
		q += ` AND billing_account IN (` + strings.Join(ids, ",") + `)`
	}
	return q, args, nil
}

// clear deletes what a batch replaces from the facts and the rollups.
func (w *historyWriter) clear(ctx context.Context, scope string, args []any, from, to model.DayNum, fm, tm model.Month) error {
	q := `DELETE FROM facts WHERE key IN (` + scope + `) AND day BETWEEN ? AND ?`
	if _, err := w.tx.ExecContext(ctx, q, append(slices.Clone(args), int64(from), int64(to))...); err != nil {
		return fmt.Errorf("delete facts: %w", err)
	}
	q = `DELETE FROM key_month WHERE key IN (` + scope + `) AND month BETWEEN ? AND ?`
	if _, err := w.tx.ExecContext(ctx, q, append(slices.Clone(args), int64(fm), int64(tm))...); err != nil {
		return fmt.Errorf("delete months: %w", err)
	}
	svcScope := strings.Replace(scope, "SELECT id FROM line_keys", "SELECT id FROM svc_keys", 1)
	q = `DELETE FROM svc_day WHERE skey IN (` + svcScope + `) AND day BETWEEN ? AND ?`
	if _, err := w.tx.ExecContext(ctx, q, append(slices.Clone(args), int64(from), int64(to))...); err != nil {
		return fmt.Errorf("delete service days: %w", err)
	}
	grpScope := strings.Replace(scope, "SELECT id FROM line_keys", "SELECT id FROM grp_keys", 1)
	q = `DELETE FROM grp_day WHERE gkey IN (` + grpScope + `) AND day BETWEEN ? AND ?`
	if _, err := w.tx.ExecContext(ctx, q, append(slices.Clone(args), int64(from), int64(to))...); err != nil {
		return fmt.Errorf("delete group days: %w", err)
	}
	tagScope := strings.Replace(scope, "SELECT id FROM line_keys", "SELECT id FROM tag_keys", 1)
	q = `DELETE FROM tag_day WHERE tkid IN (` + tagScope + `) AND day BETWEEN ? AND ?`
	if _, err := w.tx.ExecContext(ctx, q, append(slices.Clone(args), int64(from), int64(to))...); err != nil {
		return fmt.Errorf("delete tag days: %w", err)
	}
	return nil
}

// sumMonth recomputes the month rollup of the keys in scope for a month
// the batch covers only in part.
func (w *historyWriter) sumMonth(ctx context.Context, scope string, args []any, m model.Month) error {
	q := `INSERT INTO key_month(key, month, billed, effective, list, days, first_day, last_day, quantity)
		SELECT key, ?, SUM(billed), SUM(effective), SUM(list), COUNT(*), MIN(day), MAX(day), SUM(quantity)
		FROM facts WHERE key IN (` + scope + `) AND day BETWEEN ? AND ? GROUP BY key`
	a := append([]any{int64(m)}, args...)
	a = append(a, int64(m.First()), int64(m.Last()))
	if _, err := w.tx.ExecContext(ctx, q, a...); err != nil {
		return fmt.Errorf("month rollup: %w", err)
	}
	return nil
}

// lineKey interns one key's strings, tag set and rollup keys, and returns
// the ids of its line key, service key and group key.
func (w *historyWriter) lineKey(ctx context.Context, b model.Batch, k *model.CostLine) (id, skey, gkey int64, err error) {
	cat := k.ChargeCategory
	if cat == "" {
		cat = "Usage"
	}
	cur := k.Currency
	if cur == "" {
		cur = "USD"
	}
	var d [11]int64
	for i, v := range []string{k.BillingAccount, k.SubAccount, k.Service, k.ServiceCategory, k.Region,
		k.ResourceID, k.ResourceType, cat, cur, model.ClipDim(k.Usage, model.MaxUsageLen), model.ClipDim(k.Unit, model.MaxUnitLen)} {
		if d[i], err = w.str(ctx, v); err != nil {
			return 0, 0, 0, err
		}
	}
	tagID, err := w.tagSet(ctx, k.Tags)
	if err != nil {
		return 0, 0, 0, err
	}
	sk := svcKey{string(b.Provider), string(b.Source), d[0], d[2], d[8]}
	skey, ok := w.svc[sk]
	if !ok {
		const q = `INSERT INTO svc_keys(provider, source, billing_account, service, currency) VALUES (?,?,?,?,?)
			ON CONFLICT DO UPDATE SET provider = excluded.provider RETURNING id`
		if err := w.scanRow(ctx, q, []any{sk.provider, sk.source, sk.account, sk.service, sk.curren}, &skey); err != nil {
			return 0, 0, 0, fmt.Errorf("service key: %w", err)
		}
		w.svc[sk] = skey
	}
	gk := grpKey{sk.provider, sk.source, d[0], d[1], d[2], d[3], d[4], d[7], d[8]}
	gkey, ok = w.grp[gk]
	if !ok {
		const q = `INSERT INTO grp_keys(provider, source, billing_account, sub_account, service, service_category,
				region, charge_category, currency) VALUES (?,?,?,?,?,?,?,?,?)
			ON CONFLICT DO UPDATE SET provider = excluded.provider RETURNING id`
		if err := w.scanRow(ctx, q, []any{gk.provider, gk.source, gk.account, gk.sub, gk.service, gk.category,
			gk.region, gk.charge, gk.curren}, &gkey); err != nil {
			return 0, 0, 0, fmt.Errorf("group key: %w", err)
		}
		w.grp[gk] = gkey
	}
	const q = `INSERT INTO line_keys(provider, source, billing_account, sub_account, service, service_category,
			region, resource_id, resource_type, charge_category, tag_set, currency, svc_key, grp_key, usage, unit)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT DO UPDATE SET grp_key = excluded.grp_key RETURNING id`
	if err := w.scanRow(ctx, q, []any{string(b.Provider), string(b.Source), d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7],
		tagID, d[8], skey, gkey, d[9], d[10]}, &id); err != nil {
		return 0, 0, 0, fmt.Errorf("line key: %w", err)
	}
	tkeys, err := w.roll.keys(ctx, w.tx, sk, keyRolled(k))
	if err != nil {
		return 0, 0, 0, err
	}
	w.roll.byLine[id] = tkeys
	return id, skey, gkey, nil
}

// keyRolled is what the tag rollup sums a batch's line key by, with the
// strings lineKey stores.
func keyRolled(k *model.CostLine) rolled {
	return lineRolled(k.Tags, k.SubAccount, k.ServiceCategory, k.Region, cmp.Or(k.ChargeCategory, "Usage"))
}

// str interns a dimension string.
func (w *historyWriter) str(ctx context.Context, v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	if id, ok := w.strs[v]; ok {
		return id, nil
	}
	var id int64
	err := w.scanRow(ctx, `INSERT INTO strs(s) VALUES (?) ON CONFLICT(s) DO UPDATE SET s = excluded.s RETURNING id`, []any{v}, &id)
	if err != nil {
		return 0, fmt.Errorf("intern string: %w", err)
	}
	w.strs[v] = id
	return id, nil
}

// scanRow runs q with args and scans its one row into dest; q is prepared
// once per transaction (a write interns thousands of keys with a few
// statements, and preparing costs more than running them).
func (w *historyWriter) scanRow(ctx context.Context, q string, args []any, dest ...any) error {
	st := w.stmts[q]
	if st == nil {
		var err error
		if st, err = w.tx.PrepareContext(ctx, q); err != nil {
			return err
		}
		w.stmts[q] = st
	}
	return st.QueryRowContext(ctx, args...).Scan(dest...)
}

func (w *historyWriter) closeStmts() {
	for _, st := range w.stmts {
		_ = st.Close() // the transaction is over: nothing to report
	}
}

// tagSet interns a tag set; 1 is the empty set.
func (w *historyWriter) tagSet(ctx context.Context, tags map[string]string) (int64, error) {
	if len(tags) == 0 {
		return 1, nil
	}
	key := model.CanonicalTags(tags)
	if id, ok := w.tags[key]; ok {
		return id, nil
	}
	var id int64
	err := w.scanRow(ctx, `INSERT INTO tag_sets(tags) VALUES (?)
		ON CONFLICT(tags) DO UPDATE SET tags = excluded.tags RETURNING id`, []any{key}, &id)
	if err != nil {
		return 0, fmt.Errorf("intern tags: %w", err)
	}
	w.tags[key] = id
	return id, nil
}

func touchSyncState(ctx context.Context, tx *sql.Tx, b model.Batch) error {
	const q = `INSERT INTO sync_state(provider, source, first_day, last_day, synced_at, status, error)
		VALUES (?, ?, ?, ?, ?, 'ok', '')
		ON CONFLICT(provider, source) DO UPDATE SET
			first_day = CASE WHEN sync_state.first_day = '' OR excluded.first_day < sync_state.first_day THEN excluded.first_day ELSE sync_state.first_day END,
			last_day = CASE WHEN excluded.last_day > sync_state.last_day THEN excluded.last_day ELSE sync_state.last_day END,
			synced_at = excluded.synced_at, status = 'ok', error = ''`
	_, err := tx.ExecContext(ctx, q, b.Provider, b.Source, b.From, b.To, time.Now().UTC().Format(time.RFC3339))
	return err
}

// bulk inserts rows many at a time: one statement per rowsPerStmt rows
// costs far less than a statement per row.
type bulk struct {
	tx     *sql.Tx
	table  string
	suffix string // after the rows: an upsert clause
	cols   int
	args   []any
	stmt   *sql.Stmt
}

const rowsPerStmt = 256

func newBulk(tx *sql.Tx, table string, cols int) *bulk {
	return &bulk{tx: tx, table: table, cols: cols, args: make([]any, 0, rowsPerStmt*cols)}
}

func (b *bulk) add(ctx context.Context, vals ...any) error {
	b.args = append(b.args, vals...)
	if len(b.args) == cap(b.args) {
		if b.stmt == nil {
			st, err := b.tx.PrepareContext(ctx, b.sql(rowsPerStmt))
			if err != nil {
				return fmt.Errorf("prepare %s: %w", b.table, err)
			}
			b.stmt = st
		}
		if _, err := b.stmt.ExecContext(ctx, b.args...); err != nil {
			return fmt.Errorf("insert %s: %w", b.table, err)
		}
		b.args = b.args[:0]
	}
	return nil
}

// flush writes what is left and releases the statement.
func (b *bulk) flush(ctx context.Context) error {
	if b.stmt != nil {
		defer b.stmt.Close()
		b.stmt = nil
	}
	if len(b.args) == 0 {
		return nil
	}
	if _, err := b.tx.ExecContext(ctx, b.sql(len(b.args)/b.cols), b.args...); err != nil {
		return fmt.Errorf("insert %s: %w", b.table, err)
	}
	b.args = b.args[:0]
	return nil
}

func (b *bulk) sql(rows int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", b.cols), ",") + ")"
	return "INSERT INTO " + b.table + " VALUES " + strings.TrimSuffix(strings.Repeat(row+",", rows), ",") + b.suffix
}
