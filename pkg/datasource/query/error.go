// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import "fmt"

// Error is a query error at a position of the query text.
type Error struct {
	// Line and Col are 1-based; Col counts characters (runes). Both are 0
	// when the error concerns the query as a whole rather than a position.
	Line, Col int
	Msg       string
}

// Error prints "line:col: message", or the message alone when the error has
// no position.
func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// position is a byte offset into the query text.
type position int

// errorAt builds an *Error for a byte offset of text.
func errorAt(text string, off position, format string, args ...any) *Error {
	line, col := lineCol(text, int(off))
	return &Error{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// lineCol turns a byte offset of text into a 1-based line and rune column.
func lineCol(text string, off int) (line, col int) {
	if off > len(text) {
		off = len(text)
	}
	line, col = 1, 1
	for _, r := range text[:off] {
		if r == '\n' {
			line++
			col = 1
			continue
		}
		col++
	}
	return line, col
}
