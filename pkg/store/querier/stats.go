package querier

import (
	"context"

	"connectrpc.com/connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/store/tenant"
)

// GetProfileStats tells whether any profile was stored and the times (unix
// milliseconds) of the oldest and newest.
func (q *Querier) GetProfileStats(ctx context.Context, req *connect.Request[typesv1.GetProfileStatsRequest]) (*connect.Response[typesv1.GetProfileStatsResponse], error) {
	oldest, newest, ok := q.db.TimeBoundsOf(q.db.Select([]*labels.Matcher{tenant.Matcher(ctx)}, -1<<63, 1<<63-1))
	if !ok {
		return connect.NewResponse(&typesv1.GetProfileStatsResponse{}), nil
	}
	return connect.NewResponse(&typesv1.GetProfileStatsResponse{
		DataIngested:      true,
		OldestProfileTime: oldest / 1e6,
		NewestProfileTime: newest / 1e6,
	}), nil
}
