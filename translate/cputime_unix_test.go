//go:build unix

package translate_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used so far, user and system, all threads
// (lavapipe's included), or 0 where it cannot tell.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
