// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
)

// Query is a parsed query: one selection of profiles, an optional group-by
// and a pipeline of operations applied to the merged tree.
type Query struct {
	// ProfileTypeID is "name:sample_type:sample_unit:period_type:period_unit";
	// "" only when Parse was given an expression without one.
	ProfileTypeID string
	// Selector is the normalised label selector, "{}" when empty.
	Selector string
	// Matchers are the label matchers of Selector, in the same order.
	Matchers []*labels.Matcher
	// GroupBy lists the labels of "Q by (a, b)": one series per value set for
	// series, virtual base frames for flamegraphs.
	GroupBy []string
	// Ops is the pipeline applied to the merged tree, innermost function first.
	Ops []Op
}

// Op is one operation of the pipeline. Each Op is spelled as a function of
// the language; see Functions.
type Op interface {
	// Func is the name of the function that spells the op.
	Func() string
	// Args are the op's arguments after the query, in canonical form.
	Args() []Arg
}

// Arg is one argument of an Op as written in the language.
type Arg struct {
	// Name is set for named arguments such as sep="::" and empty otherwise.
	Name string
	// Value is a string or an int.
	Value any
}

// FramesFromLabel inserts virtual frames made from label values at the base
// of every stack: frames_from_label(Q, "l1", "l2", sep="::").
type FramesFromLabel struct {
	Labels []string
	// Sep, when set, splits a value such as "observability :: metrics" into
	// nested frames (spaces around each part trimmed).
	Sep string
}

// Reverse turns the tree upside down, leaves first: reverse(Q).
type Reverse struct{}

// Focus keeps the stacks through frames matching Pattern, rooted at those
// frames: focus(Q, "regex").
type Focus struct{ Pattern *regexp.Regexp }

// DropFrames removes the frames matching Pattern from every stack, their
// values going to their callers: drop_frames(Q, "regex").
type DropFrames struct{ Pattern *regexp.Regexp }

// TruncateDepth cuts every stack below Depth frames: truncate(Q, depth).
type TruncateDepth struct{ Depth int }

// Ignore drops the samples whose stack holds a location matching Pattern,
// by pprof's rule for -ignore (a function name, a file name or the
// mapping's file matches): ignore(Q, "regex").
type Ignore struct{ Pattern *regexp.Regexp }

// Hide removes the frames matching Pattern from every stack, keeping their
// samples under their callers, by pprof's rule for -hide (a function name
// or a file name matches; a sample left with no frame is dropped):
// hide(Q, "regex").
type Hide struct{ Pattern *regexp.Regexp }

// SampleFilters are the query's ignore and hide patterns. They act on the
// samples of the merged profile before its tree is built, as pprof applies
// -ignore and -hide, wherever they stand in the pipeline.
func (q *Query) SampleFilters() (ignore, hide []*regexp.Regexp) {
	for _, op := range q.Ops {
		switch o := op.(type) {
		case Ignore:
			ignore = append(ignore, o.Pattern)
		case Hide:
			hide = append(hide, o.Pattern)
		}
	}
	return ignore, hide
}

// Func implements Op.
func (FramesFromLabel) Func() string { return "frames_from_label" }

// Args implements Op.
func (o FramesFromLabel) Args() []Arg {
	args := make([]Arg, 0, len(o.Labels)+1)
	for _, l := range o.Labels {
		args = append(args, Arg{Value: l})
	}
	if o.Sep != "" {
		args = append(args, Arg{Name: "sep", Value: o.Sep})
	}
	return args
}

// Func implements Op.
func (Reverse) Func() string { return "reverse" }

// Args implements Op.
func (Reverse) Args() []Arg { return nil }

// Func implements Op.
func (Focus) Func() string { return "focus" }

// Args implements Op.
func (o Focus) Args() []Arg { return []Arg{{Value: patternText(o.Pattern)}} }

// Func implements Op.
func (DropFrames) Func() string { return "drop_frames" }

