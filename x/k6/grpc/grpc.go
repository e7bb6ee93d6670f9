// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package k6grpc holds the gRPC server interceptors of
// `github.com/emberscope/emberscope/x/k6`: each call carrying k6 baggage (in
// the incoming metadata key `baggage`) runs with the same pprof labels as
// k6.LabelsFromBaggageHandler gives an HTTP request (k6_test_run_id,
// k6_scenario, k6_name). It is a module of its own so that HTTP-only
// services do not depend on gRPC.
package k6grpc

import (
	"context"

	"github.com/emberscope/emberscope/x/k6"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// baggageKey is the W3C baggage as gRPC metadata (keys are lower case).
const baggageKey = "baggage"

// UnaryServerInterceptor returns a gRPC interceptor that runs each unary call
// carrying k6 baggage with the k6 pprof labels on its goroutine and on the
// handler's context. Labels already on the context are kept. The options are
// those of package k6.
func UnaryServerInterceptor(opts ...k6.Option) grpc.UnaryServerInterceptor {
	l := k6.NewLabeler(opts...)
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		l.Do(ctx, metadata.ValueFromIncomingContext(ctx, baggageKey), func(ctx context.Context) {
			resp, err = handler(ctx, req)
		})
		return resp, err
	}
}

// StreamServerInterceptor returns a gRPC interceptor that runs each streaming
// call carrying k6 baggage with the k6 pprof labels; the stream's Context
// carries them.
func StreamServerInterceptor(opts ...k6.Option) grpc.StreamServerInterceptor {
	l := k6.NewLabeler(opts...)
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
		l.Do(ss.Context(), metadata.ValueFromIncomingContext(ss.Context(), baggageKey), func(ctx context.Context) {
			if ctx == ss.Context() {
				err = handler(srv, ss)
			} else {
				err = handler(srv, &labeledStream{ServerStream: ss, ctx: ctx})
			}
		})
		return err
	}
}

// labeledStream is a server stream whose context carries the k6 labels.
type labeledStream struct {
	grpc.ServerStream
	ctx context.Context
}

// Context returns the labelled context.
func (s *labeledStream) Context() context.Context { return s.ctx }
