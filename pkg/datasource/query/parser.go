// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"strconv"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// maxNesting bounds how deeply function calls nest.
const maxNesting = 64

// Parse parses a query expression. The profile type may be absent (it then
// comes from the structured fields, see Compile), and so may the braces, but
// not both.
func Parse(text string) (*Query, error) {
	p := &parser{text: text, toks: lex(text)}
	q := &Query{}
	if err := p.parseExpr(q, 0); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errorf(t, "expected end of query, found %s", t.describe())
	}
	if q.Selector == "" {
		q.Selector = FormatSelector(q.Matchers)
	}
	return q, nil
}

// parser is a recursive-descent parser over the tokens of one query.
type parser struct {
	text string
	toks []token
	i    int
	// byTok and framesTok remember where "by" and frames_from_label were
	// seen, to reject a second virtual-frame spelling.
	byTok, framesTok *token
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

// errorf builds an error at token t; a lexer error reports itself.
func (p *parser) errorf(t token, format string, args ...any) *Error {
	if t.kind == tokError {
		return errorAt(p.text, t.pos, "%s", t.val)
	}
	return errorAt(p.text, t.pos, format, args...)
}

// parseExpr parses "primary [by (labels)]" into q.
func (p *parser) parseExpr(q *Query, depth int) *Error {
	if err := p.parsePrimary(q, depth); err != nil {
		return err
	}
	for t := p.peek(); t.kind == tokIdent && t.text == "by"; t = p.peek() {
		if err := p.parseBy(q); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) parsePrimary(q *Query, depth int) *Error {
	t := p.peek()
	switch t.kind {
	case tokIdent:
		if p.peekAt(1).kind == tokLParen {
			return p.parseCall(q, depth)
		}
		if _, ok := functions[t.text]; ok {
			return p.errorf(p.peekAt(1), "expected \"(\" after %s, found %s", t.text, p.peekAt(1).describe())
		}
		return p.errorf(t, "expected a selector (a profile type or {label matchers}) or a function call, found %s", t.describe())
	case tokProfileType:
		p.advance()
		if err := p.checkProfileType(t); err != nil {
			return err
		}
		q.ProfileTypeID = t.text
		if p.peek().kind == tokMatchers {
			return p.parseMatchers(q)
		}
		return nil
	case tokMatchers:
		return p.parseMatchers(q)
	}
	return p.errorf(t, "expected a selector (a profile type or {label matchers}) or a function call, found %s", t.describe())
}

func (p *parser) checkProfileType(t token) *Error {
	if _, err := model.ParseProfileType(t.text); err != nil {
		return p.errorf(t, "%s", err)
	}
	return nil
}

func (p *parser) parseMatchers(q *Query) *Error {
	t := p.advance()
	ms, err := parseMatchersAt(p.text, t.pos, t.text)
	if err != nil {
		return err
	}
	q.Matchers = ms
	q.Selector = FormatSelector(ms)
	return nil
}

// parseBy parses `by (a, "b")` after an expression.
func (p *parser) parseBy(q *Query) *Error {
	by := p.advance()
	if p.byTok != nil {
		line, col := lineCol(p.text, int(p.byTok.pos))
		return p.errorf(by, "by (...) is given twice; the first is at %d:%d", line, col)
	}
	if p.framesTok != nil {
		return p.errorf(by, "by (...) cannot be combined with frames_from_label: both set the virtual frames")
	}
	p.byTok = &by
	if t := p.peek(); t.kind != tokLParen {
		return p.errorf(t, "expected \"(\" after by, found %s", t.describe())
	}
	p.advance()
	seen := map[string]bool{}
	for {
		t := p.advance()
		var name string
		switch {
		case t.kind == tokIdent && isPlainLabelName(t.text):
			name = t.text
		case t.kind == tokString && t.val != "":
			name = t.val
		default:
			return p.errorf(t, "expected a label name in by (...), found %s", t.describe())
		}
		if seen[name] {
			return p.errorf(t, "label %q is given twice in by (...)", name)
		}
		seen[name] = true
		q.GroupBy = append(q.GroupBy, name)
		t = p.advance()
		switch t.kind {
		case tokComma:
			if p.peek().kind == tokRParen {
				p.advance()
				return nil
			}
		case tokRParen:
			return nil
		default:
			return p.errorf(t, "expected \")\" after label list, found %s", t.describe())
		}
	}
}

// parseCall parses `name(query, args...)` and appends its Op to q.Ops after
// the ops of the inner query.
func (p *parser) parseCall(q *Query, depth int) *Error {
	nameTok := p.advance()
	fn, ok := functions[nameTok.text]
	if !ok {
		return p.errorf(nameTok, "unknown function %q; known functions: %s", nameTok.text, functionNames())
	}
	if depth >= maxNesting {
		return p.errorf(nameTok, "functions nested more than %d deep", maxNesting)
	}
	p.advance() // "("
	if t := p.peek(); t.kind == tokRParen {
		return p.errorf(t, "expected a query as the first argument of %s, found \")\"", fn.Signature())
	}
	if err := p.parseExpr(q, depth+1); err != nil {
		return err
	}
	args, err := p.parseArgs(fn)
	if err != nil {
		return err
	}
	op, buildErr := fn.Build(args)
	if buildErr != nil {
		if e, ok := buildErr.(*Error); ok {
			return e
		}
		return p.errorf(nameTok, "%s: %v", fn.Name, buildErr)
	}
	if _, ok := op.(FramesFromLabel); ok {
		if p.byTok != nil {
			return p.errorf(nameTok, "%s cannot be combined with by (...): both set the virtual frames", fn.Name)
		}
		if p.framesTok != nil {
			return p.errorf(nameTok, "%s is given twice; give all labels to one call", fn.Name)
		}
		p.framesTok = &nameTok
	}
	q.Ops = append(q.Ops, op)
	return nil
}

// parseArgs parses ", arg, ..., name=value )" after a call's query argument,
// checking counts and kinds against fn.
func (p *parser) parseArgs(fn *Function) (*Args, *Error) {
	args := &Args{fn: fn, text: p.text, values: map[string][]argValue{}}
	positional := 0
	sawNamed := false
	for {
		t := p.advance()
		switch t.kind {
		case tokRParen:
			if positional < len(fn.Params) {
				param := fn.Params[positional]
				return nil, p.errorf(t, "expected \",\" and %s (%s) in %s, found \")\"", param.Name, param.Kind.describe(), fn.Signature())
			}
			return args, nil
		case tokComma:
		default:
			if last := len(fn.Params) - 1; last >= 0 && fn.Params[last].Variadic && positional > last {
				return nil, p.errorf(t, "expected \")\" after %s list, found %s", fn.Params[last].Name, t.describe())
			}
			return nil, p.errorf(t, "expected \",\" or \")\" in %s, found %s", fn.Signature(), t.describe())
		}
		t = p.peek()
		if t.kind == tokIdent && p.peekAt(1).kind == tokEquals {
			p.advance()
			p.advance()
			param, ok := fn.named(t.text)
			if !ok {
				return nil, p.errorf(t, "unknown argument %s= in %s", t.text, fn.Signature())
			}
			if args.Has(param.Name) {
				return nil, p.errorf(t, "argument %s= is given twice in %s", t.text, fn.Signature())
			}
			v, err := p.parseValue(fn, param)
			if err != nil {
				return nil, err
			}
			args.values[param.Name] = []argValue{v}
			sawNamed = true
			continue
		}
		if sawNamed {
			return nil, p.errorf(t, "expected a named argument or \")\" after a named argument in %s, found %s", fn.Signature(), t.describe())
		}
		var param Param
		switch {
		case positional < len(fn.Params):
			param = fn.Params[positional]
		case len(fn.Params) > 0 && fn.Params[len(fn.Params)-1].Variadic:
			param = fn.Params[len(fn.Params)-1]
		default:
			return nil, p.errorf(t, "expected \")\" to close %s, found %s", fn.Signature(), t.describe())
		}
		v, err := p.parseValue(fn, param)
		if err != nil {
			return nil, err
		}
		args.values[param.Name] = append(args.values[param.Name], v)
		positional++
	}
}

// parseValue reads one argument value of the kind param takes.
func (p *parser) parseValue(fn *Function, param Param) (argValue, *Error) {
	t := p.advance()
	switch {
	case param.Kind == ArgString && t.kind == tokString:
		return argValue{pos: t.pos, str: t.val}, nil
	case param.Kind == ArgInt && t.kind == tokNumber:
		n, err := strconv.Atoi(t.text)
		if err != nil {
			return argValue{}, p.errorf(t, "%s must be an integer in %s, found %s", param.Name, fn.Signature(), t.describe())
		}
		return argValue{pos: t.pos, num: n}, nil
	}
	return argValue{}, p.errorf(t, "expected %s (%s) in %s, found %s", param.Name, param.Kind.describe(), fn.Signature(), t.describe())
}
