// Package demo runs Emberscope's demo on loopback: the embedded profile
// store, an instrumented ride-share service (routes /car, /bike, /scooter
// doing real CPU and allocation work under pprof labels, wrapped in the k6
// baggage middleware and profiled with the Pyroscope Go SDK), a k6-style
// load generator and the playground.
package demo
