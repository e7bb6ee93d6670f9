// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleOp is an Op of a function registered only in this test.
type sampleOp struct {
	Every int
	Tag   string
}

func (sampleOp) Func() string { return "sample_every" }

func (o sampleOp) Args() []Arg {
	args := []Arg{{Value: o.Every}}
	if o.Tag != "" {
		args = append(args, Arg{Name: "tag", Value: o.Tag})
	}
	return args
}

func TestNewFunctionNeedsNoParserChange(t *testing.T) {
	Register(&Function{
		Name:   "sample_every",
		Params: []Param{{Name: "n", Kind: ArgInt}},
		Named:  []Param{{Name: "tag", Kind: ArgString}},
		Build: func(a *Args) (Op, error) {
			if a.Int("n") > 100 {
				return nil, a.Errorf("n", 0, "n must be at most 100")
			}
			return sampleOp{Every: a.Int("n"), Tag: a.String("tag")}, nil
		},
	})
	t.Cleanup(func() { delete(functions, "sample_every") })

	q, err := Parse(`reverse(sample_every({}, 3, tag="x"))`)
	require.NoError(t, err)
	assert.Equal(t, []Op{sampleOp{Every: 3, Tag: "x"}, Reverse{}}, q.Ops)
	assert.Equal(t, `reverse(sample_every({}, 3, tag="x"))`, q.String())

	_, err = Parse(`sample_every({}, 300)`)
	assert.EqualError(t, err, `1:18: sample_every: n must be at most 100`)
	_, err = Parse(`sample_every({}, "3")`)
	assert.EqualError(t, err, `1:18: expected n (an integer) in sample_every(query, n, tag=string), found string "3"`)
}

func TestRegisterRejectsDuplicates(t *testing.T) {
	assert.Panics(t, func() { Register(&Function{Name: "reverse", Build: func(*Args) (Op, error) { return Reverse{}, nil }}) })
}

func TestFunctionsListedForTheEditor(t *testing.T) {
	var names, sigs []string
	for _, f := range Functions() {
		names = append(names, f.Name)
		sigs = append(sigs, f.Signature())
		assert.NotEmpty(t, f.Doc, f.Name)
	}
	assert.Equal(t, []string{"drop_frames", "focus", "frames_from_label", "hide", "ignore", "reverse", "truncate"}, names)
	assert.Contains(t, sigs, "frames_from_label(query, label, ..., sep=string)")
	assert.Contains(t, sigs, "truncate(query, depth)")
}
