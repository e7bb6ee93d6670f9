// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package recording_test

import (
	"sync"
	"testing"
	"time"

	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/recording"
	"github.com/emberscope/emberscope/pkg/store/rules"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

type fixedRules []*rules.Compiled

func (f fixedRules) Rules(string) []*rules.Compiled { return f }

type pointSink struct {
	mu     sync.Mutex
	points []recording.Point
}

func (s *pointSink) Record(_ string, pts []recording.Point) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.points = append(s.points, pts...)
}

func write(service string, total int64) storage.Write {
	return storage.Write{
		Labels: storage.Labels{{Name: "__profile_type__", Value: "process_cpu:cpu:nanoseconds:cpu:nanoseconds"}, {Name: "service_name", Value: service}},
		Series: &pprofconv.Series{Total: total},
		Result: &pprofconv.Result{},
	}
}

// TestIntervalsByArrival: profiles are filed in the aligned interval they
// arrive in, whatever their own time, and an interval reaches the sink
// only once it has closed, at its start time.
func TestIntervalsByArrival(t *testing.T) {
	rule, err := rules.Compile(&settingsv1.RecordingRule{
		Id: "abc", MetricName: "profiles_recorded_x",
		Matchers: []string{`{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds", service_name="a"}`},
	})
	require.NoError(t, err)
	now := time.Date(2026, 12, 7, 12, 0, 3, 0, time.UTC)
	sink := &pointSink{}
	r := recording.New(recording.Options{Rules: fixedRules{rule}, Sink: sink, Interval: 15 * time.Second, Now: func() time.Time { return now }})

	r.Observe("anonymous", []storage.Write{write("a", 10), write("b", 1000)})
	now = now.Add(5 * time.Second) // 12:00:08, same interval
	r.Observe("anonymous", []storage.Write{write("a", 5)})
	r.Flush(false)
	require.Empty(t, sink.points, "the interval 12:00:00–12:00:15 is still open")

	now = now.Add(10 * time.Second) // 12:00:18, the next interval
	r.Observe("anonymous", []storage.Write{write("a", 7)})
	r.Flush(false)
	require.Len(t, sink.points, 1)
	require.Equal(t, time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC).UnixMilli(), sink.points[0].TimeMillis)
	require.Equal(t, 15.0, sink.points[0].Value, "service b does not match")

	r.Flush(true)
	require.Len(t, sink.points, 2)
	require.Equal(t, time.Date(2026, 12, 7, 12, 0, 15, 0, time.UTC).UnixMilli(), sink.points[1].TimeMillis)
	require.Equal(t, 7.0, sink.points[1].Value)
}
