// Command gen records the CPU profiles of internal/testdata/stackrepair with
// runtime/pprof: a chain of distinct functions, stage000 calling stage001
// and so on, doing work at several depths, so that Go's profiler cuts the
// deep stacks at 64 frames. Run once: go run ./internal/testdata/stackrepair (about 3 s of CPU per
// profile); the profiles are checked in.
package main

import (
	"crypto/sha256"
	"os"
	"runtime/pprof"
	"time"
)

var sink [32]byte

//go:noinline
func work(d time.Duration) {
	buf := make([]byte, 4096)
	for start := time.Now(); time.Since(start) < d; {
		sink = sha256.Sum256(buf)
		buf[0] = sink[0]
	}
}

// plan says at which depths work runs and for how long at each.
type plan struct {
	depth int
	d     time.Duration
}

func record(file string, plans []plan) {
	f, err := os.Create(file)
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	for round := 0; round < 10; round++ {
		for _, p := range plans {
			stage000(0, p.depth, p.d/10)
		}
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		panic(err)
	}
}

func main() {
	// Work at 20 frames (complete stacks), at 45 and 58 (complete, long
	// enough to lend their root frames) and at 75, 100 and 130 (cut).
	record("chain-a.cpu.pb.gz", []plan{{20, 300 * time.Millisecond}, {45, 500 * time.Millisecond}, {58, 500 * time.Millisecond},
		{75, 600 * time.Millisecond}, {100, 600 * time.Millisecond}, {130, 500 * time.Millisecond}})
	// Only deep work: most stacks are cut, few complete ones to borrow from.
	record("chain-b.cpu.pb.gz", []plan{{50, 400 * time.Millisecond}, {66, 800 * time.Millisecond}, {90, 800 * time.Millisecond},
		{120, 800 * time.Millisecond}})
}

//go:noinline
func stage000(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage001(depth+1, target, d)
}

//go:noinline
func stage001(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage002(depth+1, target, d)
}

//go:noinline
func stage002(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage003(depth+1, target, d)
}

//go:noinline
func stage003(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage004(depth+1, target, d)
}

//go:noinline
func stage004(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage005(depth+1, target, d)
}

//go:noinline
func stage005(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage006(depth+1, target, d)
}

//go:noinline
func stage006(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage007(depth+1, target, d)
}

//go:noinline
func stage007(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage008(depth+1, target, d)
}

//go:noinline
func stage008(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage009(depth+1, target, d)
}

//go:noinline
func stage009(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage010(depth+1, target, d)
}

//go:noinline
func stage010(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage011(depth+1, target, d)
}

//go:noinline
func stage011(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage012(depth+1, target, d)
}

//go:noinline
func stage012(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage013(depth+1, target, d)
}

//go:noinline
func stage013(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage014(depth+1, target, d)
}

//go:noinline
func stage014(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage015(depth+1, target, d)
}

//go:noinline
func stage015(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage016(depth+1, target, d)
}

//go:noinline
func stage016(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage017(depth+1, target, d)
}

//go:noinline
func stage017(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage018(depth+1, target, d)
}

//go:noinline
func stage018(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage019(depth+1, target, d)
}

//go:noinline
func stage019(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage020(depth+1, target, d)
}

//go:noinline
func stage020(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage021(depth+1, target, d)
}

//go:noinline
func stage021(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage022(depth+1, target, d)
}

//go:noinline
func stage022(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage023(depth+1, target, d)
}

//go:noinline
func stage023(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage024(depth+1, target, d)
}

//go:noinline
func stage024(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage025(depth+1, target, d)
}

//go:noinline
func stage025(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage026(depth+1, target, d)
}

//go:noinline
func stage026(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage027(depth+1, target, d)
}

//go:noinline
func stage027(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage028(depth+1, target, d)
}

//go:noinline
func stage028(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage029(depth+1, target, d)
}

//go:noinline
func stage029(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage030(depth+1, target, d)
}

