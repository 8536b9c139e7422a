package billing

import (
	"maps"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/costpilot/costpilot/backend/model"
)

// finish merges the workers' sums into one batch per provider, sums the
// totals and counts the daily lines. The batches' facts stream from memory
// or, when the workers spilled, from a merge of the runs on disk.
func finish(res FileResult, ws []*worker, st *aggState, opt Options, name string) (FileResult, error) {
	part, err := unitPart(res, ws, opt)
	if err != nil {
		st.close()
		return res, err
	}
	cfacts, err := commitFacts(ws)
	if err != nil {
		st.close()
		return res, fileError(name, err, "commitment totals exceed the supported range")
	}
	if part != nil && part.Kind == model.PartActual {
		// The pair's commitment facts come from the amortized half only,
		// so importing both never counts a commitment twice; this half
		// leaves the stored ones alone.
		cfacts = nil
		res.Warnings = append(res.Warnings, "actual-cost export: reservations and savings plans are measured from the amortized-cost export of the same scope and month; import it too to see their coverage and utilization")
	}
	src, err := merged(ws, st)
	if err != nil {
		st.close()
		return res, fileError(name, err, "cannot merge the sums")
	}
	all := gather(&res, ws)
	keys, order, names := st.keys.keys, st.keys.order, st.keys.names
	st.keys.release()
	totals, count, err := sumTotals(src, order, keys)
	if err != nil {
		st.close()
		return res, fileError(name, err, "totals exceed the supported range")
	}
	res.Totals = totals
	bs := batches(res.Format, name, order, keys, all, count, src, part, cfacts)
	for i := range bs {
		bs[i].ProviderName = names[bs[i].Provider]
	}
	res.Batches = append(res.Batches, bs...)
	res.release = st.close
	return res, nil
}

// gather adds the workers' row counts and account names to res and
// returns the union of their spans per provider. The workers' sums are
// read through the merged source from then on, so their aggregators go.
func gather(res *FileResult, ws []*worker) map[model.ProviderKey]*spans {
	all := map[model.ProviderKey]*spans{}
	for _, w := range ws {
		res.Rows += w.rows
		for p, s := range w.agg.spans {
			t := all[p]
			if t == nil {
				t = &spans{}
				all[p] = t
			}
			t.rows.widen(s.rows.from)
			t.rows.widen(s.rows.to)
			t.period.widen(s.period.from)
			t.period.widen(s.period.to)
		}
		for p, names := range w.agg.names {
			if res.AccountNames == nil {
				res.AccountNames = map[model.ProviderKey]map[string]string{}
			}
			if res.AccountNames[p] == nil {
				res.AccountNames[p] = map[string]string{}
			}
			maps.Copy(res.AccountNames[p], names)
		}
		w.agg = nil // the sums are in src now
	}
	return all
}

