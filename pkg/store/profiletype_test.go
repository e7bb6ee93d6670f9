// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"context"
	"testing"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/stretchr/testify/require"
)

// TestStoreAnswersAnySampleTypeSpelling: Pyroscope stores a pprof whose
// sample type has a space and an empty unit and answers queries for its
// profile type; so does the store, although such an ID could not be typed
// into the datasource's query language.
func TestStoreAnswersAnySampleTypeSpelling(t *testing.T) {
	s := newServer(t, t.TempDir())
	p, err := profile.Parse(bytes.NewReader(cpuData(t)))
	require.NoError(t, err)
	for _, st := range p.SampleType {
		if st.Type == "cpu" {
			st.Type, st.Unit = "cpu time", ""
		}
	}
	var buf bytes.Buffer
	require.NoError(t, p.Write(&buf))
	_, err = s.pusher.Push(context.Background(), connect.NewRequest(&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{{
		Labels:  []*typesv1.LabelPair{{Name: "__name__", Value: "process_cpu"}, {Name: "service_name", Value: "odd"}},
		Samples: []*pushv1.RawSample{{RawProfile: buf.Bytes()}},
	}}}))
	require.NoError(t, err)

	const odd = "process_cpu:cpu time::cpu:nanoseconds"
	types, err := s.querier.ProfileTypes(context.Background(), connect.NewRequest(&querierv1.ProfileTypesRequest{Start: 1, End: farFuture}))
	require.NoError(t, err)
	var ids []string
	for _, pt := range types.Msg.ProfileTypes {
		ids = append(ids, pt.ID)
	}
	require.Contains(t, ids, odd)
	got := s.flame(odd, `{service_name="odd"}`, 1<<20)
	require.Equal(t, oracle(t, "cpu").Total, got.total)
}
