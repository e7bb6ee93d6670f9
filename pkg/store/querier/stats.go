// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package querier

import (
	"context"

	"connectrpc.com/connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
)

// GetProfileStats answers an empty message, as Pyroscope v2 does
// (recording 31): it keeps no such statistics.
func (q *Querier) GetProfileStats(ctx context.Context, req *connect.Request[typesv1.GetProfileStatsRequest]) (*connect.Response[typesv1.GetProfileStatsResponse], error) {
	return connect.NewResponse(&typesv1.GetProfileStatsResponse{}), nil
}
