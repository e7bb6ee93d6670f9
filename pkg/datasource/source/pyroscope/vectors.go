// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"fmt"
	"time"

	"github.com/emberscope/emberscope/pkg/api/noveltyv1"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/novelty"
)

var _ source.VectorSource = (*Client)(nil)

// Vectors asks Emberscope's vectors service (which only the embedded store
// serves) for the novelty vector of every profile of s; a server without
// it (Pyroscope itself) gives source.ErrNoVectors.
func (c *Client) Vectors(ctx context.Context, s source.Selection) ([]source.ProfileVector, error) {
	start, end := rangeMillis(s.Range)
	res, err := c.vectors.SelectVectors(ctx, &noveltyv1.Request{ProfileTypeID: s.ProfileTypeID, LabelSelector: s.LabelSelector, Start: start, End: end})
	if err != nil {
		if noveltyv1.Unavailable(err) {
			return nil, fmt.Errorf("%w: %s", source.ErrNoVectors, c.url)
		}
		return nil, c.wrap("select vectors", err)
	}
	name := func(ref uint64) (string, error) {
		if ref >= uint64(len(res.Names)) {
			return "", fmt.Errorf("name %d of %d", ref, len(res.Names))
		}
		return res.Names[ref], nil
	}
	var out []source.ProfileVector
	for _, se := range res.Series {
		ls := make(model.Labels, len(se.Labels))
		for i, l := range se.Labels {
			ls[i] = model.Label{Name: l.Name, Value: l.Value}
		}
		for _, p := range se.Profiles {
			v, err := novelty.Decode(p.Vector, name)
			if err != nil {
				return nil, c.wrap("select vectors", fmt.Errorf("profile at %d of %v: %w", p.Time, ls, err))
			}
			out = append(out, source.ProfileVector{Labels: ls, Time: time.Unix(0, p.Time).UTC(), Total: p.Total, Sampled: p.Sampled, Vector: v})
		}
	}
	return out, nil
}
