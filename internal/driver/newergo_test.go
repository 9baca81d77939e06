package driver

import "golang.org/x/tools/go/packages"

// newerGoError is newerGo on one package with these errors: the error, or nil.
func newerGoError(msgs ...string) error {
	p := &packages.Package{ID: "p"}
	for _, m := range msgs {
		p.Errors = append(p.Errors, packages.Error{Msg: m})
	}
	return newerGo([]*packages.Package{p})
}
