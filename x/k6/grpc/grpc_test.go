// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6grpc

import (
	"context"
	"net"
	"runtime/pprof"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"

	"github.com/emberscope/emberscope/x/k6/internal/goroutinelabels"
)

// labelHealth is a gRPC health service whose calls, inside their own
// pprof.Do, record the labels the runtime holds for their goroutine (what a
// CPU profile would attribute their samples to) and answer SERVING when their
// context carries k6_scenario=checkout.
type labelHealth struct {
	healthpb.UnimplementedHealthServer
	labels chan map[string]string
}

func newLabelHealth() *labelHealth { return &labelHealth{labels: make(chan map[string]string, 1)} }

// record sends the calling goroutine's labels to the test.
func (h *labelHealth) record() {
	labels, err := goroutinelabels.Current()
	if err != nil {
		labels = map[string]string{"error": err.Error()}
	}
	h.labels <- labels
}

// requireLabels fails unless the last call's goroutine carried exactly the
// wanted label values (a value of "" means the label must be absent).
func (h *labelHealth) requireLabels(t *testing.T, want map[string]string) {
	t.Helper()
	var got map[string]string
	select {
	case got = <-h.labels:
	default:
		t.Fatal("the call recorded no labels")
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("the call's goroutine has label %s=%q, want %q (all labels: %v)", k, got[k], v, got)
		}
	}
}

func (h *labelHealth) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	var status healthpb.HealthCheckResponse_ServingStatus
	pprof.Do(ctx, pprof.Labels("rpc", "check"), func(ctx context.Context) {
		h.record()
		status = statusFor(ctx)
	})
	return &healthpb.HealthCheckResponse{Status: status}, nil
}

func (h *labelHealth) Watch(_ *healthpb.HealthCheckRequest, stream grpc.ServerStreamingServer[healthpb.HealthCheckResponse]) error {
	var status healthpb.HealthCheckResponse_ServingStatus
	pprof.Do(stream.Context(), pprof.Labels("rpc", "watch"), func(ctx context.Context) {
		h.record()
		status = statusFor(ctx)
	})
	return stream.Send(&healthpb.HealthCheckResponse{Status: status})
}

// statusFor encodes whether the context carries k6_scenario=checkout, so the
// client can tell what the server saw.
func statusFor(ctx context.Context) healthpb.HealthCheckResponse_ServingStatus {
	if v, _ := pprof.Label(ctx, "k6_scenario"); v == "checkout" {
		return healthpb.HealthCheckResponse_SERVING
	}
	return healthpb.HealthCheckResponse_NOT_SERVING
}

// serve serves h with the given interceptors on a loopback listener and
// returns a client connected to it.
func serve(t *testing.T, h *labelHealth, opts ...grpc.ServerOption) healthpb.HealthClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(opts...)
	healthpb.RegisterHealthServer(srv, h)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return healthpb.NewHealthClient(conn)
}

// startGRPC serves h with the k6 interceptors.
func startGRPC(t *testing.T, h *labelHealth) healthpb.HealthClient {
	return serve(t, h,
		grpc.UnaryInterceptor(UnaryServerInterceptor()),
		grpc.StreamInterceptor(StreamServerInterceptor()),
	)
}

const grpcBaggage = "k6.test_run_id=run-g,k6.scenario=checkout,k6.name=https://api.local/pkg.Svc/Get/99"

func TestUnaryInterceptorLabelsTheCall(t *testing.T) {
	h := newLabelHealth()
	client := startGRPC(t, h)
	ctx := metadata.AppendToOutgoingContext(context.Background(), "baggage", grpcBaggage)

	resp, err := client.Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if resp.Status != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("the handler's context lacks k6_scenario=checkout")
	}
	h.requireLabels(t, map[string]string{
		"k6_test_run_id": "run-g",
		"k6_scenario":    "checkout",
		"k6_name":        "/pkg.Svc/Get/:id",
		"rpc":            "check",
	})
}

func TestStreamInterceptorLabelsTheCall(t *testing.T) {
	h := newLabelHealth()
	client := startGRPC(t, h)
	ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(context.Background(), "baggage", grpcBaggage))
	defer cancel()

	stream, err := client.Watch(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	resp, err := stream.Recv()
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	if resp.Status != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("the stream's context lacks k6_scenario=checkout")
	}
	h.requireLabels(t, map[string]string{
		"k6_test_run_id": "run-g",
		"k6_scenario":    "checkout",
		"k6_name":        "/pkg.Svc/Get/:id",
		"rpc":            "watch",
	})
}

func TestGRPCKeepsExistingLabelsAndIgnoresBadBaggage(t *testing.T) {
	h := newLabelHealth()
	client := startGRPC(t, h)

	// Malformed baggage: the call succeeds, without k6 labels.
	bad := metadata.AppendToOutgoingContext(context.Background(), "baggage", `k6.scenario="checkout",;;=`)
	resp, err := client.Check(bad, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatalf("Check with bad baggage: %v", err)
	}
	if resp.Status != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Errorf("bad baggage produced a k6_scenario label")
	}
	h.requireLabels(t, map[string]string{"rpc": "check", "k6_scenario": ""})

	// Labels an earlier interceptor put on the context win.
	tracing := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		ctx = pprof.WithLabels(ctx, pprof.Labels("span_id", "s1", "k6_scenario", "from-app"))
		pprof.SetGoroutineLabels(ctx)
		return next(ctx, req)
	}
	traced := serve(t, h, grpc.ChainUnaryInterceptor(tracing, UnaryServerInterceptor()))
	good := metadata.AppendToOutgoingContext(context.Background(), "baggage", grpcBaggage)
	if _, err := traced.Check(good, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatalf("Check: %v", err)
	}
	h.requireLabels(t, map[string]string{
		"span_id":        "s1",
		"k6_scenario":    "from-app",
		"k6_test_run_id": "run-g",
		"rpc":            "check",
	})
}
