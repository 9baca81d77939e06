// Package retry calls a function until it succeeds. It imports nothing that idemlint models,
// and is analysed as a package of the module all the same: its fact says Do calls f.
package retry

// Do calls f up to n times.
func Do(n int, f func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}
