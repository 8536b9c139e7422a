package report

import "encoding/json"

// renderJSON writes d as indented JSON that decodes back into Data.
func renderJSON(d Data) ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