// Args implements Op.
func (o DropFrames) Args() []Arg { return []Arg{{Value: patternText(o.Pattern)}} }

// Func implements Op.
func (Ignore) Func() string { return "ignore" }

// Args implements Op.
func (o Ignore) Args() []Arg { return []Arg{{Value: patternText(o.Pattern)}} }

// Func implements Op.
func (Hide) Func() string { return "hide" }

// Args implements Op.
func (o Hide) Args() []Arg { return []Arg{{Value: patternText(o.Pattern)}} }

// Func implements Op.
func (TruncateDepth) Func() string { return "truncate" }

// Args implements Op.
func (o TruncateDepth) Args() []Arg { return []Arg{{Value: o.Depth}} }

func patternText(re *regexp.Regexp) string {
	if re == nil {
		return ""
	}
	return re.String()
}

// VirtualLabels returns the labels whose values become virtual base frames
// of a flamegraph, and the separator that splits a value into nested frames.
// "Q by (a, b)" and frames_from_label(Q, "a", "b") give the same answer;
// a query with neither gives nil.
func (q *Query) VirtualLabels() (labels []string, sep string) {
	if len(q.GroupBy) > 0 {
		return slices.Clone(q.GroupBy), ""
	}
	for _, op := range q.Ops {
		if f, ok := op.(FramesFromLabel); ok {
			return slices.Clone(f.Labels), f.Sep
		}
	}
	return nil, ""
}

// String renders the query in canonical text form, which parses back to an
// equal Query: the selector always has braces, "by" follows the selector,
// strings are double-quoted with Go escapes.
func (q *Query) String() string {
	var b strings.Builder
	b.WriteString(q.ProfileTypeID)
	switch {
	case q.Selector != "":
		b.WriteString(q.Selector)
	default:
		b.WriteString(FormatSelector(q.Matchers))
	}
	if len(q.GroupBy) > 0 {
		b.WriteString(" by (")
		for i, l := range q.GroupBy {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatLabelName(l))
		}
		b.WriteString(")")
	}
	s := b.String()
	for _, op := range q.Ops {
		s = formatCall(op, s)
	}
	return s
}

// formatCall renders op applied to the query text inner.
func formatCall(op Op, inner string) string {
	var b strings.Builder
	b.WriteString(op.Func())
	b.WriteByte('(')
	b.WriteString(inner)
	for _, a := range op.Args() {
		b.WriteString(", ")
		if a.Name != "" {
			b.WriteString(a.Name)
			b.WriteByte('=')
		}
		switch v := a.Value.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case string:
			b.WriteString(strconv.Quote(v))
		}
	}
	b.WriteByte(')')
	return b.String()
}

// formatLabelName writes a label name bare when it is a plain identifier and
// quoted otherwise.
func formatLabelName(l string) string {
	if isPlainLabelName(l) {
		return l
	}
	return strconv.Quote(l)
}

// isPlainLabelName reports a classic Prometheus label name [a-zA-Z_][a-zA-Z0-9_]*.
func isPlainLabelName(l string) bool {
	if l == "" {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(isWordStart(c) || (i > 0 && isDigit(c))) {
			return false
		}
	}
	return true
}

// Equal reports whether q and o select the same profiles and apply the same
// operations; regular expressions compare by their text.
func (q *Query) Equal(o *Query) bool {
	if q == nil || o == nil {
		return q == o
	}
	if q.ProfileTypeID != o.ProfileTypeID ||
		FormatSelector(q.Matchers) != FormatSelector(o.Matchers) ||
		!slices.Equal(q.GroupBy, o.GroupBy) ||
		len(q.Ops) != len(o.Ops) {
		return false
	}
	for i := range q.Ops {
		if q.Ops[i].Func() != o.Ops[i].Func() || !slices.Equal(q.Ops[i].Args(), o.Ops[i].Args()) {
			return false
		}
	}
	return true
}
