package apperr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"strconv"
	"testing"
)

// declaredKinds reads the Kind constants from apperr.go's source, so a
// kind added there without a status fails TestEveryKindHasAStatus.
func declaredKinds(t *testing.T) map[Kind]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "apperr.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[Kind]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		d, ok := n.(*ast.GenDecl)
		if !ok || d.Tok != token.CONST {
			return true
		}
		for _, spec := range d.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Kind" {
				continue
			}
			for _, v := range vs.Values {
				s, err := strconv.Unquote(v.(*ast.BasicLit).Value)
				if err != nil {
					t.Fatal(err)
				}
				kinds[Kind(s)] = true
			}
		}
		return false
	})
	return kinds
}

func TestEveryKindHasAStatus(t *testing.T) {
	declared := declaredKinds(t)
	if len(declared) < 10 {
		t.Fatalf("found only %d Kind constants in apperr.go: %v", len(declared), declared)
	}
	for k := range declared {
		s, ok := statuses[k]
		if !ok {
			t.Errorf("kind %s has no HTTP status in statuses", k)
		} else if s < 400 || s > 599 {
			t.Errorf("kind %s maps to %d, not an error status", k, s)
		}
	}
	for k := range statuses {
		if !declared[k] {
			t.Errorf("statuses maps %q, which is not a declared kind", k)
		}
	}
}

func TestKindStatus(t *testing.T) {
	tests := map[Kind]int{
		Validation:      http.StatusBadRequest,
		Configuration:   http.StatusBadRequest,
		Unauthenticated: http.StatusUnauthorized,
		Security:        http.StatusForbidden,
		NotFound:        http.StatusNotFound,
		RateLimited:     http.StatusTooManyRequests,
		NotImplemented:  http.StatusNotImplemented,
		Provider:        http.StatusBadGateway,
		Report:          http.StatusInternalServerError,
		Base:            http.StatusInternalServerError,
		"":              http.StatusInternalServerError,
		"SomeNewError":  http.StatusInternalServerError,
	}
	for k, want := range tests {
		if got := KindStatus(k); got != want {
			t.Errorf("KindStatus(%q) = %d, want %d", k, got, want)
		}
	}
}
