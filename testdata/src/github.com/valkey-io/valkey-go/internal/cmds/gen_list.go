package cmds

type Lpush Incomplete

func (b Builder) Lpush() (c Lpush) { return Lpush(b.start("LPUSH")) }

func (c Lpush) Key(key string) LpushKey { c.cs.s = append(c.cs.s, key); return LpushKey(c) }

type LpushKey Incomplete

func (c LpushKey) Element(element ...string) LpushElement {
	c.cs.s = append(c.cs.s, element...)
	return LpushElement(c)
}

type LpushElement Incomplete

func (c LpushElement) Element(element ...string) LpushElement {
	c.cs.s = append(c.cs.s, element...)
	return c
}

func (c LpushElement) Build() Completed { return build(Incomplete(c)) }

type Lpushx Incomplete

func (b Builder) Lpushx() (c Lpushx) { return Lpushx(b.start("LPUSHX")) }

type Rpush Incomplete

func (b Builder) Rpush() (c Rpush) { return Rpush(b.start("RPUSH")) }

func (c Rpush) Key(key string) RpushKey { c.cs.s = append(c.cs.s, key); return RpushKey(c) }

type RpushKey Incomplete

func (c RpushKey) Element(element ...string) RpushElement {
	c.cs.s = append(c.cs.s, element...)
	return RpushElement(c)
}

type RpushElement Incomplete

func (c RpushElement) Element(element ...string) RpushElement {
	c.cs.s = append(c.cs.s, element...)
	return c
}

func (c RpushElement) Build() Completed { return build(Incomplete(c)) }

type Rpushx Incomplete

func (b Builder) Rpushx() (c Rpushx) { return Rpushx(b.start("RPUSHX")) }
