module example.com/mq

go 1.26

require github.com/streadway/amqp v0.0.0

replace github.com/streadway/amqp => ../amqpstub
