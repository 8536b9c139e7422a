package allocate

import (
	"math/big"
	"sort"

	"github.com/costpilot/costpilot/backend/model"
)

// apportion splits amount over weights (all ≥ 0, at least one > 0) so that
// the parts add up to amount exactly, nano for nano: each part gets the floor
// of its exact share and the leftover nanos go to the largest remainders
// (ties to the lower index). Exact integer arithmetic keeps the
// allocated-plus-unallocated-equals-total promise free of float drift.
func apportion(amount model.Nanos, weights []int64) []model.Nanos {
	parts := make([]model.Nanos, len(weights))
	var total big.Int
	for _, w := range weights {
		total.Add(&total, big.NewInt(w))
	}
	if total.Sign() <= 0 || amount == 0 {
		return parts
	}
	neg := amount < 0
	a := big.NewInt(int64(amount))
	if neg {
		a.Neg(a)
	}
	rems := make([]big.Int, len(weights))
	var given big.Int
	for i, w := range weights {
		var q big.Int
		q.Mul(a, big.NewInt(w))
		q.QuoRem(&q, &total, &rems[i])
		parts[i] = model.Nanos(q.Int64())
		given.Add(&given, &q)
	}
	left := new(big.Int).Sub(a, &given).Int64()
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		return rems[order[x]].Cmp(&rems[order[y]]) > 0
	})
	for k := int64(0); k < left; k++ {
		parts[order[k%int64(len(order))]]++
	}
	if neg {
		for i := range parts {
			parts[i] = -parts[i]
		}
	}
	return parts
}
