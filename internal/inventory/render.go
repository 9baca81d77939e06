package inventory

import (
	_ "embed"
	htmltemplate "html/template"
	"io"
	"strings"
	texttemplate "text/template"
)

//go:embed report.html.tmpl
var htmlSource string

//go:embed report.md.tmpl
var markdownSource string

var funcs = map[string]any{
	"join":  strings.Join,
	"md":    mdCell,
	"class": func(s string) string { return strings.ReplaceAll(s, " ", "-") },
}

var (
	htmlTemplate     = htmltemplate.Must(htmltemplate.New("report").Funcs(funcs).Parse(htmlSource))
	markdownTemplate = texttemplate.Must(texttemplate.New("report").Funcs(funcs).Parse(markdownSource))
)

// HTML writes the inventory as one self-contained HTML page.
func HTML(w io.Writer, v *View) error { return htmlTemplate.Execute(w, v) }

// Markdown writes the inventory as GitHub-flavoured Markdown.
func Markdown(w io.Writer, v *View) error { return markdownTemplate.Execute(w, v) }

// Search is the lower-cased text a row's free-text filter matches against.
func (h *Row) Search() string {
	parts := []string{h.Name, h.Package, h.Framework, h.Location, h.Status}
	for _, e := range h.Effects {
		parts = append(parts, e.Kind, e.State, e.Detail, e.Guard, e.Chain)
	}
	for _, d := range h.Directives {
		parts = append(parts, d.Text, d.Reason)
	}
	return strings.ToLower(strings.Join(parts, " "))
}

// mdCell makes text safe inside a Markdown table cell: a pipe would end the cell and a
// newline the row; backticks and angle brackets would start code or HTML.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", "", "`", "'", "<", "&lt;", "*", `\*`, "_", `\_`).Replace(s)
}
