package cmds

type Hincrby Incomplete

func (b Builder) Hincrby() (c Hincrby) { return Hincrby(b.start("HINCRBY")) }

func (c Hincrby) Key(key string) HincrbyKey { c.cs.s = append(c.cs.s, key); return HincrbyKey(c) }

type HincrbyKey Incomplete

func (c HincrbyKey) Field(field string) HincrbyField {
	c.cs.s = append(c.cs.s, field)
	return HincrbyField(c)
}

type HincrbyField Incomplete

func (c HincrbyField) Increment(increment int64) HincrbyIncrement { return HincrbyIncrement(c) }

type HincrbyIncrement Incomplete

func (c HincrbyIncrement) Build() Completed { return build(Incomplete(c)) }

type Hincrbyfloat Incomplete

func (b Builder) Hincrbyfloat() (c Hincrbyfloat) { return Hincrbyfloat(b.start("HINCRBYFLOAT")) }
