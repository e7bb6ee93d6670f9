// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package playground

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A chunk of an opened file may be as large as Grafana lets a resource
// call's body be, more than the other resource calls' 1 MiB.
func TestUploadTakesGrafanaSizedChunks(t *testing.T) {
	url := start(t, "http://127.0.0.1:1", "")
	var b strings.Builder
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "main;handler;work%d 1\n", i%50)
	}
	body := b.String()
	status, ans := do(t, http.MethodPost, fmt.Sprintf("%s/api/datasources/uid/%s/resources/adhoc/upload?name=big.txt&size=%d", url, DatasourceUID, len(body)), body)
	require.Equal(t, http.StatusOK, status, "%s", ans)
	var up struct {
		Profile struct {
			Samples int `json:"samples"`
		} `json:"profile"`
	}
	require.NoError(t, json.Unmarshal(ans, &up))
	require.Equal(t, strings.Count(body, "\n"), up.Profile.Samples)

	status, _ = do(t, http.MethodPost, fmt.Sprintf("%s/api/datasources/uid/%s/resources/labelNames", url, DatasourceUID), `{"x":"`+strings.Repeat("a", 2<<20)+`"}`)
	require.Equal(t, http.StatusBadRequest, status, "other resource calls keep their 1 MiB bound")
}