//go:noinline
func stage030(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage031(depth+1, target, d)
}

//go:noinline
func stage031(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage032(depth+1, target, d)
}

//go:noinline
func stage032(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage033(depth+1, target, d)
}

//go:noinline
func stage033(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage034(depth+1, target, d)
}

//go:noinline
func stage034(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage035(depth+1, target, d)
}

//go:noinline
func stage035(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage036(depth+1, target, d)
}

//go:noinline
func stage036(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage037(depth+1, target, d)
}

//go:noinline
func stage037(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage038(depth+1, target, d)
}

//go:noinline
func stage038(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage039(depth+1, target, d)
}

//go:noinline
func stage039(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage040(depth+1, target, d)
}

//go:noinline
func stage040(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage041(depth+1, target, d)
}

//go:noinline
func stage041(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage042(depth+1, target, d)
}

//go:noinline
func stage042(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage043(depth+1, target, d)
}

//go:noinline
func stage043(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage044(depth+1, target, d)
}

//go:noinline
func stage044(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage045(depth+1, target, d)
}

//go:noinline
func stage045(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage046(depth+1, target, d)
}

//go:noinline
func stage046(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage047(depth+1, target, d)
}

//go:noinline
func stage047(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage048(depth+1, target, d)
}

//go:noinline
func stage048(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage049(depth+1, target, d)
}

//go:noinline
func stage049(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage050(depth+1, target, d)
}

//go:noinline
func stage050(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage051(depth+1, target, d)
}

//go:noinline
func stage051(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage052(depth+1, target, d)
}

//go:noinline
func stage052(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage053(depth+1, target, d)
}

//go:noinline
func stage053(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage054(depth+1, target, d)
}

//go:noinline
func stage054(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage055(depth+1, target, d)
}

//go:noinline
func stage055(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage056(depth+1, target, d)
}

//go:noinline
func stage056(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage057(depth+1, target, d)
}

//go:noinline
func stage057(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage058(depth+1, target, d)
}

//go:noinline
func stage058(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage059(depth+1, target, d)
}

//go:noinline
func stage059(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage060(depth+1, target, d)
}

//go:noinline
func stage060(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage061(depth+1, target, d)
}

//go:noinline
func stage061(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage062(depth+1, target, d)
}

//go:noinline
func stage062(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage063(depth+1, target, d)
}

//go:noinline
func stage063(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage064(depth+1, target, d)
}

//go:noinline
func stage064(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage065(depth+1, target, d)
}

//go:noinline
func stage065(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage066(depth+1, target, d)
}

//go:noinline
func stage066(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage067(depth+1, target, d)
}

//go:noinline
func stage067(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage068(depth+1, target, d)
}

//go:noinline
func stage068(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage069(depth+1, target, d)
}

//go:noinline
func stage069(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage070(depth+1, target, d)
}

//go:noinline
func stage070(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage071(depth+1, target, d)
}

//go:noinline
func stage071(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage072(depth+1, target, d)
}

//go:noinline
func stage072(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage073(depth+1, target, d)
}

//go:noinline
func stage073(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage074(depth+1, target, d)
}

//go:noinline
func stage074(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage075(depth+1, target, d)
}

//go:noinline
func stage075(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage076(depth+1, target, d)
}

//go:noinline
func stage076(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage077(depth+1, target, d)
}

//go:noinline
func stage077(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage078(depth+1, target, d)
}

//go:noinline
func stage078(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage079(depth+1, target, d)
}

//go:noinline
func stage079(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage080(depth+1, target, d)
}

//go:noinline
func stage080(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage081(depth+1, target, d)
}

//go:noinline
func stage081(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage082(depth+1, target, d)
}

//go:noinline
func stage082(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage083(depth+1, target, d)
}

//go:noinline
func stage083(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage084(depth+1, target, d)
}

//go:noinline
func stage084(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage085(depth+1, target, d)
}

