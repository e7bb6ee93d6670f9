package pyroscope_test

import (
	"context"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend/httpclient"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/flame"
	"github.com/emberscope/emberscope/pkg/model"
	"github.com/emberscope/emberscope/pkg/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/pyroscope"
	"github.com/emberscope/emberscope/pkg/source"
)

const cpuType = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

// TestClientAgainstStore checks every call of the client against the
// embedded store holding a real CPU profile.
func TestClientAgainstStore(t *testing.T) {
	url := plugintest.Store(t)
	raw := plugintest.CPUProfile(t, 100*time.Millisecond)
	plugintest.Ingest(t, url, "shop{env=\"ci\"}", raw)
	p := plugintest.Parse(t, raw)
	idx := plugintest.SampleIndex(t, p, "cpu")
	total, flat := plugintest.Totals(p, idx)

	c, err := pyroscope.New(url, httpclient.Options{})
	require.NoError(t, err)
	ctx := context.Background()
	now := time.Now()
	rng := source.TimeRange{From: now.Add(-time.Hour), To: now.Add(time.Minute)}
	sel := source.Selection{ProfileTypeID: cpuType, LabelSelector: `{service_name="shop"}`, Range: rng}

	types, err := c.ProfileTypes(ctx, rng)
	require.NoError(t, err)
	var ids []string
	for _, pt := range types {
		ids = append(ids, pt.String())
		if pt.String() == cpuType {
			require.Equal(t, model.ProfileType{Name: "process_cpu", SampleType: "cpu", SampleUnit: "nanoseconds", PeriodType: "cpu", PeriodUnit: "nanoseconds"}, pt)
		}
	}
	require.Contains(t, ids, cpuType)

	names, err := c.LabelNames(ctx, source.LabelsRequest{Matchers: []string{`{service_name="shop"}`}, Range: rng})
	require.NoError(t, err)
	require.Subset(t, names, []string{"env", "route", "service_name"})
	values, err := c.LabelValues(ctx, "route", source.LabelsRequest{Matchers: []string{"{}"}, Range: rng})
	require.NoError(t, err)
	require.ElementsMatch(t, plugintest.Routes, values)

	tree, err := c.MergeStacks(ctx, source.StacksRequest{Selection: sel})
	require.NoError(t, err)
	require.Equal(t, total, tree.Total())
	spin := plugintest.FuncName("spin")
	var spinSelf int64
	tree.Walk(func(n flame.NodeID, _ int) {
		if tree.Name(n) == spin {
			spinSelf += tree.Self(n)
		}
	})
	require.Equal(t, flat[spin], spinSelf)

	series, err := c.Series(ctx, source.SeriesRequest{Selection: sel, GroupBy: []string{"route"}, Step: time.Minute})
	require.NoError(t, err)
	var sum float64
	for _, s := range series {
		for _, pt := range s.Points {
			sum += pt.Value
		}
	}
	require.Equal(t, float64(total), sum)

	merged, err := c.MergeProfile(ctx, source.StacksRequest{Selection: sel})
	require.NoError(t, err)
	mi := plugintest.SampleIndex(t, merged, "cpu")
	mTotal, mFlat := plugintest.Totals(merged, mi)
	require.Equal(t, total, mTotal, "merged pprof total")
	require.Equal(t, flat[spin], mFlat[spin], "merged pprof flat")

	heat, err := c.Heatmap(ctx, sel, time.Minute)
	require.NoError(t, err)
	var profiles int32
	for _, s := range heat {
		for _, n := range s.Counts {
			profiles += n
		}
	}
	require.Positive(t, profiles)
}

// TestServerRejection shows the server's own message for a request it refuses.
func TestServerRejection(t *testing.T) {
	url := plugintest.Store(t)
	c, err := pyroscope.New(url, httpclient.Options{})
	require.NoError(t, err)
	now := time.Now()
	_, err = c.MergeStacks(context.Background(), source.StacksRequest{Selection: source.Selection{
		ProfileTypeID: cpuType, LabelSelector: `{service_name=}`, Range: source.TimeRange{From: now.Add(-time.Hour), To: now},
	}})
	require.Error(t, err)
	var pe *model.Error
	require.ErrorAs(t, err, &pe)
	require.Equal(t, model.KindBadRequest, pe.Kind)
	require.Equal(t, 400, pe.HTTPStatus())
	require.NotContains(t, err.Error(), "invalid_argument", "the server's message, without the code")
	t.Logf("server message: %v", err)
}
