//go:build !race

package algo

// raceOn says the tests run with the race detector (go test -race).
const raceOn = false
