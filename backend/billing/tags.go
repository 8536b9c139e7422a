package billing

import (
	"bytes"
	"encoding/json"
)

// parseTags reads a tags cell: a JSON object ({"k": "v"}; values that are
// not strings keep their JSON text, null becomes ""), Azure EA's object
// without braces ("k": "v","k2": "v2"), or Google Cloud's array of
// {"key": ..., "value": ...}. An empty or NULL cell has no tags.
func parseTags(b []byte) (map[string]string, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || isNull(b) || string(b) == "{}" || string(b) == "[]" {
		return nil, nil
	}
	switch b[0] {
	case '[':
		var kv []struct {
			Key   string           `json:"key"`
			Value *json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(b, &kv); err != nil {
			return nil, err
		}
		out := make(map[string]string, len(kv))
		for _, p := range kv {
			if p.Value == nil {
				out[p.Key] = ""
				continue
			}
			out[p.Key] = jsonText(*p.Value)
		}
		return out, nil
	case '{':
	default:
		// Azure EA writes the members of an object without its braces.
		b = append(append([]byte{'{'}, b...), '}')
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	if len(raw) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		out[k] = jsonText(v)
	}
	return out, nil
}

// jsonText is a JSON value as a tag value: strings unquoted, null empty,
// anything else its JSON text.
func jsonText(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	if v[0] == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			return s
		}
	}
	return string(v)
}

// isNull reports whether a cell is a null: empty or the string NULL.
func isNull(b []byte) bool {
	return len(b) == 0 || (len(b) == 4 && (string(b) == "NULL" || string(b) == "null"))
}
