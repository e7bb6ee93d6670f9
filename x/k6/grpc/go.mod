module github.com/emberscope/emberscope/x/k6/grpc

go 1.25.0

require (
	github.com/emberscope/emberscope/x/k6 v0.0.0
	google.golang.org/grpc v1.84.0
)

require (
	go.opentelemetry.io/otel v1.46.0 // indirect
	golang.org/x/net v0.57.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.40.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260706201446-f0a921348800 // indirect
	google.golang.org/protobuf v1.36.11 // indirect
)

// Development inside the Emberscope repository: build against the x/k6 beside
// this folder. Users of a tagged version get x/k6 from the module proxy.
replace github.com/emberscope/emberscope/x/k6 => ../
