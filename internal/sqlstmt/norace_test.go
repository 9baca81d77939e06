//go:build !race

package sqlstmt

// raceEnabled lets allocation tests skip under the race detector, which allocates.
const raceEnabled = false
