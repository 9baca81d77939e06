// Command admin retries a machine's power-off by hand, with River's default retries.
package main

import (
	"context"

	"github.com/riverqueue/river"

	"oncejobs/jobs"
)

func main() {
	var c *river.Client[any]
	_, _ = c.Insert(context.Background(), jobs.PowerArgs{ID: "vm-1"}, nil)
}
