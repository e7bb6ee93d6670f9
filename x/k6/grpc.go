package k6

import (
	"context"
	"runtime/pprof"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// UnaryServerInterceptor returns a gRPC interceptor that runs each unary call
// carrying k6 baggage (incoming metadata "baggage") with the same pprof
// labels as [LabelsFromBaggageHandler]. The handler's context carries them.
func UnaryServerInterceptor(opts ...Option) grpc.UnaryServerInterceptor {
	c := newConfig(opts)
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		pairs := c.labelPairs(ctx, metadata.ValueFromIncomingContext(ctx, baggageHeader))
		if len(pairs) == 0 {
			return handler(ctx, req)
		}
		pprof.Do(ctx, pprof.Labels(pairs...), func(ctx context.Context) {
			resp, err = handler(ctx, req)
		})
		return resp, err
	}
}

// StreamServerInterceptor returns a gRPC interceptor that runs each streaming
// call carrying k6 baggage with the same pprof labels as
// [LabelsFromBaggageHandler]; the stream's Context carries them.
func StreamServerInterceptor(opts ...Option) grpc.StreamServerInterceptor {
	c := newConfig(opts)
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
		pairs := c.labelPairs(ss.Context(), metadata.ValueFromIncomingContext(ss.Context(), baggageHeader))
		if len(pairs) == 0 {
			return handler(srv, ss)
		}
		pprof.Do(ss.Context(), pprof.Labels(pairs...), func(ctx context.Context) {
			err = handler(srv, &labeledStream{ServerStream: ss, ctx: ctx})
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
