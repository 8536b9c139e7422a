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
var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

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
