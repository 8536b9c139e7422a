package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// TestGeneratedTypesAreCurrent is the drift check: the committed
// TypeScript must be exactly what the Go types generate. Renaming a json
// tag, adding a field or a constant without regenerating fails here, and
// regenerating makes the frontend's typecheck fail wherever the old name
// is still used.
func TestGeneratedTypesAreCurrent(t *testing.T) {
	root, module, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(root, module, apiConfig())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, output))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) == want {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Fatalf("%s is stale (line %d is %q, the Go types give %q): run go generate ./tools/apitypes and fix the frontend's typecheck", output, i+1, gl, wl)
		}
	}
}

type inner struct {
	Shared string `json:"shared"`
}

type fixture struct {
	inner
	Plain     string `json:"plain"`
	Renamed   int    `json:"renamed_field"`
	NoTag     bool
	Skipped   string                    `json:"-"`
	Optional  float64                   `json:"optional,omitempty"`
	Pointer   *inner                    `json:"pointer"`
	OptPtr    *inner                    `json:"opt_ptr,omitempty"`
	List      []string                  `json:"list"`
	OptList   []string                  `json:"opt_list,omitempty"`
	Bytes     []byte                    `json:"bytes"`
	Pair      [2]float64                `json:"pair"`
	ByKey     map[string]int            `json:"by_key"`
	ByEnum    map[model.ProviderKey]int `json:"by_enum"`
	Raw       json.RawMessage           `json:"raw"`
	When      time.Time                 `json:"when"`
	Anything  any                       `json:"anything"`
	Nested    struct{ X int }           `json:"nested"`
	unexposed int                       //nolint:unused // shows that unexported fields are left out
}

func TestGeneratorFollowsEncodingJSON(t *testing.T) {
	root, module, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	spec := apiSpec{types: []reflect.Type{reflect.TypeFor[fixture]()}, overrides: apiConfig().overrides}
	ts, err := generate(root, module, spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export interface fixture {\n  shared: string;\n  plain: string;\n",
		"  renamed_field: number;\n",
		"  NoTag: boolean;\n",
		"  optional?: number;\n",
		"  pointer: inner | null;\n",
		"  opt_ptr?: inner;\n",
		"  list: string[] | null;\n",
		"  opt_list?: string[];\n",
		"  bytes: string | null;\n",
		"  pair: [number, number];\n",
		"  by_key: Record<string, number> | null;\n",
		"  by_enum: Partial<Record<ProviderKey, number>> | null;\n",
		"  raw: unknown;\n",
		"  when: string;\n",
		"  anything: unknown;\n",
		"  nested: {\n    X: number;\n  };\n",
		"export const ProviderKeyValues = ['aws', 'azure', 'gcp', 'oci', 'openai', 'anthropic'] as const;\n",
		"export interface inner {\n  shared: string;\n}\n",
	} {
		if !strings.Contains(ts, want) {
			t.Errorf("output lacks %q:\n%s", want, ts)
		}
	}
	for _, absent := range []string{"Skipped", "unexposed", "inner: "} {
		if strings.Contains(ts, absent) {
			t.Errorf("output has %q:\n%s", absent, ts)
		}
	}
}

type ownJSON struct{}

func (ownJSON) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }

type holdsOwnJSON struct {
	V ownJSON `json:"v"`
}

// A type that writes its own JSON cannot be described by reflection: the
// generator refuses it rather than guess.
func TestOwnJSONNeedsAnOverride(t *testing.T) {
	root, module, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	_, err = generate(root, module, apiSpec{types: []reflect.Type{reflect.TypeFor[holdsOwnJSON]()}})
	if err == nil || !strings.Contains(err.Error(), "override") {
		t.Fatalf("err = %v", err)
	}
}

// TestCostAnalysisOverride checks the one hand-written shape: a cost
// analysis is summary plus one object per provider key at the top level.
func TestCostAnalysisOverride(t *testing.T) {
	a := model.CostAnalysis{Providers: map[model.ProviderKey]model.ProviderCosts{model.AWS: {}, model.OCI: {}}}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	if len(top) != 3 || top["summary"] == nil || top["aws"] == nil || top["oci"] == nil {
		t.Fatalf("keys of %s", b)
	}
	var ts string
	for _, o := range apiConfig().overrides {
		if o.typ == reflect.TypeFor[model.CostAnalysis]() {
			ts = o.ts
		}
	}
	if !strings.Contains(ts, "summary: CostSummary") || !strings.Contains(ts, "[K in (typeof ProviderKeyValues)[number]]?: ProviderCosts") ||
		!strings.Contains(ts, "[key: string]: ProviderCosts | CostSummary | undefined") {
		t.Fatalf("override %q", ts)
	}
}
