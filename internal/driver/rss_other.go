//go:build !unix

package driver

// PeakRSS is 0 where the system gives no peak resident set size to the process itself.
func PeakRSS() uint64 { return 0 }
