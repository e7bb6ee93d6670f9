package plugin

import (
	"context"

	"github.com/grafana/grafana-plugin-sdk-go/data"

	"github.com/emberscope/emberscope/pkg/frames"
)

// queryProfile answers a "profile" query with one flamegraph frame.
func (d *Datasource) queryProfile(ctx context.Context, r *request) (data.Frames, error) {
	t, err := d.tree(ctx, r)
	if err != nil {
		return nil, err
	}
	return data.Frames{frames.Flamegraph(t, frames.UnitOfProfileType(r.Query.ProfileTypeID))}, nil
}
