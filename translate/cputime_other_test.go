//go:build !unix

package translate_test

import "time"

// cpuTime returns 0: the process's CPU time is read on Unix systems only.
func cpuTime() time.Duration { return 0 }
