package yamlerr

import (
	"testing"

	"github.com/goccy/go-yaml"
)

func TestTypeMessage(t *testing.T) {
	type sink struct {
		Func string `yaml:"func"`
		Arg  *int   `yaml:"arg"`
	}
	type file struct {
		Sinks   []sink   `yaml:"sinks"`
		Disable []string `yaml:"disable"`
		Builtin *bool    `yaml:"builtin"`
	}
	for src, want := range map[string]string{
		"sinks:\n  - func: f\n    arg: one\n": `field arg: want an integer, got a string "one"`,
		"disable: email.send\n":               `field disable: want a list, got a string "email.send"`,
		"builtin: maybe\n":                    `field builtin: want a boolean (true or false), got a string "maybe"`,
		"sinks: 3\n":                          `field sinks: want a list, got an integer "3"`,
	} {
		var f file
		err := yaml.UnmarshalWithOptions([]byte(src), &f, yaml.Strict())
		if err == nil {
			t.Errorf("%q: no error", src)
			continue
		}
		got, ok := TypeMessage(err)
		if !ok || got != want {
			t.Errorf("%q:\n got %q (%v)\nwant %q\n(from %v)", src, got, ok, want, err)
		}
	}
}
