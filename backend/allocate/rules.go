package allocate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"go.yaml.in/yaml/v3"
)

// The allocation methods.
const (
	MethodTagBased = "tag_based"
	MethodAccount  = "account"
	MethodRegex    = "regex"
)

// The ways shared costs are split over departments.
const (
	SplitEven         = "even"
	SplitProportional = "proportional"
	SplitFixed        = "fixed"
)

// unknownField rewrites yaml's "field x not found in type model.X" for people.
var unknownField = regexp.MustCompile(`field (\S+) not found in type \S+`)

// percentTolerance is how far fixed shared percentages may stray from 100,
// to allow for decimal fractions such as 33.33+33.33+33.34 written by hand.
const percentTolerance = 1e-6

// ParseRules reads a rule set from data, in YAML or JSON. name (usually the
// file name) picks the decoder by extension (.json, else YAML, which also
// reads JSON) and prefixes error messages. Unknown fields are rejected so
// that a misspelt key is not silently ignored. The rules are then validated.
// Every error is an *apperr.Error of kind Validation naming the field.
func ParseRules(data []byte, name string) (model.AllocationRules, error) {
	var r model.AllocationRules
	if len(bytes.TrimSpace(data)) == 0 {
		return r, fieldError(name, "method", "the rule set is empty")
	}
	var err error
	if strings.EqualFold(filepath.Ext(name), ".json") {
		err = decodeJSON(data, &r)
	} else {
		err = decodeYAML(data, &r)
	}
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			ae.Message = prefix(name) + ae.Message
			return model.AllocationRules{}, ae
		}
		return model.AllocationRules{}, apperr.Wrap(apperr.Validation, err, "%s%s", prefix(name), err.Error())
	}
	if err := Validate(r); err != nil {
		if ae, ok := apperr.As(err); ok {
			ae.Message = prefix(name) + ae.Message
		}
		return model.AllocationRules{}, err
	}
	return r, nil
}

func prefix(name string) string {
	if name == "" {
		return ""
	}
	return name + ": "
}

func decodeJSON(data []byte, r *model.AllocationRules) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fieldError("", te.Field, fmt.Sprintf("expected %s, got JSON %s", te.Type, te.Value))
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
			return apperr.Wrap(apperr.Validation, err, "invalid JSON at line %d: %s", line, se.Error())
		}
		// Unknown fields come back as `json: unknown field "x"`.
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			f = strings.Trim(f, `"`)
			return fieldError("", f, "unknown field")
		}
		return apperr.Wrap(apperr.Validation, err, "invalid JSON: %s", err.Error())
	}
	if dec.Decode(new(json.RawMessage)) != io.EOF {
		return apperr.E(apperr.Validation, "invalid JSON: data after the rule object")
	}
	return nil
}

func decodeYAML(data []byte, r *model.AllocationRules) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(r); err != nil {
		if errors.Is(err, io.EOF) { // only comments
			return fieldError("", "method", "the rule set is empty")
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			// Messages read "line 3: field foo not found in type ..." or
			// "line 2: cannot unmarshal !!str `x` into float64": they carry
			// the line, which is what a user needs to find the field.
			msgs := make([]string, len(te.Errors))
			for i, m := range te.Errors {
				msgs[i] = unknownField.ReplaceAllString(m, "unknown field $1")
			}
			return apperr.Wrap(apperr.Validation, err, "invalid rules: %s", strings.Join(msgs, "; "))
		}
		return apperr.Wrap(apperr.Validation, err, "invalid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return nil
}

// Validate checks a rule set and returns an *apperr.Error of kind Validation
// whose message and details["field"] name the first offending field.
func Validate(r model.AllocationRules) error {
	switch r.Method {
	case MethodTagBased:
		if len(r.Tags) == 0 {
			return fieldError("", "tags", "tag_based needs at least one tag key")
		}
		for i, t := range r.Tags {
			if strings.TrimSpace(t) == "" {
				return fieldError("", fmt.Sprintf("tags[%d]", i), "tag key is empty")
			}
			if !validK8sTag(t) {
				return fieldError("", fmt.Sprintf("tags[%d]", i), "a k8s: key must be k8s:cluster, k8s:namespace, k8s:workload, k8s:pod or k8s:label:KEY")
			}
		}
	case MethodAccount:
		if len(r.Accounts) == 0 {
			return fieldError("", "accounts", "account needs at least one account → department entry")
		}
		seen := map[string]string{}
		for k, v := range r.Accounts {
			if strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
				return fieldError("", "accounts", "account ids and departments must not be empty")
			}
			lk := strings.ToLower(strings.TrimSpace(k))
			if d, dup := seen[lk]; dup && d != v {
				return fieldError("", "accounts", fmt.Sprintf("account %q maps to two departments (account ids ignore case)", k))
			}
			seen[lk] = v
		}
	case MethodRegex:
		if len(r.Patterns) == 0 {
			return fieldError("", "patterns", "regex needs at least one pattern → department entry")
		}
		for p, d := range r.Patterns {
			if _, err := regexp.Compile(p); err != nil {
				return fieldError("", "patterns."+p, "invalid regular expression: "+err.Error())
			}
			if strings.TrimSpace(d) == "" {
				return fieldError("", "patterns."+p, "department must not be empty")
			}
		}
	case "":
		return fieldError("", "method", "method is required (tag_based, account or regex)")
	default:
		return fieldError("", "method", fmt.Sprintf("unknown method %q (want tag_based, account or regex)", r.Method))
	}
	if err := validateSplit(r); err != nil {
		return err
	}
	return validateDates(r)
}

func validateSplit(r model.AllocationRules) error {
	switch r.SharedSplit {
	case "", SplitEven, SplitProportional:
		if len(r.SharedPercentages) > 0 {
			return fieldError("", "shared_percentages", "only used with shared_split: fixed")
		}
		return nil
	case SplitFixed:
	default:
		return fieldError("", "shared_split", fmt.Sprintf("unknown shared_split %q (want even, proportional or fixed)", r.SharedSplit))
	}
	if len(r.SharedPercentages) == 0 {
		return fieldError("", "shared_percentages", "shared_split fixed needs department percentages")
	}
	sum := 0.0
	for d, p := range r.SharedPercentages {
		if strings.TrimSpace(d) == "" {
			return fieldError("", "shared_percentages", "department must not be empty")
		}
		if p < 0 || math.IsNaN(p) || math.IsInf(p, 0) {
			return fieldError("", "shared_percentages."+d, "percentage must be a number ≥ 0")
		}
		sum += p
	}
	if math.Abs(sum-100) > percentTolerance {
		return fieldError("", "shared_percentages", fmt.Sprintf("percentages add up to %g, not 100", sum))
	}
	return nil
}

func validateDates(r model.AllocationRules) error {
	var start, end time.Time
	var err error
	if r.Start != "" {
		if start, err = time.Parse(model.DateLayout, r.Start); err != nil {
			return fieldError("", "start", "start must be a date YYYY-MM-DD")
		}
	}
	if r.End != "" {
		if end, err = time.Parse(model.DateLayout, r.End); err != nil {
			return fieldError("", "end", "end must be a date YYYY-MM-DD")
		}
	}
	if r.Start != "" && r.End != "" && end.Before(start) {
		return fieldError("", "end", "end is before start")
	}
	return nil
}

// fieldError builds a Validation error naming field in both the message
// (for people) and details (for the UI, which highlights the field).
func fieldError(name, field, msg string) *apperr.Error {
	return apperr.E(apperr.Validation, "%s%s: %s", prefix(name), field, msg).WithDetail("field", field)
}
