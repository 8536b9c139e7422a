package billing

import (
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// maxDims bounds the raw dimensions a format keys its lines by.
const maxDims = 20

// Account names travel in the last two dims of formats other than FOCUS:
// they depend on the account ids, so keying by them adds no lines.
const (
	dimAccountName = 14 // the billing account's name
	dimSubName     = 15 // the sub-account's (usage account, subscription, project, compartment)
)

// A resource's name travels in a dim of its own (dimResName; FOCUS,
// whose 13 and 14 hold the account names, uses dimFOCUSResName): it
// depends on the resource id, so keying by it adds no lines, and it is
// read once per distinct line like the other dims.
const (
	dimResName      = 13
	dimFOCUSResName = 15
)

// resourceName is the name in dim i of a line, bounded.
func (l *rawLine) resourceName(i int) string {
	return model.ClipDim(str(l.dims[i]), model.MaxNameLen)
}

// The usage detail travels in the last four dims of every format: up to
// three parts of what was used (an Azure meter's category, subcategory
// and name; a SKU's id and description; an AWS usage type alone), joined
// with " / " when a key is described, and its pricing unit.
const (
	dimUsage = 16 // to 18
	dimUnit  = 19
)

// usageSep joins the parts of a usage.
const usageSep = " / "

// setUsage puts the parts of a line's usage and its unit in its dims.
func (l *rawLine) setUsage(unit []byte, parts ...[]byte) {
	l.dims[dimUnit] = unit
	copy(l.dims[dimUsage:dimUnit], parts)
}

// usage is the usage detail of a line's dims, joined and bounded.
func (l *rawLine) usage() (usage, unit string) {
	var b strings.Builder
	for _, p := range l.dims[dimUsage:dimUnit] {
		if s := str(p); s != "" {
			if b.Len() > 0 {
				b.WriteString(usageSep)
			}
			b.WriteString(s)
		}
	}
	return model.ClipDim(b.String(), model.MaxUsageLen), model.ClipDim(str(l.dims[dimUnit]), model.MaxUnitLen)
}

// withUsage is c with the usage detail of l.
func withUsage(c model.CostLine, l *rawLine) model.CostLine {
	c.Usage, c.Unit = l.usage()
	return c
}

// quantity parses a usage quantity cell; a null is zero.
func quantity(rec [][]byte, i int, column string) (exact, *fieldError) {
	b := cell(rec, i)
	if b == nil {
		return exact{}, nil
	}
	v, ok := parseQuantity(b)
	if !ok {
		return exact{}, badField(column, "invalid quantity %q", clip(b))
	}
	return v, nil
}

// exportNames is the namer of formats whose billing account and
// sub-account ids are in dims 0 and 1.
type exportNames struct{ accountName, subName int }

func (n exportNames) fill(rec [][]byte, l *rawLine) {
	l.dims[dimAccountName], l.dims[dimSubName] = cell(rec, n.accountName), cell(rec, n.subName)
}

func (n exportNames) accountNames(l *rawLine) [][2][]byte {
	return [][2][]byte{{l.dims[0], l.dims[dimAccountName]}, {l.dims[1], l.dims[dimSubName]}}
}

// rawLine is one source row mapped but not yet aggregated. Its dims are the
// raw cells (or constants) that fully determine the line's dimensions, so
// the aggregator can key by them and describe a key only once.
type rawLine struct {
	day          day
	pstart, pend day // billing period, inclusive; zero when unknown
	dims         [maxDims][]byte
	billed       exact
	effective    exact
	list         exact
	quantity     exact     // millions of units (see parseQuantity)
	commit       commitRow // filled only by exports with commitment columns
}

// mapper maps the records of one export format. Each worker has its own, so
// a mapper may keep scratch space.
type mapper interface {
	// rows maps one record to lines (usually one), appended to out.
	rows(rec [][]byte, out []rawLine) ([]rawLine, *fieldError)
	// describe gives the dimensions of a line from its dims alone.
	describe(l *rawLine) (model.CostLine, *fieldError)
}

// namer is a mapper whose format names accounts: the (id, name) pairs of a
// line, asked once per distinct line like describe.
type namer interface {
	accountNames(l *rawLine) [][2][]byte
}

// binder builds a mapper for a header; it fails on a missing column.
type binder func(h header, forced model.ProviderKey) (mapper, *fieldError)

// header finds columns by name, exactly or case-insensitively.
type header struct {
	names []string
	exact map[string]int
	lower map[string]int
}

func newHeader(names []string) header {
	h := header{names: names, exact: make(map[string]int, len(names)), lower: make(map[string]int, len(names))}
	for i, n := range names {
		if _, ok := h.exact[n]; !ok {
			h.exact[n] = i
		}
		l := strings.ToLower(n)
		if _, ok := h.lower[l]; !ok {
			h.lower[l] = i
		}
	}
	return h
}

// find returns the index of the first of names present (in the order
// given, each exactly or else ignoring case), or -1.
func (h header) find(names ...string) int {
	for _, n := range names {
		if i, ok := h.exact[n]; ok {
			return i
		}
		if i, ok := h.lower[strings.ToLower(n)]; ok {
			return i
		}
	}
	return -1
}

// prefixed returns the indexes and the names (without the prefix) of the
// columns starting with one of prefixes.
func (h header) prefixed(prefixes ...string) (idx []int, keys []string) {
	for i, n := range h.names {
		for _, p := range prefixes {
			if strings.HasPrefix(n, p) && len(n) > len(p) {
				idx = append(idx, i)
				keys = append(keys, n[len(p):])
				break
			}
		}
	}
	return idx, keys
}

// cell returns a record's cell, nil for a missing column or a null.
func cell(rec [][]byte, i int) []byte {
	if i < 0 || i >= len(rec) {
		return nil
	}
	b := rec[i]
	if isNull(b) {
		return nil
	}
	return b
}

// amount parses an amount cell; a null is zero and reported as absent.
func amount(rec [][]byte, i int, column string) (exact, bool, *fieldError) {
	b := cell(rec, i)
	if b == nil {
		return exact{}, false, nil
	}
	v, ok := parseAmount(b)
	if !ok {
		return exact{}, false, badField(column, "invalid amount %q", clip(b))
	}
	return v, true, nil
}

// dayCell parses a required date cell.
func dayCell(rec [][]byte, i int, column string) (day, *fieldError) {
	b := cell(rec, i)
	if b == nil {
		return day{}, badField(column, "missing date")
	}
	d, ok := parseDay(b)
	if !ok {
		return d, badField(column, "invalid date %q", clip(b))
	}
	return d, nil
}

// optDay parses an optional date cell; an unreadable one counts as absent,
// because billing periods only widen the span a batch replaces.
func optDay(rec [][]byte, i int) day {
	b := cell(rec, i)
	if b == nil {
		return day{}
	}
	d, ok := parseDay(b)
	if !ok {
		return day{}
	}
	return d
}

// clip shortens a cell for an error message.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// str turns a dim into a string, trimmed.
func str(b []byte) string { return strings.TrimSpace(string(b)) }

// colName returns the header name of column i for messages.
func (h header) colName(i int, fallback string) string {
	if i >= 0 && i < len(h.names) {
		return h.names[i]
	}
	return fallback
}

// missing is the error for a required column absent from the header.
func missing(name string) *fieldError {
	return badField(name, "missing required column")
}

// chooseProvider is forced when set, else the first name that maps.
func chooseProvider(forced model.ProviderKey, names ...[]byte) model.ProviderKey {
	if forced != "" {
		return forced
	}
	for _, n := range names {
		if k := providerKey(string(n)); k != "" {
			return k
		}
	}
	return ""
}
