//go:build !race

package runtime

// raceBuild reports a build with the race detector (go test -race).
const raceBuild = false
