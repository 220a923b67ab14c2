//go:build race

package fmath_test

// accuracyStep is the bit spacing of TestAccuracy's inputs: under the race detector, which
// slows the CPU accelerator's run tenfold, a quarter as many.
const accuracyStep = 16381
