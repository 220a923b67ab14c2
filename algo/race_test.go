//go:build race

package algo

import (
	"os"

	"github.com/goamp/goamp/runtime"
)

// raceThreads says the CPU accelerator runs tiled kernels per thread in this race build.
var raceThreads = os.Getenv(runtime.EnvRaceFastBodies) != "1"
