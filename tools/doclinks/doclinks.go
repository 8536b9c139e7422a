// Package doclinks checks the links of the repository's Markdown manual
// (README.md and docs/). The repository explains itself, so every relative
// link must lead to a file inside it and, into a Markdown file, to one of
// that file's headings; pages move and headings are renamed, and a broken
// link is otherwise only found by a reader.
package doclinks

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Reason says what is wrong with a link.
type Reason string

// The reasons a link fails.
const (
	ReasonEmpty         Reason = "empty link"
	ReasonOutside       Reason = "points outside the repository"
	ReasonMissingFile   Reason = "no such file"
	ReasonMissingAnchor Reason = "no such heading"
)

// Problem is one broken link: where it is, what it says and why it fails.
type Problem struct {
	File   string // relative to the repository root, with slashes
	Line   int
	Link   string
	Reason Reason
	Detail string
}

func (p Problem) String() string {
	s := fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Link, p.Reason)
	if p.Detail != "" {
		s += " (" + p.Detail + ")"
	}
	return s
}

// Report is the result of a check: how many links were checked, those
// that fail, and which files each file links to (for reachability).
type Report struct {
	Links    int
	Problems []Problem
	Targets  map[string][]string // file -> the repository files it links to
}

// Unreached returns the files that no chain of links from start reaches.
func (r Report) Unreached(start string, files []string) []string {
	seen := map[string]bool{start: true}
	queue := []string{start}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, t := range r.Targets[f] {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	var out []string
	for _, f := range files {
		if !seen[f] {
			out = append(out, f)
		}
	}
	return out
}

// Files lists the manual under root: README.md and every .md file below
// docs/, as slash-separated paths relative to root.
func Files(root string) ([]string, error) {
	files := []string{"README.md"}
	if _, err := os.Stat(filepath.Join(root, "README.md")); err != nil {
		return nil, fmt.Errorf("doclinks: %w", err)
	}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("doclinks: list docs: %w", err)
	}
	sort.Strings(files[1:])
	return files, nil
}

var (
	// An inline link or image: [text](target "title"); the target may hold
	// one level of balanced parentheses.
	inlineLink = regexp.MustCompile(`\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
	// A reference definition: [label]: target
	refDef     = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(\S+)`)
	codeSpan   = regexp.MustCompile("(`+)[^`].*?`+")
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	fence      = regexp.MustCompile("^ {0,3}(```|~~~)")
	scheme     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"`)
	mdLink     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
)

// Check checks the links of files (slash-separated, relative to root).
func Check(root string, files []string) (Report, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return Report{}, fmt.Errorf("doclinks: %w", err)
	}
	c := checker{root: root, anchors: map[string]map[string]bool{}}
	rep := Report{Targets: map[string][]string{}}
	for _, f := range files {
		lines, err := c.read(f)
		if err != nil {
			return Report{}, err
		}
		for _, l := range links(lines) {
			rep.Links++
			target, p, bad := c.check(f, l)
			if bad {
				rep.Problems = append(rep.Problems, p)
			} else if target != "" && target != f {
				rep.Targets[f] = append(rep.Targets[f], target)
			}
		}
	}
	return rep, nil
}

type link struct {
	line   int
	target string
}

// links returns the links of a Markdown file, leaving out fenced code
// blocks and code spans, where brackets are text.
func links(lines []string) []link {
	var out []link
	eachProseLine(lines, func(i int, line string) {
		text := codeSpan.ReplaceAllString(line, "")
		if m := refDef.FindStringSubmatch(text); m != nil {
			out = append(out, link{i + 1, m[1]})
			return
		}
		for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
			out = append(out, link{i + 1, strings.TrimSuffix(strings.TrimPrefix(m[1], "<"), ">")})
		}
	})
	return out
}

// eachProseLine calls fn with each line outside fenced code blocks (and
// its index); a fence ends at the next fence of the same kind.
func eachProseLine(lines []string, fn func(i int, line string)) {
	inFence := ""
	for i, line := range lines {
		if m := fence.FindStringSubmatch(line); m != nil {
			switch inFence {
			case "":
				inFence = m[1]
			case m[1]:
				inFence = ""
			}
			continue
		}
		if inFence == "" {
			fn(i, line)
		}
	}
}

type checker struct {
	root    string
	anchors map[string]map[string]bool // by slash path relative to root
}

func (c *checker) read(rel string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("doclinks: %w", err)
	}
	return strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n"), nil
}

// check resolves the link l of file from to a repository file (empty for
// another site) and reports whether it is broken, and why.
func (c *checker) check(from string, l link) (string, Problem, bool) {
	p := Problem{File: from, Line: l.line, Link: l.target}
	target := l.target
	if target == "" || target == "#" {
		p.Reason = ReasonEmpty
		return "", p, true
	}
	if scheme.MatchString(target) || strings.HasPrefix(target, "//") {
		return "", p, false // another site: not this repository's to check
	}
	pathPart, frag, _ := strings.Cut(target, "#")
	pathPart, _, _ = strings.Cut(pathPart, "?")
	if unescaped, err := url.PathUnescape(pathPart); err == nil {
		pathPart = unescaped
	}
	resolved := from
	if pathPart != "" {
		base := filepath.Dir(filepath.FromSlash(from))
		if strings.HasPrefix(pathPart, "/") {
			base = "" // GitHub reads a leading slash as the repository root
		}
		rel := filepath.Clean(filepath.Join(base, filepath.FromSlash(pathPart)))
		if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			p.Reason = ReasonOutside
			return "", p, true
		}
		resolved = filepath.ToSlash(rel)
		if _, err := os.Stat(filepath.Join(c.root, rel)); err != nil {
			p.Reason = ReasonMissingFile
			p.Detail = resolved
			return "", p, true
		}
	}
	if frag == "" || !strings.HasSuffix(resolved, ".md") {
		return resolved, p, false // a heading is checked only in Markdown
	}
	if unescaped, err := url.PathUnescape(frag); err == nil {
		frag = unescaped
	}
	anchors, err := c.anchorsOf(resolved)
	if err != nil {
		p.Reason = ReasonMissingFile
		p.Detail = err.Error()
		return "", p, true
	}
	if !anchors[frag] {
		p.Reason = ReasonMissingAnchor
		p.Detail = "in " + resolved
		return "", p, true
	}
	return resolved, p, false
}

func (c *checker) anchorsOf(rel string) (map[string]bool, error) {
	if a, ok := c.anchors[rel]; ok {
		return a, nil
	}
	lines, err := c.read(rel)
	if err != nil {
		return nil, err
	}
	a := Anchors(lines)
	c.anchors[rel] = a
	return a, nil
}

// Anchors returns the fragment ids GitHub gives a Markdown file's headings
// (outside fenced code), plus explicit <a id|name="…"> anchors. A heading
// whose slug was already taken gets -1, -2, … in order.
func Anchors(lines []string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	eachProseLine(lines, func(_ int, line string) {
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			return
		}
		slug := Slug(m[2])
		id := slug
		if n := seen[slug]; n > 0 {
			id = slug + "-" + strconv.Itoa(n)
		}
		seen[slug]++
		out[id] = true
	})
	return out
}

// Slug is GitHub's anchor for a heading's Markdown text: the rendered text
// lower-cased, letters, digits, hyphens and underscores kept, each space a
// hyphen, everything else dropped.
func Slug(heading string) string {
	text := mdLink.ReplaceAllString(heading, "$1")
	text = htmlTag.ReplaceAllString(text, "")
	text = strings.NewReplacer("`", "", "*", "").Replace(text)
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), unicode.Is(unicode.Mn, r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
