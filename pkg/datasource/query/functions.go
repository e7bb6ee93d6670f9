// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ArgKind is the kind of value a function argument takes.
type ArgKind uint8

const (
	// ArgString is a quoted string.
	ArgString ArgKind = iota
	// ArgInt is a decimal integer.
	ArgInt
)

// describe names the kind for error messages.
func (k ArgKind) describe() string {
	if k == ArgInt {
		return "an integer"
	}
	return "a string"
}

// Param describes one argument of a function after its query argument.
type Param struct {
	Name string
	Kind ArgKind
	// Variadic marks the last positional parameter as taking one or more values.
	Variadic bool
}

// Function is one entry of the function table: its name, its arguments after
// the query, and the constructor of its Op. The parser knows nothing else
// about functions, so a new one needs only a new table entry.
type Function struct {
	Name string
	// Doc is one line for the editor's completion and hover.
	Doc string
	// Params are the positional arguments after the query.
	Params []Param
	// Named are the optional name=value arguments.
	Named []Param
	// Build makes the Op from arguments of the right count and kinds; it
	// reports bad values through Args.Errorf.
	Build func(a *Args) (Op, error)
}

// Signature renders how the function is called, e.g.
// "frames_from_label(query, label, ..., sep=string)".
func (f *Function) Signature() string {
	parts := []string{"query"}
	for _, p := range f.Params {
		parts = append(parts, p.Name)
		if p.Variadic {
			parts = append(parts, "...")
		}
	}
	for _, p := range f.Named {
		kind := "string"
		if p.Kind == ArgInt {
			kind = "int"
		}
		parts = append(parts, p.Name+"="+kind)
	}
	return f.Name + "(" + strings.Join(parts, ", ") + ")"
}

// Usage renders the call as the editor shows it, with strings quoted, e.g.
// `frames_from_label(q, "label", …, sep="…")` or `truncate(q, depth)`.
func (f *Function) Usage() string {
	parts := []string{"q"}
	for _, p := range f.Params {
		if p.Kind == ArgString {
			parts = append(parts, `"`+p.Name+`"`)
		} else {
			parts = append(parts, p.Name)
		}
		if p.Variadic {
			parts = append(parts, "…")
		}
	}
	for _, p := range f.Named {
		if p.Kind == ArgString {
			parts = append(parts, p.Name+`="…"`)
		} else {
			parts = append(parts, p.Name+"=n")
		}
	}
	return f.Name + "(" + strings.Join(parts, ", ") + ")"
}

func (f *Function) named(name string) (Param, bool) {
	for _, p := range f.Named {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

var functions = map[string]*Function{}

// Register adds a function to the table. Call it from an init function: the
// table is read without locks while queries parse. It panics on a duplicate
// name or an entry without a constructor, which are programming errors.
func Register(f *Function) {
	if f.Name == "" || f.Build == nil {
		panic("query: function without name or constructor")
	}
	if _, dup := functions[f.Name]; dup {
		panic("query: function registered twice: " + f.Name)
	}
	for i, p := range f.Params {
		if p.Variadic && i != len(f.Params)-1 {
			panic("query: only the last parameter of " + f.Name + " may be variadic")
		}
	}
	functions[f.Name] = f
}

// EditorFunction is what the query editor knows of a function, for
// completion, highlighting and the cheat sheet. The editor's list
// (src/datasource/language/functions.json) is generated from
// EditorFunctions by `go generate ./pkg/datasource/query`, and a test fails when the
// two differ.
type EditorFunction struct {
	Name      string `json:"name"`
	Signature string `json:"signature"`
	Doc       string `json:"doc"`
}

// EditorFunctions lists the function table for the editor, sorted by name.
func EditorFunctions() []EditorFunction {
	fs := Functions()
	out := make([]EditorFunction, len(fs))
	for i, f := range fs {
		out[i] = EditorFunction{Name: f.Name, Signature: f.Usage(), Doc: f.Doc}
	}
	return out
}

// Functions returns the function table sorted by name, for the editor.
func Functions() []*Function {
	out := make([]*Function, 0, len(functions))
	for _, f := range functions {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func functionNames() string {
	names := make([]string, 0, len(functions))
	for n := range functions {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// argValue is one argument value with its position.
type argValue struct {
	pos position
	str string
	num int
}

// Args are the arguments of one call, checked for count and kind, handed to
// a Function's constructor.
type Args struct {
	fn     *Function
	text   string
	values map[string][]argValue
}

// Has reports whether the argument was given.
func (a *Args) Has(name string) bool { return len(a.values[name]) > 0 }

// String returns the first value of a string argument ("" when absent).
func (a *Args) String(name string) string {
	if v := a.values[name]; len(v) > 0 {
		return v[0].str
	}
	return ""
}

// Strings returns every value of a variadic string argument.
func (a *Args) Strings(name string) []string {
	vs := a.values[name]
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.str
	}
	return out
}

// Int returns the value of an integer argument (0 when absent).
func (a *Args) Int(name string) int {
	if v := a.values[name]; len(v) > 0 {
		return v[0].num
	}
	return 0
}

// Errorf reports a bad value of argument name (its i-th value for a
// variadic one) at the argument's position.
func (a *Args) Errorf(name string, i int, format string, args ...any) error {
	var pos position
	if vs := a.values[name]; i < len(vs) {
		pos = vs[i].pos
	}
	return errorAt(a.text, pos, "%s: %s", a.fn.Name, fmt.Sprintf(format, args...))
}
