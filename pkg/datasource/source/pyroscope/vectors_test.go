// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend/httpclient"
	"github.com/stretchr/testify/require"

	noveltydata "github.com/emberscope/emberscope/internal/fixtures/noveltydata"
	"github.com/emberscope/emberscope/pkg/datasource/plugin/plugintest"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/pyroscope"
)

func TestVectorsFromTheStore(t *testing.T) {
	url := plugintest.Store(t)
	at := time.Now().Add(-time.Minute).Truncate(time.Millisecond)
	plugintest.Ingest(t, url, `batch{}`, noveltydata.At(t, noveltydata.Stable(t, "logindex", 1)[0], at))
	c, err := pyroscope.New(url, httpclient.Options{})
	require.NoError(t, err)
	vs, err := c.Vectors(context.Background(), source.Selection{ProfileTypeID: cpuType, LabelSelector: `{service_name="batch"}`,
		Range: source.TimeRange{From: at.Add(-time.Minute), To: at.Add(time.Minute)}})
	require.NoError(t, err)
	require.Len(t, vs, 1, "logindex has no sample labels: one series, one profile")
	require.True(t, vs[0].Time.Equal(at))
	require.Positive(t, vs[0].Total)
	require.Greater(t, vs[0].Vector.Share("compress/flate.(*compressor).findMatch"), 0.3, "the batch job's hottest function, by name")
}

func TestVectorsFromAServerWithoutThem(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler()) // as Pyroscope answers an unknown service
	defer srv.Close()
	c, err := pyroscope.New(srv.URL, httpclient.Options{})
	require.NoError(t, err)
	_, err = c.Vectors(context.Background(), source.Selection{ProfileTypeID: cpuType, Range: source.TimeRange{From: time.Now().Add(-time.Hour), To: time.Now()}})
	require.True(t, errors.Is(err, source.ErrNoVectors), "%v", err)
}
