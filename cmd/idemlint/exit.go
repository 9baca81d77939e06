package main

// Exit statuses. They are part of the command's interface: CI scripts test them.
const (
	exitClean    = 0
	exitError    = 1 // packages failed to load or analyse, or output could not be written
	exitUsage    = 2 // bad usage or configuration
	exitFindings = 3
)
