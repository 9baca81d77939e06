//go:build linux || darwin || freebsd || windows

package deadbranches

// sampled says whether this platform samples runs: not this one; another build's may.
func sampled() bool { return false }
