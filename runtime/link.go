package runtime

import "github.com/goamp/goamp/internal/rtlink"

// goamp's packages above runtime (the algorithm library, the tests) reach the dispatcher's
// helpers that programs do not call through internal/rtlink.
func init() {
	rtlink.Set(rtlink.Link[Block]{
		ChooseView:      chooseHomes,
		Blocks:          splitBlocks,
		RunBlocks:       runBlocks,
		Throughput:      throughput,
		ResetThroughput: resetThroughput,
		PerThread:       func(k any) any { return perThreadKernel{Kernel: k} },
	})
}
