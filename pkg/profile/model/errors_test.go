// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package model

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestErrorKindThroughWrapping(t *testing.T) {
	cause := errors.New("connection refused")
	err := fmt.Errorf("query A: %w", &Error{Kind: KindUnreachable, Msg: "cannot reach profile server at http://x: connection refused", Err: cause})
	require.Equal(t, KindUnreachable, KindOf(err))
	require.ErrorIs(t, err, cause)
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, http.StatusBadGateway, e.HTTPStatus())
	require.Equal(t, ErrorKind(0), KindOf(errors.New("plain")))
	for k, status := range map[ErrorKind]int{KindTimeout: 504, KindAuth: 401, KindBadRequest: 400, KindNotFound: 404, KindUnimplemented: 501, KindServer: 502} {
		require.Equal(t, status, k.HTTPStatus(), k.String())
	}
}
