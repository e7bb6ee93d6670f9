// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package licensecheck

import (
	"strings"
)

// Allowed are the licenses a dependency may carry: permissive ones, the
// file-level weak copyleft of MPL-2.0, and the SIL Open Font License (fonts
// may be bundled and served with any software; only selling the fonts alone
// is restricted) (SPDX identifiers).
var Allowed = map[string]bool{
	"MIT": true, "MIT-0": true, "ISC": true, "0BSD": true,
	"BSD-2-Clause": true, "BSD-2-Clause-FreeBSD": true, "BSD-2-Clause-Views": true, "BSD-3-Clause": true, "BSD-3-Clause-Clear": true,
	"Apache-2.0": true, "MPL-2.0": true, "Zlib": true, "BlueOak-1.0.0": true, "Python-2.0": true, "PSF-2.0": true,
	"CC-BY-3.0": true, "CC-BY-4.0": true, "CC0-1.0": true, "Unlicense": true, "Artistic-2.0": true, "WTFPL": true,
	"OFL-1.1": true,
}

// refusedPrefixes are the strong and network copyleft families, refused by
// name in messages.
var refusedPrefixes = []string{"AGPL", "GPL", "LGPL", "SSPL", "EUPL", "OSL", "CPAL", "BUSL", "Elastic", "Commons-Clause", "CC-BY-NC", "CC-BY-SA", "CC-BY-ND"}

// Exceptions are dependencies reviewed by hand that the allow-list cannot
// judge, by ecosystem:name@version, with the reason they are accepted.
var Exceptions = map[string]string{
	"npm:spel2js@0.2.9": "its package.json says \"(Apache v2.0)\", not an SPDX identifier; its LICENSE file " +
		"is the Apache License 2.0 (reached through @grafana/plugin-ui's query builder)",
	"npm:get-document@1.0.0": "published without any license text; reached only through @grafana/ui " +
		"(get-window, slate), which Grafana provides at runtime: a webpack external, not in our bundle",
}

// Verdict says whether a dependency's licenses are acceptable, and why not.
type Verdict struct {
	OK     bool
	Reason string
}

// Judge applies the allow-list to a dependency. A license expression is
// allowed when it can be satisfied by allowed licenses ("MIT OR GPL-3.0"
// is, "MIT AND GPL-3.0" is not). Several license files must all be allowed.
// No license found is not allowed.
func Judge(d Dependency) Verdict {
	if reason, ok := Exceptions[d.Ecosystem+":"+d.Name+"@"+d.Version]; ok {
		return Verdict{OK: true, Reason: "reviewed exception: " + reason}
	}
	if len(d.Licenses) == 0 {
		return Verdict{Reason: "no license found"}
	}
	for _, l := range d.Licenses {
		if !allowedExpr(l) {
			if isRefused(l) {
				return Verdict{Reason: l + " is refused (strong or network copyleft)"}
			}
			return Verdict{Reason: l + " is not on the allow-list"}
		}
	}
	return Verdict{OK: true}
}

func isRefused(expr string) bool {
	for _, tok := range strings.FieldsFunc(expr, func(r rune) bool { return r == ' ' || r == '(' || r == ')' }) {
		for _, p := range refusedPrefixes {
			if strings.HasPrefix(tok, p) {
				return true
			}
		}
	}
	return false
}

// allowedExpr evaluates an SPDX license expression (OR, AND, WITH,
// parentheses) against the allow-list.
func allowedExpr(expr string) bool {
	p := &exprParser{toks: tokenize(expr)}
	v := p.or()
	return v && p.pos == len(p.toks)
}

func tokenize(s string) []string {
	s = strings.NewReplacer("(", " ( ", ")", " ) ").Replace(s)
	return strings.Fields(s)
}

type exprParser struct {
	toks []string
	pos  int
}

func (p *exprParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *exprParser) or() bool {
	v := p.and()
	for strings.EqualFold(p.peek(), "OR") {
		p.pos++
		w := p.and()
		v = v || w
	}
	return v
}

func (p *exprParser) and() bool {
	v := p.term()
	for strings.EqualFold(p.peek(), "AND") {
		p.pos++
		w := p.term()
		v = v && w
	}
	return v
}

func (p *exprParser) term() bool {
	t := p.peek()
	if t == "" {
		return false
	}
	p.pos++
	if t == "(" {
		v := p.or()
		if p.peek() != ")" {
			p.pos = len(p.toks) + 1 // malformed: never equals len(toks)
			return false
		}
		p.pos++
		return v
	}
	if strings.EqualFold(p.peek(), "WITH") {
		p.pos += 2 // an exception only ever widens what the license allows
	}
	return Allowed[strings.TrimSuffix(t, "+")]
}
