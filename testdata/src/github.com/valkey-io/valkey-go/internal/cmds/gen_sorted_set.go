package cmds

type Zincrby Incomplete

func (b Builder) Zincrby() (c Zincrby) { return Zincrby(b.start("ZINCRBY")) }
