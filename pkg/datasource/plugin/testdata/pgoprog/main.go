// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Command pgoprog is a small real program for the Go PGO resource's test:
// checksum calls mix in a hot loop, and mix is too big for the compiler to
// inline without a profile saying the call is hot. With -cpuprofile it
// records its own CPU profile (pgoprog.cpu.pb.gz was recorded so).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

// mix scrambles x; its loop and branches keep it over the inlining budget.
func mix(x uint64) uint64 {
	for i := 0; i < 4; i++ {
		x ^= x >> 33
		x *= 0xff51afd7ed558ccd
		if x&1 == 0 {
			x ^= x >> 29
			x *= 0xc4ceb9fe1a85ec53
		} else {
			x ^= x << 17
			x += 0x9e3779b97f4a7c15
		}
		switch x % 3 {
		case 0:
			x = x>>7 | x<<57
		case 1:
			x = x>>13 | x<<51
		default:
			x = x>>19 | x<<45
		}
	}
	return x ^ x>>31
}

// checksum mixes n numbers.
func checksum(n int) uint64 {
	var sum uint64
	for i := 0; i < n; i++ {
		sum += mix(uint64(i))
	}
	return sum
}

func main() {
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	n := flag.Int("n", 1000, "how many numbers to mix")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Println(checksum(*n))
}
