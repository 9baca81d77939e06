// Package sarif checks idemlint's machine-readable output against published schemas: the
// -format sarif log against the OASIS SARIF 2.1.0 JSON schema, and the -format json document
// against idemlint's own schema (internal/output/jsonout/schema-v1.json).
//
// It is a module of its own so that the JSON-schema validator, and the module the SARIF
// schema is taken from, stay out of idemlint's module graph. Run it with go test in this
// directory; it builds idemlint from the enclosing repository.
package sarif
