package allocate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func TestParseRulesFiles(t *testing.T) {
	tests := []struct {
		file  string
		split string
		field string // want a Validation error naming this field
	}{
		{file: "tags.yaml", split: SplitProportional},
		{file: "tags.json", split: SplitFixed},
		{file: "unknown_method.yaml", field: "method"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r, err := ParseRules(data, tt.file)
			if tt.field != "" {
				assertField(t, err, tt.field)
				return
			}
			if err != nil {
				t.Fatalf("ParseRules: %v", err)
			}
			if r.Method != MethodTagBased || len(r.Tags) != 3 || r.SharedSplit != tt.split || len(r.Projects) != 3 {
				t.Errorf("rules = %+v", r)
			}
			res, err := Allocate(fixture(), r, "")
			if err != nil {
				t.Fatal(err)
			}
			if !near(res.AllocatedCosts.ByDepartment["platform"]+res.AllocatedCosts.ByDepartment["data"]+res.AllocatedCosts.ByDepartment["finance"], 220) {
				t.Errorf("by_department = %v", res.AllocatedCosts.ByDepartment)
			}
		})
	}
}

func TestParseRulesErrors(t *testing.T) {
	tests := []struct {
		name, file, data string
		field            string // "" when the error names a line instead
	}{
		{name: "empty", file: "r.yaml", data: "  \n", field: "method"},
		{name: "only comments", file: "r.yaml", data: "# nothing yet\n", field: "method"},
		{name: "yaml syntax", file: "r.yaml", data: "method: [tag_based\n"},
		{name: "yaml misspelt field", file: "r.yaml", data: "method: tag_based\ntags: [team]\ndepartment: [x]\n"},
		{name: "yaml wrong type", file: "r.yml", data: "method: fixed\nshared_percentages: {a: lots}\n"},
		{name: "json unknown field", file: "r.json", data: `{"method":"tag_based","tags":["t"],"depts":[]}`, field: "depts"},
		{name: "json wrong type", file: "r.json", data: `{"method":"tag_based","tags":"team"}`, field: "tags"},
		{name: "json syntax", file: "r.json", data: `{"method":`},
		{name: "json trailing data", file: "r.json", data: `{"method":"tag_based","tags":["t"]} {}`},
		{name: "json unknown method", file: "r.json", data: `{"method":"by_name"}`, field: "method"},
		{name: "missing method", file: "r.yaml", data: "tags: [team]\n", field: "method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseRules([]byte(tt.data), tt.file)
			if tt.field != "" {
				assertField(t, err, tt.field)
				return
			}
			if apperr.KindOf(err) != apperr.Validation {
				t.Fatalf("kind = %q (%v), want Validation", apperr.KindOf(err), err)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	base := func(mut func(*model.AllocationRules)) model.AllocationRules {
		r := model.AllocationRules{Method: MethodTagBased, Tags: []string{"team"}}
		mut(&r)
		return r
	}
	tests := []struct {
		name  string
		rules model.AllocationRules
		field string // "" means valid
	}{
		{name: "valid tag_based", rules: base(func(*model.AllocationRules) {})},
		{name: "no tags", rules: base(func(r *model.AllocationRules) { r.Tags = nil }), field: "tags"},
		{name: "blank tag", rules: base(func(r *model.AllocationRules) { r.Tags = []string{"a", " "} }), field: "tags[1]"},
		{name: "account without accounts", rules: model.AllocationRules{Method: MethodAccount}, field: "accounts"},
		{name: "account collision", rules: model.AllocationRules{Method: MethodAccount, Accounts: map[string]string{"Ab": "x", "aB": "y"}}, field: "accounts"},
		{name: "regex without patterns", rules: model.AllocationRules{Method: MethodRegex}, field: "patterns"},
		{name: "bad regex", rules: model.AllocationRules{Method: MethodRegex, Patterns: map[string]string{"(": "x"}}, field: "patterns.("},
		{name: "unknown split", rules: base(func(r *model.AllocationRules) { r.SharedSplit = "random" }), field: "shared_split"},
		{name: "fixed without percentages", rules: base(func(r *model.AllocationRules) { r.SharedSplit = SplitFixed }), field: "shared_percentages"},
		{name: "fixed not 100", rules: base(func(r *model.AllocationRules) {
			r.SharedSplit, r.SharedPercentages = SplitFixed, map[string]float64{"a": 60, "b": 30}
		}), field: "shared_percentages"},
		{name: "fixed negative", rules: base(func(r *model.AllocationRules) {
			r.SharedSplit, r.SharedPercentages = SplitFixed, map[string]float64{"a": 110, "b": -10}
		}), field: "shared_percentages.b"},
		{name: "percentages without fixed", rules: base(func(r *model.AllocationRules) { r.SharedPercentages = map[string]float64{"a": 100} }), field: "shared_percentages"},
		{name: "bad start", rules: base(func(r *model.AllocationRules) { r.Start = "01/02/2026" }), field: "start"},
		{name: "end before start", rules: base(func(r *model.AllocationRules) { r.Start, r.End = "2026-02-02", "2026-02-01" }), field: "end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.rules)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			assertField(t, err, tt.field)
		})
	}
}

func assertField(t *testing.T, err error, field string) {
	t.Helper()
	if apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("kind = %q (%v), want Validation", apperr.KindOf(err), err)
	}
	e, _ := apperr.As(err)
	if e.Details["field"] != field {
		t.Errorf("details.field = %v, want %q (message %q)", e.Details["field"], field, e.Message)
	}
}

func TestIsShared(t *testing.T) {
	tests := []struct {
		service, category string
		want              bool
	}{
		{"AWS Support (Business)", "Usage", true},
		{"Support", "", true},
		{"AWS Marketplace", "Purchase", true},
		{"Amazon EC2", "Tax", true},
		{"Amazon EC2", "tax", true},
		{"Taxes", "", true},
		{"Amazon EC2", "Usage", false},
		{"Taxonomy Service", "Usage", false}, // a word, not a substring
		{"Supportive", "Usage", false},
	}
	for _, tt := range tests {
		t.Run(tt.service+"/"+tt.category, func(t *testing.T) {
			if got := IsShared(model.CostLine{Service: tt.service, ChargeCategory: tt.category}); got != tt.want {
				t.Errorf("IsShared = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestApportion(t *testing.T) {
	tests := []struct {
		name    string
		amount  model.Nanos
		weights []int64
		want    []model.Nanos
	}{
		{"thirds", 10, []int64{1, 1, 1}, []model.Nanos{4, 3, 3}},
		{"negative", -10, []int64{1, 1, 1}, []model.Nanos{-4, -3, -3}},
		{"zero weight gets nothing", 7, []int64{0, 1, 1}, []model.Nanos{0, 4, 3}},
		{"largest remainder", 100, []int64{1, 2, 4}, []model.Nanos{14, 29, 57}},
		{"huge amounts do not overflow", 9_000_000_000_000_000_000, []int64{3_000_000_000_000, 1}, []model.Nanos{8_999_999_999_997_000_000, 3_000_000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := apportion(tt.amount, tt.weights)
			var sum model.Nanos
			for i := range got {
				sum += got[i]
				if got[i] != tt.want[i] {
					t.Errorf("part %d = %d, want %d", i, got[i], tt.want[i])
				}
			}
			if sum != tt.amount {
				t.Errorf("sum = %d, want %d", sum, tt.amount)
			}
		})
	}
}
