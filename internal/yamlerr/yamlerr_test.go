package yamlerr

import (
	"errors"
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

// Every syntax error worded is one the real parser gives for a typo it is meant for: an
// upgrade of go-yaml that rewords one fails here rather than printing it raw.
func TestSyntaxMessage(t *testing.T) {
	inputs := map[string]string{
		"disable: [http.post\nmodels:\n  - x\n":   "',' or ']' must be specified",
		"disable: [a b\n":                         "sequence end token ']' not found",
		"disable: {a: b\nx: 1\n":                  "',' or '}' must be specified",
		"disable:\n  - http.post\n   models: 3\n": "unexpected key name",
		"disable: [a]]\n":                         "value is not allowed in this context",
		"disable: \"abc\n":                        "could not find end character of double-quoted text",
		"disable: 'abc\n":                         "could not find end character of single-quoted text",
		"disable:\n\t- a\n":                       "found character '\t' that cannot start any token",
		"disable: - a\n":                          "block sequence entries are not allowed in this context",
		"disable: a: b\n":                         "mapping value is not allowed in this context",
		"a: b\nc\n":                               "non-map value is specified",
	}
	seen := map[string]bool{}
	for src, raw := range inputs {
		var v map[string]any
		err := yaml.UnmarshalWithOptions([]byte(src), &v, yaml.Strict())
		var tk interface{ GetMessage() string }
		if !errors.As(err, &tk) || tk.GetMessage() != raw {
			t.Errorf("%q: go-yaml says %v, want %q", src, err, raw)
			continue
		}
		seen[raw] = true
		if got := SyntaxMessage(raw); got == "YAML syntax: "+raw {
			t.Errorf("%q: %q is not worded", src, raw)
		}
	}
	for raw := range syntaxWords {
		if !seen[raw] {
			t.Errorf("%q is worded but no input here makes go-yaml give it", raw)
		}
	}
	if got, want := SyntaxMessage("something new"), "YAML syntax: something new"; got != want {
		t.Errorf("unknown message: %q, want %q", got, want)
	}
}
