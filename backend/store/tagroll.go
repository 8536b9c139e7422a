package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// tagRollMaxValues is how many distinct values (ignoring case) a tag key
// may have and still be rolled up into tag_day. A team, environment or
// cost-centre tag has tens; a Name tag has one per resource and would make
// the rollup as large as the facts. A variable so tests can lower it.
var tagRollMaxValues = 256

// rollState is what the writer knows of one tag key (lower-cased).
type rollState struct {
	excluded bool
	values   map[string]bool // lower-cased values stored in tag_roll_values
}

// tagKey is the rollup's key: a provider, source, billing account and
// currency (a service key without its service), a rolled-up tag key and
// its value.
type tagKey struct {
	provider, source string
	account, curren  int64
	tkey, tval       string
}

// tagRoller keeps tag_roll, tag_roll_values and tag_keys for one write
// transaction, and the rollup keys of each line key it has seen.
type tagRoller struct {
	state  map[string]*rollState
	ids    map[tagKey]int64
	byLine map[int64][]int64
	// scan, when set, runs an interning query with statements prepared
	// once (historyWriter.scanRow); else each query is prepared anew.
	scan func(ctx context.Context, q string, args []any, dest ...any) error
}

func newTagRoller() *tagRoller {
	return &tagRoller{ids: map[tagKey]int64{}, byLine: map[int64][]int64{}}
}

