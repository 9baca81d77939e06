// Package jobs defines a River job whose args type sets its own MaxAttempts: the default of // want package:"has effects" package:`retries river:atmostonce/jobs.ProvisionArgs=1\(args\)`
// every insert that sets none.
package jobs

import "github.com/riverqueue/river"

// ProvisionArgs provisions a machine.
type ProvisionArgs struct{ ID string }

func (ProvisionArgs) Kind() string { return "provision" }

// InsertOpts makes every insert of the job a single attempt.
func (ProvisionArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 1} }
