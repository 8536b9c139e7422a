package billing

import "github.com/costpilot/costpilot/backend/model"

// expand turns a batch's compact facts back into daily lines, for tests
// that look at lines one by one.
func expand(b model.Batch) []model.CostLine {
	var out []model.CostLine
	_ = b.Facts.Each(func(f model.Fact) error {
		l := b.Facts.Keys[f.Key]
		l.Day, l.Billed, l.Effective, l.List, l.Quantity = f.Day.String(), f.Billed, f.Effective, f.List, f.Quantity
		out = append(out, l)
		return nil
	})
	return out
}