// load reads the registry once per transaction.
func (r *tagRoller) load(ctx context.Context, tx *sql.Tx) error {
	if r.state != nil {
		return nil
	}
	r.state = map[string]*rollState{}
	err := txRows(ctx, tx, `SELECT tkey, excluded FROM tag_roll`, nil, func(rows *sql.Rows) error {
		var k string
		var ex bool
		if err := rows.Scan(&k, &ex); err != nil {
			return err
		}
		r.state[k] = &rollState{excluded: ex, values: map[string]bool{}}
		return nil
	})
	if err != nil {
		return fmt.Errorf("tag rollup keys: %w", err)
	}
	err = txRows(ctx, tx, `SELECT tkey, value FROM tag_roll_values`, nil, func(rows *sql.Rows) error {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		if st := r.state[k]; st != nil {
			st.values[v] = true
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("tag rollup values: %w", err)
	}
	return nil
}

// txRows runs q in tx and scan on each row.
func txRows(ctx context.Context, tx *sql.Tx, q string, args []any, scan func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// rolledValues is the value rule of the rollup: for each tag key of tags
// (lower-cased) whose value is not empty, that value trimmed, as
// model.TagValue and the reads give it. Keys spelled twice in one set
// (Team and team) are reported in twice, so the caller excludes them: the
// value a read gets then depends on the spelling it asks for.
func rolledValues(tags map[string]string) (values map[string]string, twice []string) {
	values = map[string]string{}
	seen := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		lk := strings.ToLower(k)
		if seen[lk] {
			twice = append(twice, lk)
			delete(values, lk)
			continue
		}
		seen[lk] = true
		if v := strings.TrimSpace(tags[k]); v != "" {
			values[lk] = v
		}
	}
	for _, lk := range twice {
		delete(values, lk)
	}
	return values, twice
}

// dimKeyPrefix names the rollup keys of the group dimensions beside the
// tag keys: a control character no tag key of a real export holds.
const dimKeyPrefix = "\x1f"

// rolledDims are the group dimensions the rollup also sums by, with the
// line key column of each.
var rolledDims = map[model.Dimension]string{
	model.DimSubAccount: "sub_account", model.DimServiceCategory: "service_category",
	model.DimRegion: "region", model.DimChargeCategory: "charge_category",
}

// dimKey is the rollup key of a group dimension's column.
func dimKey(col string) string { return dimKeyPrefix + col }

// rolled is what the rollup sums one line key by: its tag keys' values
// (rolledValues) and its group dimensions' values, exactly as stored
// (reads compare them exactly, as the group rollup does); "" is left out.
type rolled struct {
	values map[string]string
	twice  []string
}

func lineRolled(tags map[string]string, sub, category, region, charge string) rolled {
	values, twice := rolledValues(tags)
	for col, v := range map[string]string{"sub_account": sub, "service_category": category, "region": region, "charge_category": charge} {
		if v != "" {
			values[dimKey(col)] = v
		}
	}
	return rolled{values, twice}
}

// admit registers the rollup keys of a batch's line keys before their
// facts are written: a new key is rolled up, and a key whose values pass
// tagRollMaxValues, or that a tag set spells twice, is excluded for good
// (its rows deleted). Exclusion never reverses, so a rolled-up key has
// every fact that carries it in tag_day.
func (r *tagRoller) admit(ctx context.Context, tx *sql.Tx, lines []rolled) error {
	if err := r.load(ctx, tx); err != nil {
		return err
	}
	for _, l := range lines {
		values, twice := l.values, l.twice
		for _, lk := range twice {
			if err := r.exclude(ctx, tx, lk); err != nil {
				return err
			}
		}
		for lk, v := range values {
			st := r.state[lk]
			if st == nil {
				if _, err := tx.ExecContext(ctx, `INSERT INTO tag_roll(tkey) VALUES (?)`, lk); err != nil {
					return fmt.Errorf("tag rollup key: %w", err)
				}
				st = &rollState{values: map[string]bool{}}
				r.state[lk] = st
			}
			lv := strings.ToLower(v)
			if st.excluded || st.values[lv] {
				continue
			}
			if len(st.values) >= tagRollMaxValues {
				if err := r.exclude(ctx, tx, lk); err != nil {
					return err
				}
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO tag_roll_values(tkey, value) VALUES (?, ?)`, lk, lv); err != nil {
				return fmt.Errorf("tag rollup value: %w", err)
			}
			st.values[lv] = true
		}
	}
	return nil
}

// exclude stops rolling up a tag key and deletes its rows.
func (r *tagRoller) exclude(ctx context.Context, tx *sql.Tx, lk string) error {
	if st := r.state[lk]; st != nil && st.excluded {
		return nil
	}
	for _, q := range []string{
		`DELETE FROM tag_day WHERE tkid IN (SELECT id FROM tag_keys WHERE tkey = ?)`,
		`DELETE FROM tag_keys WHERE tkey = ?`,
		`DELETE FROM tag_roll_values WHERE tkey = ?`,
		`INSERT INTO tag_roll(tkey, excluded) VALUES (?, 1) ON CONFLICT DO UPDATE SET excluded = 1`,
	} {
		if _, err := tx.ExecContext(ctx, q, lk); err != nil {
			return fmt.Errorf("exclude tag key from the rollup: %w", err)
		}
	}
	for k := range maps.Keys(r.ids) {
		if k.tkey == lk {
			delete(r.ids, k)
		}
	}
	clear(r.byLine) // they may name deleted rollup keys
	r.state[lk] = &rollState{excluded: true, values: map[string]bool{}}
	return nil
}

// keys returns the rollup keys of a line key of service key sk that sums
// by l, interning them; admit must have seen l.
func (r *tagRoller) keys(ctx context.Context, tx *sql.Tx, sk svcKey, l rolled) ([]int64, error) {
	values := l.values
	var out []int64
	for _, lk := range slices.Sorted(maps.Keys(values)) {
		if st := r.state[lk]; st == nil || st.excluded {
			continue
		}
		k := tagKey{sk.provider, sk.source, sk.account, sk.curren, lk, values[lk]}
		id, ok := r.ids[k]
		if !ok {
			const q = `INSERT INTO tag_keys(provider, source, billing_account, currency, tkey, tval)
				VALUES (?,?,?,?,?,?) ON CONFLICT DO UPDATE SET tkey = excluded.tkey RETURNING id`
			args := []any{k.provider, k.source, k.account, k.curren, k.tkey, k.tval}
			var err error
			if r.scan != nil {
				err = r.scan(ctx, q, args, &id)
			} else {
				err = tx.QueryRowContext(ctx, q, args...).Scan(&id)
			}
			if err != nil {
				return nil, fmt.Errorf("tag rollup key: %w", err)
			}
			r.ids[k] = id
		}
		out = append(out, id)
	}
	return out, nil
}

// ofLine returns the tag rollup keys of a stored line key (facts recomputed
// from parts carry only the key's id).
func (r *tagRoller) ofLine(ctx context.Context, tx *sql.Tx, key int64) ([]int64, error) {
	if ids, ok := r.byLine[key]; ok {
		return ids, nil
	}
	var sk svcKey
	var tagsJSON string
	var dims [4]string
	err := tx.QueryRowContext(ctx, `SELECT k.provider, k.source, k.billing_account, k.service, k.currency, t.tags,
			sa.s, sc.s, rg.s, cc.s
		FROM line_keys k JOIN tag_sets t ON t.id = k.tag_set JOIN strs sa ON sa.id = k.sub_account
			JOIN strs sc ON sc.id = k.service_category JOIN strs rg ON rg.id = k.region JOIN strs cc ON cc.id = k.charge_category
		WHERE k.id = ?`, key).
		Scan(&sk.provider, &sk.source, &sk.account, &sk.service, &sk.curren, &tagsJSON, &dims[0], &dims[1], &dims[2], &dims[3])
	if err != nil {
		return nil, fmt.Errorf("line key %d: %w", key, err)
	}
	var tags map[string]string
	if err := json.Unmarshal([]byte(tagsJSON), &tags); err != nil {
		return nil, fmt.Errorf("tag set of line key %d: %w", key, err)
	}
	l := lineRolled(tags, dims[0], dims[1], dims[2], dims[3])
	if err := r.admit(ctx, tx, []rolled{l}); err != nil {
		return nil, err
	}
	ids, err := r.keys(ctx, tx, sk, l)
	if err != nil {
		return nil, err
	}
	r.byLine[key] = ids
	return ids, nil
}

// buildTagRollup fills the tag rollup of a data dir written before it
// existed (the migration's Go half): every tag set admitted, then each
// line key's facts summed into tag_day.
func buildTagRollup(ctx context.Context, tx *sql.Tx) error {
	r := newTagRoller()
	var keys []int64
	err := txRows(ctx, tx, `SELECT id FROM line_keys`, nil, func(rows *sql.Rows) error {
		var id int64
		err := rows.Scan(&id)
		keys = append(keys, id)
		return err
	})
	if err != nil {
		return err
	}
	// Every key admitted before any row is written: a key excluded on the
	// way leaves no rows behind.
	for _, k := range keys {
		if _, err := r.ofLine(ctx, tx, k); err != nil {
			return err
		}
	}
	clear(r.byLine)
	for _, k := range keys {
		ids, err := r.ofLine(ctx, tx, k)
		if err != nil {
			return err
		}
		for _, tg := range ids {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tag_day(tkid, day, billed, effective, list)
				SELECT ?, day, billed, effective, list FROM facts WHERE key = ?
				ON CONFLICT DO UPDATE SET billed = billed + excluded.billed,
					effective = effective + excluded.effective, list = list + excluded.list`, tg, k); err != nil {
				return fmt.Errorf("fill the tag rollup: %w", err)
			}
		}
	}
	return nil
}

// rolledKey reports whether a tag key (any spelling) is rolled up.
func (s *Store) rolledKey(ctx context.Context, key string) (bool, error) {
	var ex bool
	err := s.r.QueryRowContext(ctx, `SELECT excluded FROM tag_roll WHERE tkey = ?`, strings.ToLower(key)).Scan(&ex)
	if err == sql.ErrNoRows {
		// No tag set has the key: the rollup answers (with nothing).
		return true, nil
	}
	return err == nil && !ex, err
}

// tagDaySumsRolled is tagDaySums from tag_day, for a plan that selects
// providers and sources only (no service, account or other filter) and a
// rolled-up key: a few rows a day per value instead
// of every tagged resource's facts. Values match ignoring case and space,
// as model.TagMatches does; spellings of one value are one group, named
// by the first asked for. Lines without the key (NoValue) are what the
// service rollup holds beyond the key's values, per day; days where that
// is zero have no row, as no series point differs from a zero one.
func (s *Store) tagDaySumsRolled(ctx context.Context, p *plan, m model.CostMetric, key string, values []string) ([]GroupDaySum, error) {
	return s.rolledDaySums(ctx, p, m, key, values, true)
}

// rolledDaySums is the daily series of the values of a rollup key: a tag
// key's values folded (case and space, as tags are matched), a group
// dimension's compared exactly (as the group rollup does).
func (s *Store) rolledDaySums(ctx context.Context, p *plan, m model.CostMetric, key string, values []string, fold bool) ([]GroupDaySum, error) {
	norm := func(v string) string {
		if fold {
			return strings.ToLower(strings.TrimSpace(v))
		}
		return v
	}
	lk := strings.ToLower(key)
	const (
		tagFrom = ` FROM tag_keys k JOIN tag_day d ON d.tkid = k.id AND d.day BETWEEN ? AND ?`
		svcFrom = ` FROM svc_keys k JOIN svc_day d ON d.skey = k.id AND d.day BETWEEN ? AND ?`
	)
	from, fa := tagFrom, []any{int64(p.from), int64(p.to)}
	stored := map[string][]string{} // lower-cased value -> spellings in scope
	q := `SELECT DISTINCT k.tval FROM tag_keys k WHERE ` + p.where + ` AND k.tkey = ?`
	err := s.query(ctx, q, append(slices.Clone(p.args), lk), func(rows *sql.Rows) error {
		var v string
		if err := rows.Scan(&v); err != nil {
			return err
		}
		f := norm(v)
		stored[f] = append(stored[f], v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	type cell struct {
		provider model.ProviderKey
		currency string
		day      int64
	}
	sumBy := func(cond string, args []any) (map[cell]model.Nanos, error) {
		out := map[cell]model.Nanos{}
		q := `SELECT k.provider, cu.s, d.day, SUM(` + metricColumn(m, "d") + `)` + from + `
			JOIN strs cu ON cu.id = k.currency WHERE ` + p.where + cond + ` GROUP BY k.provider, k.currency, d.day`
		err := s.query(ctx, q, append(append(slices.Clone(fa), p.args...), args...), func(rows *sql.Rows) error {
			var c cell
			var v model.Nanos
			if err := rows.Scan(&c.provider, &c.currency, &c.day, &v); err != nil {
				return err
			}
			out[c] += v
			return nil
		})
		return out, err
	}
	var out []GroupDaySum
	emit := func(name string, sums map[cell]model.Nanos) {
		for _, c := range slices.SortedFunc(maps.Keys(sums), func(a, b cell) int {
			return cmp.Or(cmp.Compare(a.provider, b.provider), cmp.Compare(a.currency, b.currency), cmp.Compare(a.day, b.day))
		}) {
			out = append(out, GroupDaySum{GroupSum: GroupSum{Sum: Sum{Provider: c.provider, Currency: c.currency, Amount: sums[c]}, Value: name}, Day: dayBucket(c.day)})
		}
	}
	done := map[string]bool{}
	for _, v := range values {
		if v == model.NoValue || norm(v) == "" {
			if done[""] {
				continue
			}
			done[""] = true
			tagged, err := sumBy(` AND k.tkey = ?`, []any{lk})
			if err != nil {
				return nil, err
			}
			from = svcFrom
			all, err := sumBy("", nil)
			from = tagFrom
			if err != nil {
				return nil, err
			}
			none := map[cell]model.Nanos{}
			for c, a := range all {
				if d := a - tagged[c]; d != 0 {
					none[c] = d
				}
			}
			emit("", none)
			continue
		}
		f := norm(v)
		spellings := stored[f]
		if len(spellings) == 0 || done[f] {
			continue
		}
		done[f] = true
		b, err := json.Marshal(spellings)
		if err != nil {
			return nil, err
		}
		sums, err := sumBy(` AND k.tkey = ? AND k.tval IN (SELECT value FROM json_each(?))`, []any{lk, string(b)})
		if err != nil {
			return nil, err
		}
		emit(v, sums)
	}
	return out, nil
}

// tagSumsRolled is GroupSums of a rolled-up tag key from tag_day, for a
// plan that selects providers and sources only: a row per value as
// spelled (as the facts' tag sets give them) and the lines without the
// key as the value "", what svc_day holds beyond the key's values.
func (s *Store) tagSumsRolled(ctx context.Context, p *plan, m model.CostMetric, key string) ([]GroupSum, error) {
	type cell struct {
		provider model.ProviderKey
		currency string
	}
	var out []GroupSum
	tagged := map[cell]model.Nanos{}
	q := `SELECT k.provider, cu.s, k.tval, SUM(` + metricColumn(m, "d") + `)
		FROM tag_keys k JOIN tag_day d ON d.tkid = k.id AND d.day BETWEEN ? AND ? JOIN strs cu ON cu.id = k.currency
		WHERE ` + p.where + ` AND k.tkey = ? GROUP BY k.provider, k.currency, k.tval`
	args := append(append([]any{int64(p.from), int64(p.to)}, p.args...), strings.ToLower(key))
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
		var g GroupSum
		if err := rows.Scan(&g.Provider, &g.Currency, &g.Value, &g.Amount); err != nil {
			return err
		}
		tagged[cell{g.Provider, g.Currency}] += g.Amount
		out = append(out, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	q = `SELECT k.provider, cu.s, SUM(` + metricColumn(m, "d") + `)
		FROM svc_keys k JOIN svc_day d ON d.skey = k.id AND d.day BETWEEN ? AND ? JOIN strs cu ON cu.id = k.currency
		WHERE ` + p.where + ` GROUP BY k.provider, k.currency`
	err = s.query(ctx, q, append([]any{int64(p.from), int64(p.to)}, p.args...), func(rows *sql.Rows) error {
		var g GroupSum
		if err := rows.Scan(&g.Provider, &g.Currency, &g.Amount); err != nil {
			return err
		}
		if g.Amount -= tagged[cell{g.Provider, g.Currency}]; g.Amount != 0 {
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// rollupKey is the tag rollup's key of a dimension: a tag key, or one of
// the group dimensions it also sums by.
func rollupKey(d model.Dimension) (key string, isTag, ok bool) {
	if k, ok := d.TagKey(); ok {
		return k, true, true
	}
	if col, ok := rolledDims[d]; ok {
		return dimKey(col), false, true
	}
	return "", false, false
}
