module github.com/streadway/amqp

go 1.26
