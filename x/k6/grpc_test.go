package k6

import (
	"context"
	"net"
	"runtime/pprof"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
)

// burningHealth is a gRPC health service whose calls burn CPU inside their
// own pprof.Do and answer with the k6_scenario label they see (as the
// service name of a Check, as the status count of a Watch).
type burningHealth struct {
	healthpb.UnimplementedHealthServer
}

func (burningHealth) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	var status healthpb.HealthCheckResponse_ServingStatus
	pprof.Do(ctx, pprof.Labels("rpc", "check"), func(ctx context.Context) {
		burnCPU()
		status = statusFor(ctx)
	})
	return &healthpb.HealthCheckResponse{Status: status}, nil
}

func (burningHealth) Watch(_ *healthpb.HealthCheckRequest, stream grpc.ServerStreamingServer[healthpb.HealthCheckResponse]) error {
	var status healthpb.HealthCheckResponse_ServingStatus
	pprof.Do(stream.Context(), pprof.Labels("rpc", "watch"), func(ctx context.Context) {
		burnCPU()
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

// startGRPC serves burningHealth with the k6 interceptors on a loopback
// listener and returns a client connected to it.
func startGRPC(t *testing.T) healthpb.HealthClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(
		grpc.UnaryInterceptor(UnaryServerInterceptor()),
		grpc.StreamInterceptor(StreamServerInterceptor()),
	)
	healthpb.RegisterHealthServer(srv, burningHealth{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return healthpb.NewHealthClient(conn)
}

const grpcBaggage = "k6.test_run_id=run-g,k6.scenario=checkout,k6.name=https://api.local/pkg.Svc/Get/99"

func TestUnaryInterceptorLabelsCPUSamples(t *testing.T) {
	client := startGRPC(t)
	ctx := metadata.AppendToOutgoingContext(context.Background(), "baggage", grpcBaggage)

	var resp *healthpb.HealthCheckResponse
	var err error
	p := captureCPUProfile(t, func() { resp, err = client.Check(ctx, &healthpb.HealthCheckRequest{}) })
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if resp.Status != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("the handler's context lacks k6_scenario=checkout")
	}
	requireLabels(t, p, map[string]string{
		"k6_test_run_id": "run-g",
		"k6_scenario":    "checkout",
		"k6_name":        "/pkg.Svc/Get/:id",
		"rpc":            "check",
	})
}

func TestStreamInterceptorLabelsCPUSamples(t *testing.T) {
	client := startGRPC(t)
	ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(context.Background(), "baggage", grpcBaggage))
	defer cancel()

	var resp *healthpb.HealthCheckResponse
	var err error
	p := captureCPUProfile(t, func() {
		var stream grpc.ServerStreamingClient[healthpb.HealthCheckResponse]
		if stream, err = client.Watch(ctx, &healthpb.HealthCheckRequest{}); err == nil {
			resp, err = stream.Recv()
		}
	})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	if resp.Status != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("the stream's context lacks k6_scenario=checkout")
	}
	requireLabels(t, p, map[string]string{
		"k6_test_run_id": "run-g",
		"k6_scenario":    "checkout",
		"k6_name":        "/pkg.Svc/Get/:id",
		"rpc":            "watch",
	})
}

func TestGRPCKeepsExistingLabelsAndIgnoresBadBaggage(t *testing.T) {
	client := startGRPC(t)

	// Malformed baggage: the call succeeds, without k6 labels.
	bad := metadata.AppendToOutgoingContext(context.Background(), "baggage", `k6.scenario="checkout",;;=`)
	p := captureCPUProfile(t, func() {
		resp, err := client.Check(bad, &healthpb.HealthCheckRequest{})
		if err != nil {
			t.Errorf("Check with bad baggage: %v", err)
		} else if resp.Status != healthpb.HealthCheckResponse_NOT_SERVING {
			t.Errorf("bad baggage produced a k6_scenario label")
		}
	})
	requireLabels(t, p, map[string]string{"rpc": "check", "k6_scenario": ""})

	// Labels an earlier interceptor put on the context win.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tracing := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		ctx = pprof.WithLabels(ctx, pprof.Labels("span_id", "s1", "k6_scenario", "from-app"))
		pprof.SetGoroutineLabels(ctx)
		return h(ctx, req)
	}
	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(tracing, UnaryServerInterceptor()))
	healthpb.RegisterHealthServer(srv, burningHealth{})
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	good := metadata.AppendToOutgoingContext(context.Background(), "baggage", grpcBaggage)
	p = captureCPUProfile(t, func() {
		if _, err := healthpb.NewHealthClient(conn).Check(good, &healthpb.HealthCheckRequest{}); err != nil {
			t.Errorf("Check: %v", err)
		}
	})
	requireLabels(t, p, map[string]string{
		"span_id":        "s1",
		"k6_scenario":    "from-app",
		"k6_test_run_id": "run-g",
		"rpc":            "check",
	})
}
