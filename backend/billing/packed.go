package billing

import "encoding/binary"

// appendPacked appends a (column number, value) pair; a set of tag columns
// becomes one key dimension this way without building a map per row.
func appendPacked(b []byte, n int, v []byte) []byte {
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// unpackTags reads what appendPacked wrote, naming columns by keys.
func unpackTags(b []byte, keys []string) map[string]string {
	if len(b) == 0 {
		return nil
	}
	out := map[string]string{}
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		b = b[k:]
		l, k := binary.Uvarint(b)
		b = b[k:]
		out[keys[n]] = string(b[:l])
		b = b[l:]
	}
	return out
}
