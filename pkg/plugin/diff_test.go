package plugin

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/plugin/plugintest"
)

// TestDiffOfARangeWithItselfIsAllZeroChange: the baseline and the comparison
// are the same selection over the same range, so every node has the same
// value and self on both sides (value/self the baseline, valueRight/selfRight
// the comparison, as @grafana/flamegraph reads them).
func TestDiffOfARangeWithItselfIsAllZeroChange(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	total, _ := plugintest.Totals(fx.cpu, plugintest.SampleIndex(t, fx.cpu, "cpu"))
	dq := q("D", "diff", "")
	from, to := dq.TimeRange.From.UnixMilli(), dq.TimeRange.To.UnixMilli()
	dq = q("D", "diff", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}",`+
		`"comparison":{"labelSelector":"{service_name=\"shop\"}","from":`+itoa(from)+`,"to":`+itoa(to)+`}}`)
	f := ok(t, run(t, d, dq), "D")[0]
	value, _ := f.FieldByName("value")
	self, _ := f.FieldByName("self")
	valueRight, _ := f.FieldByName("valueRight")
	selfRight, _ := f.FieldByName("selfRight")
	require.NotNil(t, valueRight, "a diff frame has valueRight")
	require.Equal(t, total, value.At(0).(int64), "root baseline: the whole profile")
	require.Equal(t, total, valueRight.At(0).(int64), "root comparison: the whole profile")
	require.Greater(t, f.Rows(), 3)
	for i := 0; i < f.Rows(); i++ {
		left, right := value.At(i).(int64), valueRight.At(i).(int64)
		require.Equal(t, left, right, "row %d: total changed", i)
		ls, rs := self.At(i).(int64), selfRight.At(i).(int64)
		require.Equal(t, ls, rs, "row %d: self changed", i)
	}
}

// TestTopTableSelfIsPprofFlat: every function's self in the top table equals
// what `go tool pprof -top` reports as flat for it.
func TestTopTableSelfIsPprofFlat(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	_, flat := plugintest.Totals(fx.cpu, plugintest.SampleIndex(t, fx.cpu, "cpu"))
	f := ok(t, run(t, d, q("T", "topTable", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}","maxNodes":1048576}`)), "T")[0]
	sym, _ := f.FieldByName("symbol")
	selfF, _ := f.FieldByName("self")
	got := map[string]int64{}
	for i := 0; i < f.Rows(); i++ {
		got[sym.At(i).(string)] = selfF.At(i).(int64)
	}
	checked := 0
	for name, v := range flat {
		if v == 0 || strings.Contains(name, "[") { // generic shapes are renamed by the store
			continue
		}
		require.Equal(t, v, got[name], "self of %s = pprof flat", name)
		checked++
	}
	require.Positive(t, checked)
}
