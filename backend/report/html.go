package report

import (
	"bytes"
	_ "embed"
	"html/template"
)

//go:embed report.html.tmpl
var htmlSource string

// htmlTemplate is parsed once; html/template escapes every value by its
// context, which matters because billing data (tags, resource names) is
// attacker-controlled text.
var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"shortID": shortID}).Parse(htmlSource))

// maxIDRunes bounds a resource id in the HTML tables; the cell's title
// holds it whole.
const maxIDRunes = 64

// shortID shortens a long id in the middle, keeping a third of what is
// kept before the cut and the rest, the resource's own name, after it.
func shortID(s string) string {
	r := []rune(s)
	if len(r) <= maxIDRunes {
		return s
	}
	keep := maxIDRunes - 1
	head := keep / 3
	return string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
}

// renderHTML writes one self-contained page: inline CSS, inline SVG
// charts, no script, and a Content-Security-Policy that forbids scripts and
// any network fetch should anything slip through.
func renderHTML(d Data) ([]byte, error) {
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, buildView(d)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
