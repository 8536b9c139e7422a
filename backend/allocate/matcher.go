package allocate

import (
	"regexp"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// matcher assigns a non-shared line to a department (and maybe a project).
type matcher struct {
	method      string
	tags        []string
	departments map[string]string // lower-case → spelling in the rules
	projects    map[string]string
	accounts    map[string]string // lower-case account id → department
	patterns    []pattern         // in lexicographic order of the expression
}

type pattern struct {
	expr       string
	re         *regexp.Regexp
	department string
}

// nameTags are the tag keys that hold a resource's display name, matched by
// the regex method after the resource id.
var nameTags = []string{"Name", "name"}

func newMatcher(r model.AllocationRules) (*matcher, error) {
	m := &matcher{method: r.Method, tags: r.Tags, departments: fold(r.Departments), projects: fold(r.Projects)}
	switch r.Method {
	case MethodAccount:
		m.accounts = map[string]string{}
		for k, v := range r.Accounts {
			m.accounts[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	case MethodRegex:
		// A map has no order; sorting makes "first match wins" repeatable.
		exprs := sortedKeys(r.Patterns)
		for _, e := range exprs {
			re, err := regexp.Compile(e)
			if err != nil {
				return nil, fieldError("", "patterns."+e, "invalid regular expression: "+err.Error())
			}
			m.patterns = append(m.patterns, pattern{expr: e, re: re, department: strings.TrimSpace(r.Patterns[e])})
		}
	}
	return m, nil
}

func fold(list []string) map[string]string {
	out := map[string]string{}
	for _, v := range list {
		v = strings.TrimSpace(v)
		if v != "" {
			out[strings.ToLower(v)] = v
		}
	}
	return out
}

func (m *matcher) match(l *model.CostLine) (target, bool) {
	switch m.method {
	case MethodTagBased:
		return m.matchTags(l)
	case MethodAccount:
		// The sub-account (AWS member account, Azure subscription, GCP
		// project, OCI compartment) is the more specific owner.
		for _, a := range []string{l.SubAccount, l.BillingAccount} {
			if d, ok := m.accounts[strings.ToLower(strings.TrimSpace(a))]; ok && a != "" {
				return target{department: d, rule: "account:" + strings.TrimSpace(a)}, true
			}
		}
	case MethodRegex:
		subjects := []string{l.ResourceID}
		for _, k := range nameTags {
			if v := l.Tags[k]; v != "" {
				subjects = append(subjects, v)
			}
		}
		for _, p := range m.patterns {
			for _, s := range subjects {
				if s != "" && p.re.MatchString(s) {
					return target{department: p.department, rule: "regex:" + p.expr}, true
				}
			}
		}
	}
	return target{}, false
}

// matchTags walks the tag keys in priority order. The department is the
// first present value accepted by the departments list (any value when the
// list is empty); the project likewise against the projects list. With both
// lists empty, both come from the first present key. A line whose tags give
// no department is unallocated.
func (m *matcher) matchTags(l *model.CostLine) (target, bool) {
	var t target
	for _, key := range m.tags {
		v := strings.TrimSpace(model.TagValue(l.Tags, key))
		if v == "" {
			continue
		}
		if t.department == "" {
			if d, ok := accept(m.departments, v); ok {
				t.department = d
				t.rule = "tag:" + key
			}
		}
		if t.project == "" {
			if p, ok := accept(m.projects, v); ok {
				t.project = p
			}
		}
		if t.department != "" && t.project != "" {
			break
		}
	}
	return t, t.department != ""
}

func accept(list map[string]string, v string) (string, bool) {
	if len(list) == 0 {
		return v, true
	}
	s, ok := list[strings.ToLower(v)]
	return s, ok
}
