// Command layered writes a layered Go module for the benchmark of the program-wide link:
// N domains, each with a handler package that calls its store through an interface, a
// storage package implementing it (half of them importing the layer they implement), and
// one main package that wires every store into its handler. No package of a handler
// imports its store: only the link finds the writes.
//
//	go run ./cmd/layered -n 100 DIR
//
// With -module, the domains are written as packages of that module, whose go.mod is already
// in DIR (the bench module's copy, for its real dependencies), and -import adds blank imports
// of packages to the main package (the corpus: the program then has its dependencies too).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	n := flag.Int("n", 100, "number of domains")
	module := flag.String("module", "", "write the domains as packages of this module, whose go.mod DIR has (default: a module of their own, layered)")
	blank := flag.String("import", "", "comma-separated packages the main package imports for their dependencies")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: layered [-n N] [-module PATH -import PKG,...] DIR")
	}
	dir := flag.Arg(0)
	write := func(name, text string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	mod := *module
	if mod == "" {
		mod = "layered"
		write("go.mod", "module layered\n\ngo 1.26\n")
	}
	var imports, wiring strings.Builder
	for _, pkg := range strings.Split(*blank, ",") {
		if pkg != "" {
			fmt.Fprintf(&imports, "\t_ %q\n", pkg)
		}
	}
	for i := range *n {
		d := fmt.Sprintf("d%03d", i)
		write(d+"/api/api.go", fmt.Sprintf(api, d, d, d))
		layer := ""
		if i%2 == 0 {
			layer = fmt.Sprintf("\n\t\"%s/%s/api\"", mod, d)
		}
		assert := ""
		if layer != "" {
			assert = "\nvar _ api.Store = (*Store)(nil)\n"
		}
		write(d+"/pg/pg.go", fmt.Sprintf(store, d, layer, assert, d, d))
		fmt.Fprintf(&imports, "\t%sapi \"%s/%s/api\"\n\t%spg \"%s/%s/pg\"\n", d, mod, d, d, mod, d)
		fmt.Fprintf(&wiring, "\thandlers = append(handlers, &%sapi.Handler{Store: &%spg.Store{DB: db}})\n", d, d)
	}
	write("cmd/worker/main.go", fmt.Sprintf(worker, imports.String(), wiring.String()))
}

const api = `// Package api is domain %s's handler.
package api

import "context"

// Store saves a record.
type Store interface {
	Save%s(ctx context.Context, id string) error
}

// Handler handles the domain's jobs.
type Handler struct{ Store Store }

// Handle saves the job's record.
//
//idemlint:handler
func (h *Handler) Handle(ctx context.Context, id string) error {
	return h.Store.Save%s(ctx, id)
}
`

const store = `// Package pg stores domain %s's records.
package pg

import (
	"context"
	"database/sql"%s
)

// Store is the domain's store.
type Store struct{ DB *sql.DB }
%s
// Save%s inserts the record.
func (s *Store) Save%s(ctx context.Context, id string) error {
	_, err := s.DB.ExecContext(ctx, "INSERT INTO records (id) VALUES ($1)", id)
	return err
}
`

const worker = `// Command worker wires every store into its handler.
package main

import (
	"context"
	"database/sql"

%s)

type handler interface {
	Handle(ctx context.Context, id string) error
}

func main() {
	db, _ := sql.Open("postgres", "")
	var handlers []handler
%s	for _, h := range handlers {
		_ = h.Handle(context.Background(), "1")
	}
}
`
