// Package yamlerr words decoding errors of configuration files in the terms of the file
// the user wrote (YAML's, and the key they typed), not in those of the Go structs the file
// is decoded into: "field arg: want an integer, got the string "one"" rather than
// "cannot unmarshal string into Go struct field File.Sinks of type int".
package yamlerr

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// TypeMessage returns the message for a go-yaml type mismatch (a string where a number or
// a list is expected), naming the key and the type expected; ok is false for other errors.
func TypeMessage(err error) (msg string, ok bool) {
	var ne *yaml.UnexpectedNodeTypeError
	if errors.As(err, &ne) {
		msg = fmt.Sprintf("want %s, got %s", Article(nodeKind(ne.Expected.YAMLName())), Article(nodeKind(ne.Actual.YAMLName())))
		if ne.Token != nil && ne.Token.Value != "" && ne.Actual != ast.SequenceType && ne.Actual != ast.MappingType {
			msg += fmt.Sprintf(" %q", ne.Token.Value)
		}
		if field := key(ne.Token); field != "" {
			msg = "field " + field + ": " + msg
		}
		return msg, true
	}
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return "", false
	}
	field := key(te.Token)
	if field == "" && te.StructFieldName != nil {
		name := *te.StructFieldName
		field = strings.ToLower(name[strings.LastIndexByte(name, '.')+1:])
	}
	got := Article(Kind(te.SrcType))
	if te.Token != nil && te.Token.Value != "" && te.SrcType != nil && te.SrcType.Kind() != reflect.Map && te.SrcType.Kind() != reflect.Slice {
		got = fmt.Sprintf("%s %q", got, te.Token.Value)
	}
	msg = fmt.Sprintf("want %s, got %s", Article(Kind(te.DstType)), got)
	if field != "" {
		msg = "field " + field + ": " + msg
	}
	return msg, true
}

// key finds the mapping key a value token belongs to: "arg" for the "one" of "arg: one",
// also for an element of a list under the key ("disable: [1]" or a "- x" line).
func key(tk *token.Token) string {
	depth := 0
	for t := tk; t != nil; t = t.Prev {
		switch t.Type {
		case token.SequenceEndType, token.MappingEndType:
			depth++
		case token.SequenceStartType, token.MappingStartType:
			if depth > 0 {
				depth--
			}
		case token.MappingValueType:
			if depth == 0 && t != tk && t.Prev != nil {
				return t.Prev.Value
			}
		}
	}
	return ""
}

// nodeKind names a YAML node type ("sequence", "int") in the words Kind uses.
func nodeKind(name string) string {
	switch name {
	case "sequence":
		return "list"
	case "int":
		return "integer"
	case "float":
		return "number"
	case "bool":
		return "boolean (true or false)"
	}
	return name
}

// Kind names a Go type as the YAML (or JSON) value that decodes into it.
func Kind(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "list of " + plural(Kind(t.Elem()))
	case reflect.Map, reflect.Struct:
		return "mapping"
	case reflect.Interface:
		return "value"
	}
	return t.String()
}

func plural(k string) string {
	switch {
	case strings.HasPrefix(k, "boolean"):
		return "booleans"
	case strings.HasPrefix(k, "list of"):
		return "lists"
	case k == "mapping":
		return "mappings"
	}
	return k + "s"
}

// Article puts "a" or "an" before a kind ("an integer").
func Article(k string) string {
	if k != "" && strings.IndexByte("aeiou", k[0]) >= 0 {
		return "an " + k
	}
	return "a " + k
}

// syntaxWords words go-yaml's syntax errors that a hand-edited configuration file commonly
// meets in the file's terms: what is wrong and what to look for. The parser's own message
// follows in parentheses, so that a search for it still finds go-yaml's documentation.
var syntaxWords = map[string]string{
	"',' or ']' must be specified":                           "a list opened with [ is not closed on this line, or two items lack a comma between them",
	"sequence end token ']' not found":                       "a list opened with [ is not closed",
	"',' or '}' must be specified":                           "a mapping opened with { is not closed on this line, or two entries lack a comma between them",
	"unexpected key name":                                    "a key is indented differently from the keys beside it, or follows a value on the same line",
	"mapping value is not allowed in this context":           "a key: value where a value was expected (a missing space after a colon, or a key indented under a value)",
	"value is not allowed in this context":                   "text after a complete value (a stray bracket or quote)",
	"could not find end character of double-quoted text":     `a string opened with " is not closed`,
	"could not find end character of single-quoted text":     "a string opened with ' is not closed",
	"found character '\t' that cannot start any token":       "a tab: YAML indents with spaces only",
	"block sequence entries are not allowed in this context": "a - item where a value was expected on the key's line (put the list on the lines below the key)",
	"non-map value is specified":                             "a value where a key: value mapping was expected",
}

// SyntaxMessage words a go-yaml syntax error message (the parser's GetMessage) in the
// terms of the file: "a list opened with [ is not closed ... (',' or ']' must be
// specified)". A message it does not know is returned as it is, after "YAML syntax: ".
func SyntaxMessage(raw string) string {
	if words, ok := syntaxWords[raw]; ok {
		return fmt.Sprintf("YAML syntax: %s (%s)", words, raw)
	}
	return "YAML syntax: " + raw
}
