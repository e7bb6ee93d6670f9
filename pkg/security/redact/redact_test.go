// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package redact

import (
	"bytes"
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRedact(t *testing.T) {
	require.Equal(t, `Get "https://REDACTED@pyro.example/api": EOF`, String(`Get "https://bob:hunter2@pyro.example/api": EOF`))
	require.Equal(t, "Authorization: Bearer REDACTED", String("Authorization: Bearer abc.def"))
	require.Equal(t, "http://bob:xxxxx@host:4040", URL("http://bob:hunter2@host:4040"))
	require.Equal(t, "http://host:4040", URL("http://host:4040"))
	var buf bytes.Buffer
	l := slog.New(Handler(slog.NewTextHandler(&buf, nil)))
	l.Error("cannot reach http://a:b@h", "err", errors.New("dial http://a:b@h: refused"), "url", "http://a:b@h")
	require.NotContains(t, buf.String(), "a:b@")
}
