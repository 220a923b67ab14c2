//go:build !race

package fmath_test

// accuracyStep is the bit spacing of TestAccuracy's inputs: every 4093rd float32.
const accuracyStep = 4093
