//go:build unix

package driver

import (
	"runtime"
	"syscall"
)

// PeakRSS is the process's peak resident set size so far, in bytes.
func PeakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss <= 0 {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss) // bytes there, kilobytes elsewhere
	}
	return uint64(ru.Maxrss) << 10
}
