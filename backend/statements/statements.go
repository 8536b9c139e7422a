// Package statements turns an allocation into chargeback statements:
// one per department (or project) and billing period, which add up to
// the period's allocated total, and writes them as CSV.
package statements

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"

	"github.com/costpilot/costpilot/backend/model"
)

// By is what statements are made for.
type By string

// What statements are made for.
const (
	ByDepartment By = "department"
	ByProject    By = "project"
)

// Kinds lists the values of By.
var Kinds = []By{ByDepartment, ByProject}

// Build makes one statement per department or project of an
// allocation, by name. The allocated total is the allocation's total
// less what no rule placed; the statements add up to it.
func Build(res model.AllocationResult, ruleSet, period string, by By, generatedAt string) model.StatementSet {
	groups := res.AllocatedCosts.ByDepartment
	if by == ByProject {
		groups = res.AllocatedCosts.ByProject
	}
	set := model.StatementSet{RuleSet: ruleSet, Period: period, By: string(by), Currency: res.Currency,
		Start: res.Rules.Start, End: res.Rules.End, Total: res.AllocatedCosts.Total,
		Unallocated: res.AllocatedCosts.Unallocated, GeneratedAt: generatedAt, Statements: []model.Statement{}}
	set.Allocated = set.Total - set.Unallocated
	names := make([]string, 0, len(groups))
	for n := range groups {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		st := model.Statement{Name: n, Amount: groups[n]}
		if set.Allocated != 0 {
			st.Share = groups[n] / set.Allocated
		}
		set.Statements = append(set.Statements, st)
	}
	return set
}

// WriteCSV writes the statements, one row each, with the period, rule
// set and currency on every row so a row stands alone when filtered.
func WriteCSV(w io.Writer, set model.StatementSet) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{set.By, "period", "start", "end", "amount", "currency", "share", "rule_set", "generated_at"})
	for _, st := range set.Statements {
		_ = cw.Write([]string{safeCell(st.Name), set.Period, set.Start, set.End, strconv.FormatFloat(st.Amount, 'f', 2, 64), set.Currency,
			strconv.FormatFloat(st.Share, 'f', 6, 64), safeCell(set.RuleSet), set.GeneratedAt})
	}
	cw.Flush()
	return cw.Error()
}

// safeCell keeps a spreadsheet from reading a name as a formula.
func safeCell(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') {
		return "'" + s
	}
	return s
}
