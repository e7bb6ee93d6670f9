// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"fmt"

	"connectrpc.com/connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// LabelNames lists the label names of the series matching r.
func (c *Client) LabelNames(ctx context.Context, r source.LabelsRequest) ([]string, error) {
	start, end := rangeMillis(r.Range)
	resp, err := c.querier.LabelNames(ctx, connect.NewRequest(&typesv1.LabelNamesRequest{
		Matchers: r.Matchers, Start: start, End: end,
	}))
	if err != nil {
		return nil, c.wrap("list label names", err)
	}
	return nonNil(resp.Msg.Names), nil
}

// LabelValues lists the values of label name among the series matching r.
func (c *Client) LabelValues(ctx context.Context, name string, r source.LabelsRequest) ([]string, error) {
	start, end := rangeMillis(r.Range)
	resp, err := c.querier.LabelValues(ctx, connect.NewRequest(&typesv1.LabelValuesRequest{
		Name: name, Matchers: r.Matchers, Start: start, End: end,
	}))
	if err != nil {
		return nil, c.wrap(fmt.Sprintf("list values of label %q", name), err)
	}
	return nonNil(resp.Msg.Names), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
