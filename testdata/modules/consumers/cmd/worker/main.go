// Command worker wires the source into the pipeline.
package main

import (
	"context"
	"database/sql"

	"consumers/pipeline"
	"consumers/source"

	"github.com/segmentio/kafka-go"
)

func main() {
	pipeline.Run(context.Background(), source.New(&kafka.Reader{}), &sql.DB{})
}
