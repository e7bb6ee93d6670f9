package pprofconv_test

import (
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/pprofconv"
	"github.com/emberscope/emberscope/pkg/pprofconv/pproftest"
)

func cpuProfile(t testing.TB) *profile.Profile {
	t.Helper()
	data, err := pproftest.CPU()
	require.NoError(t, err)
	p, err := profile.ParseData(data)
	require.NoError(t, err)
	return p
}

// selfByName sums the self value of every node per name.
func selfByName(tr *flame.Tree) map[string]int64 {
	out := make(map[string]int64)
	tr.Walk(func(n flame.NodeID, _ int) {
		if s := tr.Self(n); s != 0 {
			out[tr.Name(n)] += s
		}
	})
	return out
}

func TestToTreeMatchesPprofFlat(t *testing.T) {
	p := cpuProfile(t)
	for idx := range p.SampleType {
		tr := pprofconv.ToTree(p, idx)
		flat, total := pproftest.Flat(p, idx)
		require.Equal(t, total, tr.Total(), "sample type %s", p.SampleType[idx].Type)
		require.Equal(t, flat, selfByName(tr))
	}
	require.ErrorContains(t, pprofconv.AddToTree(flame.New(), p, 5), "out of range")
	require.Zero(t, pprofconv.ToTree(p, 5).Total())
}

func TestConvertCPU(t *testing.T) {
	p := cpuProfile(t)
	res, err := pprofconv.Convert(p, pprofconv.Options{Naming: pprofconv.Naming{Fallback: "app"}})
	require.NoError(t, err)
	byType := map[string]int64{}
	byCategory := map[string]int64{}
	for _, s := range res.Series {
		byType[s.Type.ID()] += s.Total
		var sum int64
		for _, smp := range s.Samples {
			require.NotZero(t, smp.Value)
			sum += smp.Value
		}
		require.Equal(t, s.Total, sum)
		if s.Type.SampleType == "cpu" {
			cat := ""
			for _, l := range s.Labels {
				if l.Name == "category" {
					cat = l.Value
				}
			}
			byCategory[cat] += s.Total
		}
	}
	_, cpuTotal := pproftest.Flat(p, 1)
	_, countTotal := pproftest.Flat(p, 0)
	require.Equal(t, map[string]int64{
		"process_cpu:samples:count:cpu:nanoseconds":   countTotal,
		"process_cpu:cpu:nanoseconds:cpu:nanoseconds": cpuTotal,
	}, byType)
	for _, cat := range []string{"alpha", "beta", ""} {
		_, want := pproftest.FlatWhere(p, 1, "category", cat)
		require.Equal(t, want, byCategory[cat], "category %q", cat)
		require.NotZero(t, want, "the test profile has no samples for category %q", cat)
	}
	// Stacks are root first and end in the burning function.
	for _, s := range res.Series {
		for _, smp := range s.Samples {
			st := res.Stacks[smp.Stack]
			require.NotEmpty(t, st)
		}
	}
}

func TestConvertDropsZeroAndNamesTypes(t *testing.T) {
	fn := &profile.Function{ID: 1, Name: "slices.Sort[go.shape.int]"}
	fn2 := &profile.Function{ID: 2, Name: "main.main"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn}, {Function: fn2}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}, {Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{loc}, Value: []int64{1, 10, 0, 0}, Label: map[string][]string{"otel.scope": {"x"}}},
			{Location: []*profile.Location{loc}, Value: []int64{0, 0, 0, 0}},
		},
		Location: []*profile.Location{loc},
		Function: []*profile.Function{fn, fn2},
	}
	res, err := pprofconv.Convert(p, pprofconv.Options{})
	require.NoError(t, err)
	require.Len(t, res.Series, 2)
	require.Equal(t, "memory:alloc_objects:count:space:bytes", res.Series[0].Type.ID())
	require.Equal(t, "memory:alloc_space:bytes:space:bytes", res.Series[1].Type.ID())
	require.Equal(t, int64(10), res.Series[1].Total, "cumulative alloc_space is kept as sent")
	require.Equal(t, []pprofconv.Label{{Name: "otel_scope", Value: "x"}}, res.Series[0].Labels)
	require.Equal(t, []string{"main.main", "slices.Sort"}, []string{res.Names[res.Stacks[0][0]], res.Names[res.Stacks[0][1]]})

	p.Sample[0].Label = map[string][]string{"bad-name": {"x"}}
	_, err = pprofconv.Convert(p, pprofconv.Options{})
	require.ErrorContains(t, err, `invalid label name "bad-name"`)
}

func TestInlinedFramesMatchSeparateLocations(t *testing.T) {
	fa := &profile.Function{ID: 1, Name: "a"}
	fb := &profile.Function{ID: 2, Name: "b"}
	inlined := &profile.Location{ID: 1, Line: []profile.Line{{Function: fb}, {Function: fa}}} // b inlined into a
	la := &profile.Location{ID: 2, Line: []profile.Line{{Function: fa}}}
	lb := &profile.Location{ID: 3, Line: []profile.Line{{Function: fb}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{inlined}, Value: []int64{2}},
			{Location: []*profile.Location{lb, la}, Value: []int64{3}},
		},
		Location: []*profile.Location{inlined, la, lb},
		Function: []*profile.Function{fa, fb},
	}
	tr := pprofconv.ToTree(p, 0)
	require.Equal(t, 3, tr.Len(), "total, a, b: both samples share one path")
	require.Equal(t, map[string]int64{"b": 5}, selfByName(tr))
}
