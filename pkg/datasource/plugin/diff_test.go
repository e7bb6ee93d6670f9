// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
)

// TestDiffOfARangeWithItselfIsAllZeroChange: the baseline and the comparison
// are the same selection over the same range, so every node has the same
// value and self on both sides (value/self the baseline, valueRight/selfRight
// the comparison, as @grafana/flamegraph reads them).
func TestDiffOfARangeWithItselfIsAllZeroChange(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	total := plugintest.Pprof(t, plugintest.CPUFile, "cpu").Total
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

// TestTopTableIsGooglePprofTop: every function's self and total in the top
// table equal what google/pprof (the oracle: `go tool pprof -top`) reports as
// its flat and cum, generic functions included, and no function is missing.
func TestTopTableIsGooglePprofTop(t *testing.T) {
	fx := storeFixture(t)
	d := newDS(t, fx.url)
	want := plugintest.Pprof(t, plugintest.CPUFile, "cpu")
	f := ok(t, run(t, d, q("T", "topTable", `{"profileTypeId":"`+cpuType+`","labelSelector":"{service_name=\"shop\"}","maxNodes":1048576}`)), "T")[0]
	sym, _ := f.FieldByName("symbol")
	selfF, _ := f.FieldByName("self")
	totalF, _ := f.FieldByName("total")
	gotSelf, gotTotal := map[string]int64{}, map[string]int64{}
	for i := 0; i < f.Rows(); i++ {
		name := sym.At(i).(string)
		if name == "total" { // the root row
			require.Equal(t, want.Total, totalF.At(i).(int64), "root = pprof total")
			continue
		}
		if s := selfF.At(i).(int64); s != 0 {
			gotSelf[name] = s
		}
		gotTotal[name] = totalF.At(i).(int64)
	}
	require.Equal(t, want.Flat(), gotSelf, "self = pprof flat, for every function")
	require.Equal(t, want.Cum(), gotTotal, "total = pprof cum, for every function")
}
