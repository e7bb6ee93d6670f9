// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"errors"
	"regexp"
	"testing"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cpu = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

func TestParseValid(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  string // canonical String()
		check func(t *testing.T, q *Query)
	}{
		{
			name: "profile type and matchers",
			in:   cpu + `{service_name="api"}`,
			want: cpu + `{service_name="api"}`,
			check: func(t *testing.T, q *Query) {
				assert.Equal(t, cpu, q.ProfileTypeID)
				assert.Equal(t, `{service_name="api"}`, q.Selector)
				require.Len(t, q.Matchers, 1)
				assert.Equal(t, labels.MustNewMatcher(labels.MatchEqual, "service_name", "api").String(), q.Matchers[0].String())
				assert.Empty(t, q.Ops)
			},
		},
		{
			name: "matchers are normalised and sorted",
			in:   cpu + `{ service_name = "api" , region =~ 'eu.*', a!="" }`,
			want: cpu + `{a!="",region=~"eu.*",service_name="api"}`,
			check: func(t *testing.T, q *Query) {
				require.Len(t, q.Matchers, 3)
				assert.Equal(t, "a", q.Matchers[0].Name)
				assert.Equal(t, labels.MatchRegexp, q.Matchers[1].Type)
			},
		},
		{
			name: "profile type without braces",
			in:   cpu,
			want: cpu + `{}`,
			check: func(t *testing.T, q *Query) {
				assert.Equal(t, "{}", q.Selector)
				assert.Empty(t, q.Matchers)
			},
		},
		{
			name: "empty period parts",
			in:   "goroutine:goroutine:count::",
			want: "goroutine:goroutine:count::{}",
		},
		{
			name:  "matchers without profile type",
			in:    `{service_name="api"}`,
			want:  `{service_name="api"}`,
			check: func(t *testing.T, q *Query) { assert.Empty(t, q.ProfileTypeID) },
		},
		{
			name: "by",
			in:   cpu + `{service_name="api"} by (category, "k6.test", route,)`,
			want: cpu + `{service_name="api"} by (category, "k6.test", route)`,
			check: func(t *testing.T, q *Query) {
				assert.Equal(t, []string{"category", "k6.test", "route"}, q.GroupBy)
				l, sep := q.VirtualLabels()
				assert.Equal(t, []string{"category", "k6.test", "route"}, l)
				assert.Empty(t, sep)
			},
		},
		{
			name: "frames_from_label",
			in:   `frames_from_label(` + cpu + `{service_name="api"}, "category", "route")`,
			want: `frames_from_label(` + cpu + `{service_name="api"}, "category", "route")`,
			check: func(t *testing.T, q *Query) {
				assert.Empty(t, q.GroupBy)
				require.Len(t, q.Ops, 1)
				assert.Equal(t, FramesFromLabel{Labels: []string{"category", "route"}}, q.Ops[0])
				l, sep := q.VirtualLabels()
				assert.Equal(t, []string{"category", "route"}, l)
				assert.Empty(t, sep)
			},
		},
		{
			name: "frames_from_label with sep",
			in:   `frames_from_label({}, "category", sep = "::")`,
			want: `frames_from_label({}, "category", sep="::")`,
			check: func(t *testing.T, q *Query) {
				l, sep := q.VirtualLabels()
				assert.Equal(t, []string{"category"}, l)
				assert.Equal(t, "::", sep)
			},
		},
		{
			name: "ignore and hide, pprof's -ignore and -hide, are the query's sample filters",
			in:   "reverse(ignore(hide({a=\"b\"}, `runtime\\.`), \"sha256\"))",
			want: `reverse(ignore(hide({a="b"}, "runtime\\."), "sha256"))`,
			check: func(t *testing.T, q *Query) {
				require.Len(t, q.Ops, 3)
				ignore, hide := q.SampleFilters()
				require.Len(t, ignore, 1)
				require.Len(t, hide, 1)
				assert.Equal(t, "sha256", ignore[0].String())
				assert.Equal(t, `runtime\.`, hide[0].String())
			},
		},
		{
			name: "nesting applies innermost first",
			in:   "truncate(reverse(focus(drop_frames({a=\"b\"}, `runtime\\..*`), \"json\")), 40)",
			want: `truncate(reverse(focus(drop_frames({a="b"}, "runtime\\..*"), "json")), 40)`,
			check: func(t *testing.T, q *Query) {
				require.Len(t, q.Ops, 4)
				assert.Equal(t, `runtime\..*`, q.Ops[0].(DropFrames).Pattern.String())
				assert.Equal(t, "json", q.Ops[1].(Focus).Pattern.String())
				assert.Equal(t, Reverse{}, q.Ops[2])
				assert.Equal(t, TruncateDepth{Depth: 40}, q.Ops[3])
			},
		},
		{
			name: "by after a function call moves next to the selector",
			in:   `reverse({}) by (a)`,
			want: `reverse({} by (a))`,
			check: func(t *testing.T, q *Query) {
				assert.Equal(t, []string{"a"}, q.GroupBy)
				assert.Equal(t, []Op{Reverse{}}, q.Ops)
			},
		},
		{
			name: "frames_from_label around other functions",
			in:   `frames_from_label(reverse({}), "a")`,
			want: `frames_from_label(reverse({}), "a")`,
			check: func(t *testing.T, q *Query) {
				assert.Equal(t, []Op{Reverse{}, FramesFromLabel{Labels: []string{"a"}}}, q.Ops)
				l, _ := q.VirtualLabels()
				assert.Equal(t, []string{"a"}, l)
			},
		},
		{
			name: "comments and new lines",
			in:   "# top flames\nreverse(\n  {a=\"b\"} # the service\n)",
			want: `reverse({a="b"})`,
		},
		{
			name: "escapes in strings survive",
			in:   `focus({a="x\"y"}, "a\tb\\.")`,
			want: `focus({a="x\"y"}, "a\tb\\.")`,
			check: func(t *testing.T, q *Query) {
				assert.Equal(t, "a\tb\\.", q.Ops[0].(Focus).Pattern.String())
				assert.Equal(t, `x"y`, q.Matchers[0].Value)
			},
		},
		{
			name: "quoted UTF-8 label names",
			in:   `{"k6.scenario"="load"} by ("k6.scenario")`,
			want: `{"k6.scenario"="load"} by ("k6.scenario")`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := Parse(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, q.String())
			if tc.check != nil {
				tc.check(t, q)
			}
			again, err := Parse(q.String())
			require.NoError(t, err, "canonical form must parse")
			assert.True(t, q.Equal(again), "canonical form parses to the same query: %s", again)
		})
	}
}

