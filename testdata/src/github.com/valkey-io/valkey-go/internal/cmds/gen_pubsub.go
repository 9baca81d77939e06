package cmds

type Publish Incomplete

func (b Builder) Publish() (c Publish) { return Publish(b.start("PUBLISH")) }

func (c Publish) Channel(channel string) PublishChannel {
	c.cs.s = append(c.cs.s, channel)
	return PublishChannel(c)
}

type PublishChannel Incomplete

func (c PublishChannel) Message(message string) PublishMessage {
	c.cs.s = append(c.cs.s, message)
	return PublishMessage(c)
}

type PublishMessage Incomplete

func (c PublishMessage) Build() Completed { return build(Incomplete(c)) }

type Spublish Incomplete

func (b Builder) Spublish() (c Spublish) { return Spublish(b.start("SPUBLISH")) }

type Subscribe Incomplete

func (b Builder) Subscribe() (c Subscribe) { return Subscribe(b.start("SUBSCRIBE")) }

func (c Subscribe) Channel(channel ...string) SubscribeChannel {
	c.cs.s = append(c.cs.s, channel...)
	return SubscribeChannel(c)
}

type SubscribeChannel Incomplete

func (c SubscribeChannel) Build() Completed { return build(Incomplete(c)) }
