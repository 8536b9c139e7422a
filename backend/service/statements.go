package service

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/report"
	"github.com/costpilot/costpilot/backend/statements"
)

// StatementRequest asks for the chargeback statements of a saved
// allocation rule set over a billing period (YYYY-MM), per department
// (the default) or project.
type StatementRequest struct {
	RuleSet string `json:"rule_set"`
	Period  string `json:"period"`
	By      string `json:"by,omitempty"`
}

// Statements allocates a billing period's cost by a saved rule set and
// makes one statement per department or project; they add up to the
// period's allocated total. They read the history as it is now, so
// asking again after a late correction was imported gives the corrected
// statements.
func (s *Service) Statements(ctx context.Context, r StatementRequest) (model.StatementSet, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return model.StatementSet{}, err
	}
	by := statements.By(strings.TrimSpace(r.By))
	if by == "" {
		by = statements.ByDepartment
	}
	if err := apperr.OneOf("by", by, statements.Kinds); err != nil {
		return model.StatementSet{}, err
	}
	first, err := periodDay(strings.TrimSpace(r.Period), "period")
	if err != nil {
		return model.StatementSet{}, err
	}
	sets, err := s.store.RuleSets(ctx)
	if err != nil {
		return model.StatementSet{}, err
	}
	var rules *model.AllocationRules
	var names []string
	for i := range sets {
		names = append(names, sets[i].Name)
		if sets[i].Name == r.RuleSet {
			rules = &sets[i].Rules
		}
	}
	if rules == nil {
		if len(names) == 0 {
			return model.StatementSet{}, apperr.E(apperr.Validation, "no allocation rule set %q: none is saved (costpilot allocate --rules FILE --save NAME)", r.RuleSet).WithDetail("field", "rule_set")
		}
		return model.StatementSet{}, apperr.Invalid("rule_set", r.RuleSet, names)
	}
	start, _ := time.Parse(model.DateLayout, first)
	end := start.AddDate(0, 1, -1)
	// The current month is stated up to yesterday, the last whole day.
	if yday := s.now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -1); end.After(yday) {
		end = yday
	}
	if end.Before(start) {
		return model.StatementSet{}, apperr.E(apperr.Validation, "the billing period %s has no whole day yet", r.Period).WithDetail("field", "period")
	}
	ru := *rules
	ru.Start, ru.End = first, end.Format(model.DateLayout)
	res, err := s.AllocateCosts(ctx, ru)
	if err != nil {
		return model.StatementSet{}, err
	}
	res.Rules.Start, res.Rules.End = ru.Start, ru.End
	return statements.Build(res, r.RuleSet, first[:7], by, s.now().UTC().Format(time.RFC3339)), nil
}

// WriteStatementPDFs makes the statements and writes one PDF per
// statement into dir (created if missing), returning the set and the
// files' paths. Writing files is a change, as generating a report is.
func (s *Service) WriteStatementPDFs(ctx context.Context, r StatementRequest, dir string) (model.StatementSet, []string, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return model.StatementSet{}, nil, err
	}
	set, err := s.Statements(ctx, r)
	if err != nil {
		return set, nil, err
	}
	paths, err := report.WriteStatementPDFs(dir, set)
	return set, paths, err
}

// StatementPDF is the PDF of one statement of the set (its name as
// listed, the department or project), with its file name:
// GET /api/statements.pdf.
func (s *Service) StatementPDF(ctx context.Context, r StatementRequest, name string) (string, []byte, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return "", nil, err
	}
	set, err := s.Statements(ctx, r)
	if err != nil {
		return "", nil, err
	}
	names := make([]string, 0, len(set.Statements))
	for _, st := range set.Statements {
		if st.Name == name {
			body, err := report.StatementPDF(set, st)
			if err != nil {
				return "", nil, apperr.Wrap(apperr.Report, err, "cannot render the statement of %s as PDF: %v", clipText(name, 120), err)
			}
			return report.StatementFileName(set, st), body, nil
		}
		names = append(names, st.Name)
	}
	return "", nil, apperr.Invalid("name", clipText(name, 120), names)
}

// WriteStatementsCSV writes statements as CSV, one row each.
func WriteStatementsCSV(w io.Writer, set model.StatementSet) error {
	return statements.WriteCSV(w, set)
}
