// Package search is the service's search index client: main wires it into the workers,
// whose package declares the interface it implements and does not import this one.
package search

import (
	"context"
	"strings"
)

// Index keeps documents in memory, keyed by id: putting one again replaces it.
type Index struct{ docs map[string]string }

// New returns an empty Index.
func New() *Index { return &Index{docs: map[string]string{}} }

func (x *Index) IndexDocument(ctx context.Context, id, text string) error {
	x.docs[id] = strings.ToLower(text)
	return nil
}
