// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package settings

import (
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/stretchr/testify/require"
)

func TestMaxQueryLengthSetting(t *testing.T) {
	load := func(js string) (*Settings, error) {
		return Load(backend.DataSourceInstanceSettings{URL: "http://pyro:4040", JSONData: []byte(js)})
	}
	for js, want := range map[string]time.Duration{
		`{}`:                            0,
		`{"maxQueryLength":""}`:         0,
		`{"maxQueryLength":"1d"}`:       24 * time.Hour,
		`{"maxQueryLength":"1d12h"}`:    36 * time.Hour,
		`{"maxQueryLength":" 24h0m0s"}`: 24 * time.Hour,
		`{"maxQueryLength":"90m"}`:      90 * time.Minute,
	} {
		s, err := load(js)
		require.NoError(t, err, js)
		require.Equal(t, want, s.MaxQueryLength, js)
	}
	for _, js := range []string{`{"maxQueryLength":"a day"}`, `{"maxQueryLength":"-1h"}`, `{"maxQueryLength":"0s"}`} {
		_, err := load(js)
		require.ErrorContains(t, err, "settings: jsonData.maxQueryLength: ", js)
	}
}
