// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rangesplit

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
)

// TestLimitOfPyroscopesRefusals reads the limit from every refusal that
// Pyroscope v2.2.1 sent (recordings 64, 66–71), as the Pyroscope client
// reports it, and finds none in its answers.
func TestLimitOfPyroscopesRefusals(t *testing.T) {
	srv := pyroscopereplay.NewServerOf(t, fixtures.PyroscopeLimits())
	c := pyroscope.NewWithHTTPClient(srv.URL, srv.Client())
	ms := func(v int64) time.Time { return time.UnixMilli(v).UTC() }
	refused := 0
	for _, ex := range srv.Exchanges {
		var req struct {
			Start, End    int64
			Name          string
			Matchers      []string
			ProfileTypeID string
			LabelSelector string
			Step          float64
		}
		require.NoError(t, json.Unmarshal(ex.Body, &req), ex.Name)
		r := source.TimeRange{From: ms(req.Start), To: ms(req.End)}
		sel := source.Selection{ProfileTypeID: req.ProfileTypeID, LabelSelector: req.LabelSelector, Range: r}
		var err error
		switch ex.RPC() {
		case "ProfileTypes":
			_, err = c.ProfileTypes(context.Background(), r)
		case "LabelNames":
			_, err = c.LabelNames(context.Background(), source.LabelsRequest{Matchers: req.Matchers, Range: r})
		case "LabelValues":
			_, err = c.LabelValues(context.Background(), req.Name, source.LabelsRequest{Matchers: req.Matchers, Range: r})
		case "SelectMergeStacktraces":
			_, err = c.MergeStacks(context.Background(), source.StacksRequest{Selection: sel})
		case "SelectSeries":
			_, err = c.Series(context.Background(), source.SeriesRequest{Selection: sel, Step: time.Duration(req.Step * float64(time.Second))})
		case "Series":
			continue // the client makes no Series call; its refusal reads like the others
		default:
			t.Fatalf("%s: unexpected call %s", ex.Name, ex.RPC())
		}
		l, ok := LimitOf(err)
		if ex.Status == 200 {
			require.NoError(t, err, ex.Name)
			assert.False(t, ok, ex.Name)
			continue
		}
		refused++
		require.True(t, ok, "%s: %v", ex.Name, err)
		assert.Equal(t, 24*time.Hour, l, ex.Name)
	}
	assert.Equal(t, 6, refused)
	assert.Empty(t, srv.Unmatched())
}

func TestParseDuration(t *testing.T) {
	for s, want := range map[string]time.Duration{
		"1d": 24 * time.Hour, "1w": 7 * 24 * time.Hour, "1d12h": 36 * time.Hour, "36h": 36 * time.Hour,
		"24h0m0s": 24 * time.Hour, "1.5h": 90 * time.Minute, "6d23h59m59s999ms": 7*24*time.Hour - time.Millisecond,
	} {
		got, err := ParseDuration(s)
		require.NoError(t, err, s)
		assert.Equal(t, want, got, s)
	}
	_, err := ParseDuration("a day")
	require.Error(t, err)
	assert.Equal(t, "1d", FormatDuration(24*time.Hour))
	assert.Equal(t, "1d12h", FormatDuration(36*time.Hour))
}

// TestPlans: every piece fits the limit, the pieces cover the range, and
// series pieces start on the whole request's points.
func TestPlans(t *testing.T) {
	from := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	week := source.TimeRange{From: from, To: from.Add(7 * 24 * time.Hour)}
	limit := 24 * time.Hour

	ps, err := disjoint(week, limit)
	require.NoError(t, err)
	require.Len(t, ps, 7)
	for i, p := range ps {
		assert.LessOrEqual(t, length(p), limit)
		assert.Equal(t, from.Add(time.Duration(i)*limit), p.From)
		if i < 6 {
			assert.Equal(t, ps[i+1].From.Add(-time.Millisecond), p.To, "consecutive, sharing no millisecond")
		}
	}
	assert.Equal(t, week.To, ps[6].To)

	for _, step := range []time.Duration{15 * time.Second, 7 * time.Hour, 24 * time.Hour, 48 * time.Hour, 73 * time.Hour} {
		sp, err := seriesPlan(week, step, limit)
		require.NoError(t, err, step)
		require.NotEmpty(t, sp)
		assert.Equal(t, from, sp[0].From, step)
		for i, p := range sp {
			assert.LessOrEqual(t, length(p.TimeRange), limit, "step %s piece %d", step, i)
			if step <= limit {
				assert.Equal(t, step, p.Step)
				assert.Zero(t, p.From.Sub(from)%step, "step %s piece %d starts on a point", step, i)
			} else {
				assert.Equal(t, p.To.Sub(p.From), p.Step, "one window per piece")
			}
			if i > 0 {
				assert.Equal(t, sp[i-1].To, p.From, "step %s: contiguous", step)
			}
		}
	}
	_, err = disjoint(source.TimeRange{From: from, To: from.Add(time.Duration(MaxPieces+1) * time.Hour)}, time.Hour)
	require.ErrorContains(t, err, "narrow the range")
}
