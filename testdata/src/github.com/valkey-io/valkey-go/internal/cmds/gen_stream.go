package cmds

type Xack Incomplete

func (b Builder) Xack() (c Xack) { return Xack(b.start("XACK")) }

func (c Xack) Key(key string) XackKey { c.cs.s = append(c.cs.s, key); return XackKey(c) }

type XackKey Incomplete

func (c XackKey) Group(group string) XackGroup { c.cs.s = append(c.cs.s, group); return XackGroup(c) }

type XackGroup Incomplete

func (c XackGroup) Id(id ...string) XackId { c.cs.s = append(c.cs.s, id...); return XackId(c) }

type XackId Incomplete

func (c XackId) Id(id ...string) XackId { c.cs.s = append(c.cs.s, id...); return c }

func (c XackId) Build() Completed { return build(Incomplete(c)) }

type Xadd Incomplete

func (b Builder) Xadd() (c Xadd) { return Xadd(b.start("XADD")) }

func (c Xadd) Key(key string) XaddKey { c.cs.s = append(c.cs.s, key); return XaddKey(c) }

type XaddKey Incomplete

func (c XaddKey) Id(id string) XaddId { c.cs.s = append(c.cs.s, id); return XaddId(c) }

type XaddId Incomplete

func (c XaddId) FieldValue() XaddFieldValue { return XaddFieldValue(c) }

type XaddFieldValue Incomplete

func (c XaddFieldValue) FieldValue(field string, value string) XaddFieldValue {
	c.cs.s = append(c.cs.s, field, value)
	return c
}

func (c XaddFieldValue) Build() Completed { return build(Incomplete(c)) }

type Xautoclaim Incomplete

func (b Builder) Xautoclaim() (c Xautoclaim) { return Xautoclaim(b.start("XAUTOCLAIM")) }

func (c Xautoclaim) Key(key string) XautoclaimKey {
	c.cs.s = append(c.cs.s, key)
	return XautoclaimKey(c)
}

type XautoclaimKey Incomplete

func (c XautoclaimKey) Group(group string) XautoclaimGroup {
	c.cs.s = append(c.cs.s, group)
	return XautoclaimGroup(c)
}

type XautoclaimGroup Incomplete

func (c XautoclaimGroup) Consumer(consumer string) XautoclaimConsumer {
	c.cs.s = append(c.cs.s, consumer)
	return XautoclaimConsumer(c)
}

type XautoclaimConsumer Incomplete

func (c XautoclaimConsumer) MinIdleTime(minIdleTime string) XautoclaimMinIdleTime {
	c.cs.s = append(c.cs.s, minIdleTime)
	return XautoclaimMinIdleTime(c)
}

type XautoclaimMinIdleTime Incomplete

func (c XautoclaimMinIdleTime) Start(start string) XautoclaimStart {
	c.cs.s = append(c.cs.s, start)
	return XautoclaimStart(c)
}

type XautoclaimStart Incomplete

func (c XautoclaimStart) Build() Completed { return build(Incomplete(c)) }

type Xclaim Incomplete

func (b Builder) Xclaim() (c Xclaim) { return Xclaim(b.start("XCLAIM")) }

type Xpending Incomplete

func (b Builder) Xpending() (c Xpending) { return Xpending(b.start("XPENDING")) }

func (c Xpending) Key(key string) XpendingKey { c.cs.s = append(c.cs.s, key); return XpendingKey(c) }

type XpendingKey Incomplete

func (c XpendingKey) Group(group string) XpendingGroup {
	c.cs.s = append(c.cs.s, group)
	return XpendingGroup(c)
}

type XpendingGroup Incomplete

func (c XpendingGroup) Build() Completed { return build(Incomplete(c)) }

type Xreadgroup Incomplete

func (b Builder) Xreadgroup() (c Xreadgroup) { return Xreadgroup(b.start("XREADGROUP")) }

func (c Xreadgroup) Group(group string, consumer string) XreadgroupGroup {
	c.cs.s = append(c.cs.s, "GROUP", group, consumer)
	return XreadgroupGroup(c)
}

type XreadgroupGroup Incomplete

func (c XreadgroupGroup) Count(count int64) XreadgroupCount { return XreadgroupCount(c) }

func (c XreadgroupGroup) Block(milliseconds int64) XreadgroupBlock { return XreadgroupBlock(c) }

func (c XreadgroupGroup) Noack() XreadgroupNoack { return XreadgroupNoack(c) }

func (c XreadgroupGroup) Streams() XreadgroupStreams { return XreadgroupStreams(c) }

type XreadgroupCount Incomplete

func (c XreadgroupCount) Block(milliseconds int64) XreadgroupBlock { return XreadgroupBlock(c) }

func (c XreadgroupCount) Noack() XreadgroupNoack { return XreadgroupNoack(c) }

func (c XreadgroupCount) Claim(claim string) XreadgroupClaim { return XreadgroupClaim(c) }

func (c XreadgroupCount) Streams() XreadgroupStreams { return XreadgroupStreams(c) }

type XreadgroupBlock Incomplete

func (c XreadgroupBlock) Noack() XreadgroupNoack { return XreadgroupNoack(c) }

func (c XreadgroupBlock) Claim(claim string) XreadgroupClaim { return XreadgroupClaim(c) }

func (c XreadgroupBlock) Streams() XreadgroupStreams { return XreadgroupStreams(c) }

type XreadgroupNoack Incomplete

func (c XreadgroupNoack) Streams() XreadgroupStreams { return XreadgroupStreams(c) }

type XreadgroupClaim Incomplete

func (c XreadgroupClaim) Streams() XreadgroupStreams { return XreadgroupStreams(c) }

type XreadgroupStreams Incomplete

func (c XreadgroupStreams) Key(key ...string) XreadgroupKey {
	c.cs.s = append(c.cs.s, "STREAMS")
	c.cs.s = append(c.cs.s, key...)
	return XreadgroupKey(c)
}

type XreadgroupKey Incomplete

func (c XreadgroupKey) Key(key ...string) XreadgroupKey { c.cs.s = append(c.cs.s, key...); return c }

func (c XreadgroupKey) Id(id ...string) XreadgroupId {
	c.cs.s = append(c.cs.s, id...)
	return XreadgroupId(c)
}

type XreadgroupId Incomplete

func (c XreadgroupId) Id(id ...string) XreadgroupId { c.cs.s = append(c.cs.s, id...); return c }

func (c XreadgroupId) Build() Completed { return build(Incomplete(c)) }
