// Package retry calls a function until it succeeds. It imports nothing that idemlint models,
// so it is not analysed and has no fact: a callback passed to Do counts where it is made.
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
