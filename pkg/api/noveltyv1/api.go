// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package noveltyv1 is Emberscope's small connect service beside
// Pyroscope's querier.v1, which has no call for it: the novelty vectors
// the embedded store keeps per profile, for a selection.
//
//	POST /emberscope.novelty.v1.VectorService/SelectVectors
//	Content-Type: application/json
//
// The messages are JSON (a connect codec named "json" over the Go types
// below): there is no protobuf schema to generate from. Each vector is the
// binary form of package novelty (novelty.Vector.AppendBinary), its kept
// features referring to Response.Names by index, base64 in JSON.
package noveltyv1

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"connectrpc.com/connect"
)

// Service and procedure names.
const (
	ServiceName            = "emberscope.novelty.v1.VectorService"
	SelectVectorsProcedure = "/" + ServiceName + "/SelectVectors"
)

// Request selects profiles as querier.v1's SelectSeries does.
type Request struct {
	ProfileTypeID string `json:"profileTypeID"`
	LabelSelector string `json:"labelSelector"`
	// Start and End are unix milliseconds, inclusive.
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// Label is one series label.
type Label struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Profile is one profile's vector.
type Profile struct {
	// Time is unix nanoseconds.
	Time  int64 `json:"time"`
	Total int64 `json:"total"`
	// Sampled marks a profile whose stacks sampling did not keep.
	Sampled bool   `json:"sampled,omitempty"`
	Vector  []byte `json:"vector"`
}

// Series is the profiles of one label set, in time order.
type Series struct {
	Labels   []Label   `json:"labels"`
	Profiles []Profile `json:"profiles"`
}

// Response holds every selected profile's vector.
type Response struct {
	// Names are the keys of the vectors' kept features.
	Names  []string `json:"names"`
	Series []Series `json:"series"`
}

// codec is connect's codec for the JSON messages above.
type codec struct{}

func (codec) Name() string                  { return "json" }
func (codec) Marshal(v any) ([]byte, error) { return json.Marshal(v) }
func (codec) Unmarshal(b []byte, v any) error {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// Handler answers SelectVectors.
type Handler func(context.Context, *Request) (*Response, error)

// NewHandler returns the service's path and handler.
func NewHandler(h Handler) (string, http.Handler) {
	mux := http.NewServeMux()
	mux.Handle(SelectVectorsProcedure, connect.NewUnaryHandler(SelectVectorsProcedure,
		func(ctx context.Context, r *connect.Request[Request]) (*connect.Response[Response], error) {
			res, err := h(ctx, r.Msg)
			if err != nil {
				return nil, err
			}
			return connect.NewResponse(res), nil
		}, connect.WithCodec(codec{})))
	return "/" + ServiceName + "/", mux
}

// Client calls the service.
type Client struct {
	c *connect.Client[Request, Response]
}

// NewClient returns a client of the service at baseURL.
func NewClient(hc connect.HTTPClient, baseURL string) *Client {
	return &Client{c: connect.NewClient[Request, Response](hc, strings.TrimRight(baseURL, "/")+SelectVectorsProcedure,
		connect.WithCodec(codec{}))}
}

// SelectVectors asks for the vectors of a selection. A server without the
// service answers connect.CodeUnimplemented (or NotFound).
func (c *Client) SelectVectors(ctx context.Context, r *Request) (*Response, error) {
	res, err := c.c.CallUnary(ctx, connect.NewRequest(r))
	if err != nil {
		return nil, err
	}
	if res.Msg == nil {
		return nil, fmt.Errorf("vectors: empty answer")
	}
	return res.Msg, nil
}

// Unavailable reports whether err says the server has no such service.
func Unavailable(err error) bool {
	switch connect.CodeOf(err) {
	case connect.CodeUnimplemented, connect.CodeNotFound:
		return true
	}
	return false
}
