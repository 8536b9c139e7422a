package main

import (
	"encoding"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// generator turns Go types into TypeScript declarations by the rules of
// encoding/json, so the TypeScript describes the bytes the API sends:
//
//   - a field's name is its json tag's (the Go name without one); "-" and
//     unexported fields are left out; fields of embedded structs are lifted;
//   - omitempty or omitzero makes a field optional (absent when empty);
//   - a pointer, slice or map that is not omitempty may be null;
//   - a named string type with constants becomes a union of their values;
//   - [N]T is a tuple; []byte is a base64 string; any is unknown;
//   - a type with its own MarshalJSON or MarshalText must have an override,
//     since reflection cannot see what it writes.
type generator struct {
	root      string // repository root, to read constants from the source
	module    string // module path, e.g. github.com/costpilot/costpilot
	names     map[reflect.Type]string
	overrides map[reflect.Type]string
	widen     map[reflect.Type]string // enumerations whose values may also match this type
	byName    map[string]reflect.Type
	decls     map[string]string // TypeScript name -> declaration
	err       error
}

func newGenerator(root, module string, c apiSpec) *generator {
	g := &generator{root: root, module: module, names: map[reflect.Type]string{}, overrides: map[reflect.Type]string{},
		widen: map[reflect.Type]string{}, byName: map[string]reflect.Type{}, decls: map[string]string{}}
	for _, o := range c.overrides {
		g.overrides[o.typ] = o.ts
	}
	for _, o := range c.widen {
		g.widen[o.typ] = o.ts
	}
	for _, r := range c.renames {
		g.names[r.typ] = r.ts
	}
	return g
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// fail records the first error; generation goes on so the output stays
// well-formed, and the caller reports it.
func (g *generator) fail(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf(format, args...)
	}
}

// nameOf is the TypeScript name of a named Go type, unique in the output.
func (g *generator) nameOf(t reflect.Type) string {
	name, ok := g.names[t]
	if !ok {
		name = t.Name()
		g.names[t] = name
	}
	if other, ok := g.byName[name]; ok && other != t {
		g.fail("%s and %s would both be called %s in TypeScript: add a rename", other, t, name)
	}
	g.byName[name] = t
	return name
}

// declare makes sure the named type t has a declaration and returns its name.
func (g *generator) declare(t reflect.Type) string {
	name := g.nameOf(t)
	if _, done := g.decls[name]; done {
		return name
	}
	g.decls[name] = "" // placeholder: recursive types stop here
	origin := fmt.Sprintf("/** Go: %s.%s */\n", filepath.Base(t.PkgPath()), t.Name())
	if ts, ok := g.overrides[t]; ok {
		g.decls[name] = origin + "export type " + name + " = " + ts + ";\n"
		return name
	}
	switch t.Kind() {
	case reflect.Struct:
		g.decls[name] = origin + "export interface " + name + " " + g.object(t, 0) + "\n"
	case reflect.String:
		values := g.constants(t)
		if len(values) == 0 {
			g.decls[name] = origin + "export type " + name + " = string;\n"
			break
		}
		quoted := make([]string, len(values))
		for i, v := range values {
			quoted[i] = quote(v)
		}
		union := "(typeof " + name + "Values)[number]"
		if w, ok := g.widen[t]; ok {
			union += " | " + w
		}
		g.decls[name] = origin + "export const " + name + "Values = [" + strings.Join(quoted, ", ") + "] as const;\n" +
			"export type " + name + " = " + union + ";\n"
	default:
		g.decls[name] = origin + "export type " + name + " = " + g.underlying(t, false) + ";\n"
	}
	return name
}

// hasOwnJSON reports whether t writes its own JSON.
func hasOwnJSON(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || t.Implements(textMarshaler) || p.Implements(jsonMarshaler) || p.Implements(textMarshaler)
}

// inModule reports whether t is declared in this module.
func (g *generator) inModule(t reflect.Type) bool {
	return t.PkgPath() == g.module || strings.HasPrefix(t.PkgPath(), g.module+"/")
}

// expr is the TypeScript type of a value of t. nullable says whether a nil
// pointer, slice or map of t is written as null at this place.
func (g *generator) expr(t reflect.Type, nullable bool) string {
	if ts, ok := g.overrides[t]; ok {
		if g.inModule(t) {
			return g.declare(t)
		}
		return ts // another module's type (time.Time) is written inline
	}
	if t.Name() != "" && t.PkgPath() != "" {
		if hasOwnJSON(t) {
			g.fail("%s has its own JSON encoding: give it an override", t)
		}
		if g.inModule(t) {
			switch t.Kind() {
			case reflect.Struct, reflect.String:
				return g.declare(t)
			case reflect.Map, reflect.Slice:
				if nullable {
					return g.declare(t) + " | null"
				}
				return g.declare(t)
			}
		} else if t.Kind() == reflect.Struct {
			g.fail("%s is another module's struct: give it an override", t)
		}
	}
	return g.underlying(t, nullable)
}

// underlying is the TypeScript type of t's structure, ignoring its name.
func (g *generator) underlying(t reflect.Type, nullable bool) string {
	orNull := func(s string) string {
		if nullable {
			return s + " | null"
		}
		return s
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Interface:
		return "unknown"
	case reflect.Pointer:
		return orNull(g.expr(t.Elem(), true))
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return orNull("string")
		}
		return orNull(wrap(g.expr(t.Elem(), true)) + "[]")
	case reflect.Array:
		parts := make([]string, t.Len())
		for i := range parts {
			parts[i] = g.expr(t.Elem(), true)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Map:
		v := g.expr(t.Elem(), true)
		if k := t.Key(); k.Kind() == reflect.String && k.Name() != "" && k.PkgPath() != "" && len(g.constants(k)) > 0 {
			return orNull("Partial<Record<" + g.declare(k) + ", " + v + ">>")
		}
		return orNull("Record<string, " + v + ">")
	case reflect.Struct:
		return g.object(t, 0)
	}
	g.fail("%s (%s) has no JSON form", t, t.Kind())
	return "never"
}

// wrap parenthesises a union before [] is appended.
func wrap(s string) string {
	if strings.Contains(s, " | ") {
		return "(" + s + ")"
	}
	return s
}

type field struct {
	name     string
	t        reflect.Type
	optional bool
}

// fields lists t's JSON fields in order, with embedded structs' lifted.
func fields(t reflect.Type) []field {
	var out []field
	seen := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" {
			continue
		}
		if f.Anonymous && !hasTag {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for _, inner := range fields(ft) {
					if !seen[inner.name] {
						out = append(out, inner)
						seen[inner.name] = true
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		optional := false
		for o := range strings.SplitSeq(opts, ",") {
			optional = optional || o == "omitempty" || o == "omitzero"
		}
		out = append(out, field{name: name, t: f.Type, optional: optional})
		seen[name] = true
	}
	return out
}

// object is an object literal type for the struct t, indented by depth.
func (g *generator) object(t reflect.Type, depth int) string {
	var b strings.Builder
	b.WriteString("{\n")
	pad := strings.Repeat("  ", depth+1)
	for _, f := range fields(t) {
		name := f.name
		if !isIdent(name) {
			name = quote(name)
		}
		opt := ""
		if f.optional {
			opt = "?"
		}
		var ts string
		if f.t.Kind() == reflect.Struct && f.t.Name() == "" {
			ts = g.object(f.t, depth+1)
		} else {
			ts = g.expr(f.t, !f.optional)
		}
		fmt.Fprintf(&b, "%s%s%s: %s;\n", pad, name, opt, ts)
	}
	b.WriteString(strings.Repeat("  ", depth) + "}")
	return b.String()
}

func isIdent(s string) bool {
	for i, r := range s {
		if r != '_' && r != '$' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return "'" + strings.ReplaceAll(strings.ReplaceAll(string(b[1:len(b)-1]), `\"`, `"`), "'", `\'`) + "'"
}

// constants returns the values of the constants declared with type t in
// its package's source, in source order (files in name order). Reflection
// cannot list constants, so they are read from the .go files.
func (g *generator) constants(t reflect.Type) []string {
	rel, ok := strings.CutPrefix(t.PkgPath(), g.module)
	if !ok {
		return nil
	}
	dir := filepath.Join(g.root, filepath.FromSlash(strings.TrimPrefix(rel, "/")))
	entries, err := os.ReadDir(dir)
	if err != nil {
		g.fail("read the source of %s: %v", t, err)
		return nil
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var values []string
	fset := token.NewFileSet()
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			g.fail("parse %s: %v", n, err)
			return nil
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != t.Name() {
					continue
				}
				for _, v := range vs.Values {
					lit, ok := v.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						g.fail("%s: a constant of %s is not a string literal", n, t)
						continue
					}
					s, _ := strconv.Unquote(lit.Value)
					values = append(values, s)
				}
			}
		}
	}
	return values
}

// generate returns the TypeScript for the configured types.
func generate(root, module string, c apiSpec) (string, error) {
	g := newGenerator(root, module, c)
	for _, t := range c.types {
		g.declare(t)
	}
	if g.err != nil {
		return "", g.err
	}
	names := make([]string, 0, len(g.decls))
	for n := range g.decls {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(c.header)
	for _, n := range names {
		b.WriteString("\n" + g.decls[n])
	}
	return b.String(), nil
}
