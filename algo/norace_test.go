//go:build !race

package algo

// raceThreads says the CPU accelerator runs tiled kernels per thread (race builds only).
const raceThreads = false
