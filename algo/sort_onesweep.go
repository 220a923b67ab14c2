package algo

import "github.com/goamp/goamp/accelerator"

// onesweepOn reports whether a 4-pass radix sort of n keys on av takes the OneSweep path.
func onesweepOn(av *accelerator.View, n, algo int) bool { return false }

// onesweepCapable reports whether av's device has what OneSweep's program needs.
func onesweepCapable(av *accelerator.View) bool { return false }

// onesweepRun runs job with OneSweep.
func onesweepRun[T, V Number](av *accelerator.View, job radixJob[T, V]) error { return nil }
