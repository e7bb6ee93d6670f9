// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package attack_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/emberscope/emberscope/internal/fixtures"
)

// TestCrashLosesNothing runs four pushers against the store and kills it
// with SIGKILL at random moments, restarting it each time: every push the
// store answered 200 must be there afterwards. 3 kills by default, 20 with
// EMBERSCOPE_FULL=1.
func TestCrashLosesNothing(t *testing.T) {
	kills := 3
	if fixtures.Full() {
		kills = 20
	}
	const pushers = 4
	p := start(t, t.TempDir())
	var acked [pushers]atomic.Int64
	var mu sync.RWMutex // held for writing while the store restarts
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < pushers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				// Distinct times: each push is its own profile of value 1.
				raw := encode(t, cpuProfile(time.Now().Add(time.Duration(n)*time.Microsecond), [][]string{{"main", fmt.Sprintf("pusher%d", i)}}, []int64{1}))
				mu.RLock()
				err := p.push(context.Background(), raw, "service_name", fmt.Sprintf("pusher%d", i))
				mu.RUnlock()
				if err == nil {
					acked[i].Add(1)
				}
			}
		}()
	}
	for k := 0; k < kills; k++ {
		time.Sleep(time.Duration(50+rand.IntN(250)) * time.Millisecond)
		p.kill() // in the middle of whatever the pushers were doing
		mu.Lock()
		p.run()
		mu.Unlock()
	}
	time.Sleep(100 * time.Millisecond)
	close(stop)
	wg.Wait()
	p.restart()
	var lost, total int64
	for i := 0; i < pushers; i++ {
		stored := p.total(fmt.Sprintf(`{service_name="pusher%d"}`, i))
		total += acked[i].Load()
		if d := acked[i].Load() - stored; d > 0 {
			lost += d
		}
	}
	t.Logf("%d kills, %d pushes acknowledged, %d lost", kills, total, lost)
	fmt.Printf("crash test: %d kills, %d pushes acknowledged, lost %d\n", kills, total, lost)
	require.Positive(t, total)
	require.Zero(t, lost)
}