//go:noinline
func stage085(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage086(depth+1, target, d)
}

//go:noinline
func stage086(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage087(depth+1, target, d)
}

//go:noinline
func stage087(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage088(depth+1, target, d)
}

//go:noinline
func stage088(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage089(depth+1, target, d)
}

//go:noinline
func stage089(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage090(depth+1, target, d)
}

//go:noinline
func stage090(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage091(depth+1, target, d)
}

//go:noinline
func stage091(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage092(depth+1, target, d)
}

//go:noinline
func stage092(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage093(depth+1, target, d)
}

//go:noinline
func stage093(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage094(depth+1, target, d)
}

//go:noinline
func stage094(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage095(depth+1, target, d)
}

//go:noinline
func stage095(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage096(depth+1, target, d)
}

//go:noinline
func stage096(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage097(depth+1, target, d)
}

//go:noinline
func stage097(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage098(depth+1, target, d)
}

//go:noinline
func stage098(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage099(depth+1, target, d)
}

//go:noinline
func stage099(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage100(depth+1, target, d)
}

//go:noinline
func stage100(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage101(depth+1, target, d)
}

//go:noinline
func stage101(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage102(depth+1, target, d)
}

//go:noinline
func stage102(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage103(depth+1, target, d)
}

//go:noinline
func stage103(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage104(depth+1, target, d)
}

//go:noinline
func stage104(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage105(depth+1, target, d)
}

//go:noinline
func stage105(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage106(depth+1, target, d)
}

//go:noinline
func stage106(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage107(depth+1, target, d)
}

//go:noinline
func stage107(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage108(depth+1, target, d)
}

//go:noinline
func stage108(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage109(depth+1, target, d)
}

//go:noinline
func stage109(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage110(depth+1, target, d)
}

//go:noinline
func stage110(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage111(depth+1, target, d)
}

//go:noinline
func stage111(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage112(depth+1, target, d)
}

//go:noinline
func stage112(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage113(depth+1, target, d)
}

//go:noinline
func stage113(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage114(depth+1, target, d)
}

//go:noinline
func stage114(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage115(depth+1, target, d)
}

//go:noinline
func stage115(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage116(depth+1, target, d)
}

//go:noinline
func stage116(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage117(depth+1, target, d)
}

//go:noinline
func stage117(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage118(depth+1, target, d)
}

//go:noinline
func stage118(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage119(depth+1, target, d)
}

//go:noinline
func stage119(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage120(depth+1, target, d)
}

//go:noinline
func stage120(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage121(depth+1, target, d)
}

//go:noinline
func stage121(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage122(depth+1, target, d)
}

//go:noinline
func stage122(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage123(depth+1, target, d)
}

//go:noinline
func stage123(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage124(depth+1, target, d)
}

//go:noinline
func stage124(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage125(depth+1, target, d)
}

//go:noinline
func stage125(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage126(depth+1, target, d)
}

//go:noinline
func stage126(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage127(depth+1, target, d)
}

//go:noinline
func stage127(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage128(depth+1, target, d)
}

//go:noinline
func stage128(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage129(depth+1, target, d)
}

//go:noinline
func stage129(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage130(depth+1, target, d)
}

//go:noinline
func stage130(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage131(depth+1, target, d)
}

//go:noinline
func stage131(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage132(depth+1, target, d)
}

//go:noinline
func stage132(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage133(depth+1, target, d)
}

//go:noinline
func stage133(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage134(depth+1, target, d)
}

//go:noinline
func stage134(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage135(depth+1, target, d)
}

//go:noinline
func stage135(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage136(depth+1, target, d)
}

//go:noinline
func stage136(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage137(depth+1, target, d)
}

//go:noinline
func stage137(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage138(depth+1, target, d)
}

//go:noinline
func stage138(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	stage139(depth+1, target, d)
}

//go:noinline
func stage139(depth, target int, d time.Duration) {
	if depth >= target {
		work(d)
		return
	}
	work(d)
}
