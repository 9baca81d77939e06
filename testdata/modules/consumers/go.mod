module consumers

go 1.26

require (
	example.com/mq v0.0.0
	github.com/segmentio/kafka-go v0.0.0
	github.com/streadway/amqp v0.0.0
)

replace (
	example.com/mq => ./mqlib
	github.com/segmentio/kafka-go => ./kafkastub
	github.com/streadway/amqp => ./amqpstub
)
