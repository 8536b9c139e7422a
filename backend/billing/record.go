package billing

import (
	"bytes"
	"errors"
)

var (
	errUnterminatedQuote = errors.New("unterminated quoted field")
	errBareQuote         = errors.New("unexpected character after a quoted field")
)

// nextRecord splits the CSV record that starts at data[pos] (RFC 4180:
// quoted fields may hold commas, newlines and doubled quotes). Field slices
// point into data; doubled quotes are undone in place, so data is modified.
// It returns the fields, the position after the record and the number of
// physical lines the record spans.
func nextRecord(data []byte, pos int, fields [][]byte) ([][]byte, int, int, error) {
	fields = fields[:0]
	n := len(data)
	lines := 1
	nl := -1 // position of the next newline at or after pos, or n
	for {
		if pos < n && data[pos] == '"' {
			pos++
			start, w := pos, -1
			for {
				j := bytes.IndexByte(data[pos:], '"')
				if j < 0 {
					return fields, n, lines, errUnterminatedQuote
				}
				seg := data[pos : pos+j]
				lines += bytes.Count(seg, nlByte)
				if w >= 0 {
					w += copy(data[w:], seg)
				}
				pos += j + 1
				if pos < n && data[pos] == '"' { // a doubled quote is one quote
					if w < 0 {
						w = pos
					} else {
						data[w] = '"'
						w++
					}
					pos++
					continue
				}
				break
			}
			if w >= 0 {
				fields = append(fields, data[start:w])
			} else {
				fields = append(fields, data[start:pos-1])
			}
			if pos < n && data[pos] == '\r' {
				pos++
			}
			if pos >= n {
				return fields, n, lines, nil
			}
			switch data[pos] {
			case ',':
				pos++
				continue
			case '\n':
				return fields, pos + 1, lines, nil
			}
			return fields, pos, lines, errBareQuote
		}
		if nl < pos {
			nl = bytes.IndexByte(data[pos:], '\n')
			if nl < 0 {
				nl = n
			} else {
				nl += pos
			}
		}
		end := nl
		if c := bytes.IndexByte(data[pos:nl], ','); c >= 0 {
			end = pos + c
		}
		f := data[pos:end]
		if end == nl {
			if len(f) > 0 && f[len(f)-1] == '\r' {
				f = f[:len(f)-1]
			}
			fields = append(fields, f)
			if nl >= n {
				return fields, n, lines, nil
			}
			return fields, nl + 1, lines, nil
		}
		fields = append(fields, f)
		pos = end + 1
	}
}

var nlByte = []byte{'\n'}

// recordEnd returns the end of the last complete CSV record in buf (just
// after a newline outside quotes), or -1. The parity of the quotes before a
// newline says whether it is inside a quoted field, and bytes.Count is
// vectorised, so this costs a fraction of splitting.
func recordEnd(buf []byte) int {
	nl := bytes.LastIndexByte(buf, '\n')
	if nl < 0 {
		return -1
	}
	q := bytes.Count(buf[:nl+1], []byte{'"'})
	for {
		if q%2 == 0 {
			return nl + 1
		}
		prev := bytes.LastIndexByte(buf[:nl], '\n')
		if prev < 0 {
			return -1
		}
		q -= bytes.Count(buf[prev+1:nl+1], []byte{'"'})
		nl = prev
	}
}

// lineEnd returns the end of the last complete line in buf, or -1; JSON
// lines never hold a raw newline.
func lineEnd(buf []byte) int {
	nl := bytes.LastIndexByte(buf, '\n')
	if nl < 0 {
		return -1
	}
	return nl + 1
}

// blankLine reports whether a record's bytes are an empty line.
func blankLine(rec []byte) bool {
	return len(rec) == 0 || string(rec) == "\n" || string(rec) == "\r\n" || string(rec) == "\r"
}