// sumTotals reads every sum once: the totals per provider and currency
// (exact sums of the rows, rounded once) and the daily lines per provider.
func sumTotals(src source, order []model.ProviderKey, keys map[model.ProviderKey][]model.CostLine) (map[model.ProviderKey]map[string]Totals, map[model.ProviderKey]int64, error) {
	type exactTotals struct{ b, e, l exact }
	exactSums := map[model.ProviderKey]map[string]*exactTotals{}
	count := map[model.ProviderKey]int64{}
	err := src(0, ^uint64(0), func(x entry) error {
		idx := x.key()
		p := order[idx>>keyBits]
		cur := keys[p][idx&(maxKeysPerProvider-1)].Currency
		pt := exactSums[p]
		if pt == nil {
			pt = map[string]*exactTotals{}
			exactSums[p] = pt
		}
		t := pt[cur]
		if t == nil {
			t = &exactTotals{}
			pt[cur] = t
		}
		var ok1, ok2, ok3 bool
		t.b, ok1 = t.b.add(x.b)
		t.e, ok2 = t.e.add(x.e)
		t.l, ok3 = t.l.add(x.l)
		if !ok1 || !ok2 || !ok3 {
			return errOverflow
		}
		count[p]++
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	totals := map[model.ProviderKey]map[string]Totals{}
	for p, byCur := range exactSums {
		totals[p] = map[string]Totals{}
		for cur, t := range byCur {
			totals[p][cur] = Totals{Billed: t.b.round(), Effective: t.e.round(), List: t.l.round()}
		}
	}
	return totals, count, nil
}

// batches are the file's batches, one per provider with keys; each
// streams its facts from src.
func batches(format, name string, order []model.ProviderKey, keys map[model.ProviderKey][]model.CostLine, all map[model.ProviderKey]*spans,
	count map[model.ProviderKey]int64, src source, part *model.Part, cfacts map[model.ProviderKey][]model.CommitmentFact) []model.Batch {
	var out []model.Batch
	for i, p := range order {
		pk := keys[p]
		if len(pk) == 0 {
			continue
		}
		accts := map[string]bool{}
		for _, k := range pk {
			accts[k.BillingAccount] = true
		}
		lo := uint64(uint32(int32(i)<<keyBits)) << 32
		hi := uint64(uint32(int32(i+1)<<keyBits)) << 32
		s := replaced(format, all[p])
		out = append(out, model.Batch{
			Provider: p, Source: model.SourceExport, From: s.from.String(), To: s.to.String(),
			Accounts: slices.Sorted(mapKeys(accts)), Origin: name, Part: part, Commitments: cfacts[p],
			Facts: &model.Facts{Keys: pk, N: count[p], Each: func(yield func(model.Fact) error) error {
				return src(lo, hi, func(x entry) error {
					f := model.Fact{Key: x.key() & (maxKeysPerProvider - 1), Day: x.day()}
					f.Billed, f.Frac[0] = x.b.split()
					f.Effective, f.Frac[1] = x.e.split()
					f.List, f.Frac[2] = x.l.split()
					f.Quantity = x.q.quantity()
					return yield(f)
				})
			}},
		})
	}
	return out
}

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// source yields the merged entries with keys in [lo, hi) in key order.
type source func(lo, hi uint64, yield func(entry) error) error

// merged combines the workers' sums: in memory when nothing spilled (each
// worker's sorted in parallel, then merged), else by merging the runs.
func merged(ws []*worker, st *aggState) (source, error) {
	if st.spill.spilled() {
		for _, w := range ws {
			if len(w.agg.sums) > 0 {
				if err := w.agg.flush(); err != nil {
					return nil, err
				}
			}
			w.agg.idx, w.agg.wins, w.agg.sums = nil, nil, nil
		}
		return st.spill.each, nil
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var runs [][]entry
	for _, w := range ws {
		w.agg.idx, w.agg.wins = nil, nil // only the entries are needed now
		if len(w.agg.sums) == 0 {
			continue
		}
		runs = append(runs, w.agg.sums)
		wg.Add(1)
		go func(a *aggregator) {
			defer wg.Done()
			sem <- struct{}{}
			a.sort()
			<-sem
		}(w.agg)
	}
	wg.Wait()
	// The workers' sorted sums are merged as they are read, each time:
	// copying them into one slice doubled the peak memory of a large
	// import.
	return func(lo, hi uint64, yield func(entry) error) error {
		pos := make([]int, len(runs))
		for i, r := range runs {
			pos[i] = sort.Search(len(r), func(j int) bool { return r[j].k >= lo })
		}
		for {
			best := -1
			for i, r := range runs {
				if pos[i] < len(r) && r[pos[i]].k < hi && (best < 0 || r[pos[i]].k < runs[best][pos[best]].k) {
					best = i
				}
			}
			if best < 0 {
				return nil
			}
			x := runs[best][pos[best]]
			pos[best]++
			for i, r := range runs {
				for i != best && pos[i] < len(r) && r[pos[i]].k == x.k {
					if !x.add(&r[pos[i]]) {
						return errOverflow
					}
					pos[i]++
				}
			}
			if err := yield(x); err != nil {
				return err
			}
		}
	}, nil
}
