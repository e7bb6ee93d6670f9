// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokenKind classifies a token of the query text.
type tokenKind uint8

const (
	tokEOF tokenKind = iota
	// tokIdent is a word without colons: a function, keyword or label name.
	tokIdent
	// tokProfileType is a word with colons: a profile type ID.
	tokProfileType
	// tokMatchers is a whole "{...}" label matcher list, braces included.
	tokMatchers
	// tokString is a quoted string; val holds its unquoted value.
	tokString
	// tokNumber is a word starting with a digit or sign.
	tokNumber
	tokLParen
	tokRParen
	tokComma
	tokEquals
	// tokBadChar is a character that starts no token.
	tokBadChar
	// tokError is text the lexer could not read (a malformed string); val says why.
	tokError
)

// token is one lexical unit; text is the source text, val the decoded value.
type token struct {
	kind tokenKind
	pos  position
	text string
	val  string
}

// describe names a token for "found ..." in error messages.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokIdent:
		return fmt.Sprintf("identifier %q", t.text)
	case tokProfileType:
		return fmt.Sprintf("profile type %q", t.text)
	case tokMatchers:
		return fmt.Sprintf("label matchers %s", abbreviate(t.text))
	case tokString:
		return fmt.Sprintf("string %s", abbreviate(t.text))
	case tokNumber:
		return fmt.Sprintf("number %s", t.text)
	case tokBadChar:
		return fmt.Sprintf("character %s", t.val)
	case tokError:
		return t.val
	default:
		return strconv.Quote(t.text)
	}
}

// abbreviate shortens long token text in messages.
func abbreviate(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max-3]) + "..."
}

// lex splits text into tokens; the last token is tokEOF or tokError.
func lex(text string) []token {
	var toks []token
	i := 0
	for {
		i = skipSpaceAndComments(text, i)
		if i >= len(text) {
			return append(toks, token{kind: tokEOF, pos: position(i)})
		}
		t := next(text, i)
		toks = append(toks, t)
		if t.kind == tokError || t.kind == tokBadChar {
			return toks
		}
		i = int(t.pos) + len(t.text)
	}
}

func skipSpaceAndComments(text string, i int) int {
	for i < len(text) {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// next reads the token starting at text[i], which is not a space.
func next(text string, i int) token {
	pos := position(i)
	c := text[i]
	switch {
	case c == '(':
		return token{kind: tokLParen, pos: pos, text: "("}
	case c == ')':
		return token{kind: tokRParen, pos: pos, text: ")"}
	case c == ',':
		return token{kind: tokComma, pos: pos, text: ","}
	case c == '=':
		return token{kind: tokEquals, pos: pos, text: "="}
	case c == '{':
		end := matchersEnd(text, i)
		return token{kind: tokMatchers, pos: pos, text: text[i:end]}
	case c == '"' || c == '`':
		return lexString(text, i)
	case isDigit(c) || ((c == '-' || c == '+') && i+1 < len(text) && isDigit(text[i+1])):
		j := i + 1
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		return token{kind: tokNumber, pos: pos, text: text[i:j]}
	case isWordStart(c):
		j := i + 1
		for j < len(text) && (isWordByte(text[j]) || text[j] == ':') {
			j++
		}
		w := text[i:j]
		if strings.Contains(w, ":") {
			return token{kind: tokProfileType, pos: pos, text: w}
		}
		return token{kind: tokIdent, pos: pos, text: w}
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	if r == utf8.RuneError && size <= 1 {
		return token{kind: tokBadChar, pos: pos, text: text[i : i+1], val: fmt.Sprintf("%q (invalid UTF-8)", text[i:i+1])}
	}
	return token{kind: tokBadChar, pos: pos, text: text[i : i+size], val: strconv.QuoteRune(r)}
}

// matchersEnd returns the offset just past the "}" closing the "{" at i,
// skipping quoted strings; len(text) when there is none (the matcher parser
// then reports what is missing).
func matchersEnd(text string, i int) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '}':
			return j + 1
		case '"', '\'', '`':
			q := text[j]
			for j++; j < len(text) && text[j] != q; j++ {
				if text[j] == '\\' && q != '`' {
					j++
				}
			}
			if j >= len(text) {
				return len(text)
			}
		}
	}
	return len(text)
}

// lexString reads a double-quoted (Go escapes) or backquoted (raw) string.
func lexString(text string, i int) token {
	q := text[i]
	j := i + 1
	for ; j < len(text); j++ {
		if text[j] == q {
			break
		}
		if q == '"' && text[j] == '\n' {
			return token{kind: tokError, pos: position(i), text: text[i:j], val: "unterminated string: expected a closing \" before the end of the line"}
		}
		if text[j] == '\\' && q == '"' {
			j++
		}
	}
	if j >= len(text) {
		return token{kind: tokError, pos: position(i), text: text[i:], val: fmt.Sprintf("unterminated string: expected a closing %c before the end of input", q)}
	}
	raw := text[i : j+1]
	val, err := strconv.Unquote(raw)
	if err != nil {
		return token{kind: tokError, pos: position(i), text: raw, val: fmt.Sprintf("invalid escape in string %s", abbreviate(raw))}
	}
	if !utf8.ValidString(val) {
		return token{kind: tokError, pos: position(i), text: raw, val: fmt.Sprintf("string %s is not valid UTF-8", abbreviate(raw))}
	}
	return token{kind: tokString, pos: position(i), text: raw, val: val}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// isWordByte reports the bytes of names and profile type parts after the first.
func isWordByte(c byte) bool {
	return isWordStart(c) || isDigit(c) || c == '.' || c == '-'
}
