package cmds

type Incr Incomplete

func (b Builder) Incr() (c Incr) { return Incr(b.start("INCR")) }

func (c Incr) Key(key string) IncrKey { c.cs.s = append(c.cs.s, key); return IncrKey(c) }

type IncrKey Incomplete

func (c IncrKey) Build() Completed { return build(Incomplete(c)) }

type Incrby Incomplete

func (b Builder) Incrby() (c Incrby) { return Incrby(b.start("INCRBY")) }

func (c Incrby) Key(key string) IncrbyKey { c.cs.s = append(c.cs.s, key); return IncrbyKey(c) }

type IncrbyKey Incomplete

func (c IncrbyKey) Increment(increment int64) IncrbyIncrement { return IncrbyIncrement(c) }

type IncrbyIncrement Incomplete

func (c IncrbyIncrement) Build() Completed { return build(Incomplete(c)) }

type Incrbyfloat Incomplete

func (b Builder) Incrbyfloat() (c Incrbyfloat) { return Incrbyfloat(b.start("INCRBYFLOAT")) }

type Decr Incomplete

func (b Builder) Decr() (c Decr) { return Decr(b.start("DECR")) }

type Decrby Incomplete

func (b Builder) Decrby() (c Decrby) { return Decrby(b.start("DECRBY")) }

type Set Incomplete

func (b Builder) Set() (c Set) { return Set(b.start("SET")) }

func (c Set) Key(key string) SetKey { c.cs.s = append(c.cs.s, key); return SetKey(c) }

type SetKey Incomplete

func (c SetKey) Value(value string) SetValue { c.cs.s = append(c.cs.s, value); return SetValue(c) }

type SetValue Incomplete

func (c SetValue) Build() Completed { return build(Incomplete(c)) }