func TestParseInvalid(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, `1:1: expected a selector (a profile type or {label matchers}) or a function call, found end of input`},
		{`foo`, `1:1: expected a selector (a profile type or {label matchers}) or a function call, found identifier "foo"`},
		{`nope({})`, `1:1: unknown function "nope"; known functions: drop_frames, focus, frames_from_label, hide, ignore, reverse, truncate`},
		{`reverse`, `1:8: expected "(" after reverse, found end of input`},
		{`reverse()`, `1:9: expected a query as the first argument of reverse(query), found ")"`},
		{`reverse({}, 1)`, `1:13: expected ")" to close reverse(query), found number 1`},
		{`reverse({}`, `1:11: expected "," or ")" in reverse(query), found end of input`},
		{`reverse("x")`, `1:9: expected a selector (a profile type or {label matchers}) or a function call, found string "x"`},
		{`process_cpu:cpu{}`, `1:1: profile type "process_cpu:cpu" has 2 parts; expected name:sample_type:sample_unit:period_type:period_unit`},
		{`process_cpu::nanoseconds:cpu:nanoseconds`, `1:1: profile type "process_cpu::nanoseconds:cpu:nanoseconds" has an empty sample type; expected name:sample_type:sample_unit:period_type:period_unit`},
		{`{a=}`, `1:4: in label matchers: unexpected "}" in label matching, expected string`},
		{cpu + `{a="b"`, `1:50: in label matchers: unexpected end of input inside braces`},
		{`{a="b", c=~"("}`, `1:9: in label matchers: error parsing regexp: missing closing ): ` + "`(`"},
		{`{__name__="x"}`, `1:1: label matchers cannot select __name__: profiles have no metric name`},
		{`{} extra`, `1:4: expected end of query, found identifier "extra"`},
		{`{} @`, `1:4: expected end of query, found character '@'`},
		{`"unterminated`, `1:1: unterminated string: expected a closing " before the end of input`},
		{"focus({}, \"a\nb\")", `1:11: unterminated string: expected a closing " before the end of the line`},
		{`focus({}, "\q")`, `1:11: invalid escape in string "\q"`},
		{`{} by a`, `1:7: expected "(" after by, found identifier "a"`},
		{`{} by ()`, `1:8: expected a label name in by (...), found ")"`},
		{`{} by ("")`, `1:8: expected a label name in by (...), found string ""`},
		{`{} by (a b)`, `1:10: expected ")" after label list, found identifier "b"`},
		{`{} by (a`, `1:9: expected ")" after label list, found end of input`},
		{`{} by (a, a)`, `1:11: label "a" is given twice in by (...)`},
		{`{} by (a) by (b)`, `1:11: by (...) is given twice; the first is at 1:4`},
		{`truncate({}, "x")`, `1:14: expected depth (an integer) in truncate(query, depth), found string "x"`},
		{`truncate({})`, `1:12: expected "," and depth (an integer) in truncate(query, depth), found ")"`},
		{`truncate({}, 0)`, `1:14: truncate: depth must be at least 1, found 0`},
		{`truncate({}, 1.5)`, `1:14: depth must be an integer in truncate(query, depth), found number 1.5`},
		{`truncate({}, 99999999999999999999)`, `1:14: depth must be an integer in truncate(query, depth), found number 99999999999999999999`},
		{`focus({}, "(")`, "1:11: focus: invalid regular expression: error parsing regexp: missing closing ): `(`"},
		{`drop_frames({}, "")`, `1:17: drop_frames: regular expression must not be empty`},
		{`frames_from_label({})`, `1:21: expected "," and label (a string) in frames_from_label(query, label, ..., sep=string), found ")"`},
		{`frames_from_label({}, "category" "route")`, `1:34: expected ")" after label list, found string "route"`},
		{`frames_from_label({}, "a", "a")`, `1:28: frames_from_label: label "a" is given twice`},
		{`frames_from_label({}, " ")`, `1:23: frames_from_label: label name must not be empty`},
		{`frames_from_label({}, "a", foo="x")`, `1:28: unknown argument foo= in frames_from_label(query, label, ..., sep=string)`},
		{`frames_from_label({}, "a", sep="x", sep="y")`, `1:37: argument sep= is given twice in frames_from_label(query, label, ..., sep=string)`},
		{`frames_from_label({}, "a", sep=1)`, `1:32: expected sep (a string) in frames_from_label(query, label, ..., sep=string), found number 1`},
		{`frames_from_label({}, "a", sep="x", "b")`, `1:37: expected a named argument or ")" after a named argument in frames_from_label(query, label, ..., sep=string), found string "b"`},
		{`frames_from_label({} by (a), "b")`, `1:1: frames_from_label cannot be combined with by (...): both set the virtual frames`},
		{`frames_from_label({}, "b") by (a)`, `1:28: by (...) cannot be combined with frames_from_label: both set the virtual frames`},
		{`frames_from_label(frames_from_label({}, "a"), "b")`, `1:1: frames_from_label is given twice; give all labels to one call`},
		{"reverse(\n  {a=\"b\"},\n  3)", `3:3: expected ")" to close reverse(query), found number 3`},
		{"{a=\"é\"} ü", `1:9: expected end of query, found character 'ü'`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			q, err := Parse(tc.in)
			require.Error(t, err, "parsed as %v", q)
			var qe *Error
			require.True(t, errors.As(err, &qe), "error is a *query.Error: %T", err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestNestingIsBounded(t *testing.T) {
	in := `{}`
	for range maxNesting + 1 {
		in = "reverse(" + in + ")"
	}
	_, err := Parse(in)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "functions nested more than 64 deep")
}

func TestVirtualLabelsSameForBothSpellings(t *testing.T) {
	by, err := Parse(cpu + `{service_name="api"} by (category, route)`)
	require.NoError(t, err)
	ffl, err := Parse(`frames_from_label(` + cpu + `{service_name="api"}, "category", "route")`)
	require.NoError(t, err)
	l1, s1 := by.VirtualLabels()
	l2, s2 := ffl.VirtualLabels()
	assert.Equal(t, l1, l2)
	assert.Equal(t, s1, s2)

	plain, err := Parse(cpu)
	require.NoError(t, err)
	l, sep := plain.VirtualLabels()
	assert.Nil(t, l)
	assert.Empty(t, sep)
}

func TestEqual(t *testing.T) {
	a, err := Parse(`focus({b="1",a="2"}, "x")`)
	require.NoError(t, err)
	b, err := Parse(`focus({a="2", b="1"}, "x")`)
	require.NoError(t, err)
	assert.True(t, a.Equal(b), "matcher order does not matter")
	c, err := Parse(`focus({a="2", b="1"}, "y")`)
	require.NoError(t, err)
	assert.False(t, a.Equal(c))
	d, err := Parse(`drop_frames({a="2", b="1"}, "x")`)
	require.NoError(t, err)
	assert.False(t, a.Equal(d))
	assert.True(t, (&Query{Ops: []Op{Focus{Pattern: regexp.MustCompile("a")}}}).Equal(&Query{Ops: []Op{Focus{Pattern: regexp.MustCompile("a")}}}))
}
