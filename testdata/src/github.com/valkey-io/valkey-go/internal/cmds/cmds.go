// Package cmds is a stub of valkey-go's command builders (github.com/valkey-io/valkey-go/internal/cmds):
// valkey.Builder, Completed and Incomplete are aliases of its types, and every command is a
// chain of builder methods that ends in Build. Only the chains the models and tests name are
// declared.
package cmds

// CommandSlice holds a command's words.
type CommandSlice struct {
	s []string
	l int32
	r int32
}

// Builder starts every command: client.B().Incr().Key("k").Build().
type Builder struct {
	ks uint16
}

// Incomplete is a command whose chain has not reached Build.
type Incomplete struct {
	cs *CommandSlice
	cf int16
	ks uint16
}

// Completed is a built command, ready for Client.Do.
type Completed struct {
	cs *CommandSlice
	cf uint16
	ks uint16
}

func build(c Incomplete) Completed { return Completed{cs: c.cs, ks: c.ks} }

func (b Builder) start(words ...string) Incomplete {
	return Incomplete{cs: &CommandSlice{s: words, l: -1}, ks: b.ks}
}
