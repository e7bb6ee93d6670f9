// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"bytes"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/pyroscopereplay"
	"github.com/emberscope/emberscope/internal/testdata"
)

// selectorRecordings is the folder of the stack trace selector recordings
// (74–87), made against their own server state.
func selectorRecordings() string { return filepath.Join(testdata.Pyroscope(), "selectors") }

// TestReplayPyroscopeStackTraceSelectors pushes the two profiles the
// selector recordings were made with (selectors/README.md), as they were
// pushed, then sends every recorded request and compares the store's answer
// with Pyroscope's: flamegraphs node for node, pprof answers stack for stack
// with their lines, series points. They cover a call site matched from the
// root only, an empty call site ignored, maxNodes applied under the
// selection, the pprof of a call site, SelectSeries ignoring the selector,
// go_pgo's keep_locations and aggregate_callees on pprof answers, go_pgo
// winning over a call site there, and go_pgo not applied to a flamegraph.
func TestReplayPyroscopeStackTraceSelectors(t *testing.T) {
	exs, err := pyroscopereplay.Load(selectorRecordings())
	require.NoError(t, err)
	require.Len(t, exs, 14, "every recorded selector exchange is replayed")
	srv := newReplayStore(t)
	for _, push := range []struct{ name, file string }{
		{"rec-chain{env=demo}", "deep-chain.cpu.selectors.pb.gz"},
		{"rec-labeled{env=demo}", "labeled.cpu.selectors.pb.gz"},
	} {
		raw := testdata.Read(t, "pyroscope/selectors/pushed-profiles/"+push.file)
		resp, err := srv.Client().Post(srv.URL+"/ingest?"+url.Values{"name": {push.name}, "format": {"pprof"}}.Encode(),
			"application/octet-stream", bytes.NewReader(raw))
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		require.Equal(t, http.StatusOK, resp.StatusCode, push.name)
	}
	for _, ex := range exs {
		t.Run(ex.Name, func(t *testing.T) {
			status, body := send(t, srv, &ex)
			require.Equal(t, ex.Status, status, "HTTP status; answer: %s", body)
			compareAnswer(t, &ex, body, profileIDs{})
		})
	}
}
