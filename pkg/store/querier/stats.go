package querier

import (
	"context"

	"connectrpc.com/connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
)

// GetProfileStats tells whether any profile was stored and the times (unix
// milliseconds) of the oldest and newest.
func (q *Querier) GetProfileStats(ctx context.Context, req *connect.Request[typesv1.GetProfileStatsRequest]) (*connect.Response[typesv1.GetProfileStatsResponse], error) {
	oldest, newest, ok := q.db.TimeBounds()
	if !ok {
		return connect.NewResponse(&typesv1.GetProfileStatsResponse{}), nil
	}
	return connect.NewResponse(&typesv1.GetProfileStatsResponse{
		DataIngested:      true,
		OldestProfileTime: oldest / 1e6,
		NewestProfileTime: newest / 1e6,
	}), nil
}
