package doclinks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepositoryLinks: every relative link of the README and docs/ leads to
// a file in the repository and, into Markdown, to one of its headings.
func TestRepositoryLinks(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository root is not two levels up: %v", err)
	}
	files, rep := checkTree(t, root)
	if len(files) < 2 || files[0] != "README.md" {
		t.Fatalf("files = %v, want README.md and the docs pages", files)
	}
	// The README alone links every docs page: far fewer links means the
	// parser stopped seeing them, and the check would pass by reading nothing.
	if rep.Links < len(files) {
		t.Errorf("%d links in %d files: the links are not being found", rep.Links, len(files))
	}
	for _, p := range rep.Problems {
		t.Errorf("%s", p)
	}
	// What moves out of the README must stay findable from it.
	for _, f := range rep.Unreached("README.md", files) {
		t.Errorf("%s: no chain of links from README.md reaches it", f)
	}
}

// TestUnreachedPages: a page no chain of links from the README reaches is
// reported; one reached through another page is not.
func TestUnreachedPages(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "README.md"), "# Title\n\n[a](docs/a.md)\n")
	write(t, filepath.Join(root, "docs", "a.md"), "# A\n\n[b](b.md#b) [home](../README.md)\n")
	write(t, filepath.Join(root, "docs", "b.md"), "# B\n")
	write(t, filepath.Join(root, "docs", "orphan.md"), "# Orphan\n\n[a](a.md)\n")
	files, rep := checkTree(t, root)
	got := rep.Unreached("README.md", files)
	if len(got) != 1 || got[0] != "docs/orphan.md" {
		t.Errorf("unreached = %v, want [docs/orphan.md]", got)
	}
}

// TestCheckFindsBrokenLinks: a repository in a temporary directory, each
// case a README and a docs page, and the problems the check must report
// (file, line, link, reason), no more and no fewer.
func TestCheckFindsBrokenLinks(t *testing.T) {
	const page = "# Guide\n\n## Single sign-on: `dashboard.auth.oidc`\n\n## Notes\n\ntext\n\n## Notes\n\n" +
		"```\n## Not a heading\n```\n\n<a id=\"custom\"></a>\n"
	tests := []struct {
		name   string
		readme string
		docs   string // docs/guide.md; the page above when empty
		want   []Problem
	}{
		{
			name: "good links",
			readme: "# Title\n\n[guide](docs/guide.md), [sso](docs/guide.md#single-sign-on-dashboardauthoidc),\n" +
				"[second notes](docs/guide.md#notes-1) [first](docs/guide.md#notes) [custom](docs/guide.md#custom)\n" +
				"![shot](docs/guide.md) [self](#title) [web](https://example.com/x.md#nowhere) [mail](mailto:a@b.c)\n" +
				"[root](/docs/guide.md) [code](docs/main.go#L3) [ref]\n\n[ref]: docs/guide.md#guide\n",
		},
		{
			name:   "a missing file",
			readme: "# Title\n\nSee [the guide](docs/gone.md).\n",
			want:   []Problem{{File: "README.md", Line: 3, Link: "docs/gone.md", Reason: ReasonMissingFile}},
		},
		{
			name:   "a missing heading",
			readme: "# Title\n\n[a](docs/guide.md#sso)\n[b](docs/guide.md#notes-2)\n[c](#nope)\n[d](docs/guide.md#not-a-heading)\n",
			want: []Problem{
				{File: "README.md", Line: 3, Link: "docs/guide.md#sso", Reason: ReasonMissingAnchor},
				{File: "README.md", Line: 4, Link: "docs/guide.md#notes-2", Reason: ReasonMissingAnchor},
				{File: "README.md", Line: 5, Link: "#nope", Reason: ReasonMissingAnchor},
				{File: "README.md", Line: 6, Link: "docs/guide.md#not-a-heading", Reason: ReasonMissingAnchor},
			},
		},
		{
			name:   "outside the repository, even where the file exists",
			readme: "# Title\n\n[out](../outside.md) and [deep](docs/../../outside.md)\n",
			docs:   "# Guide\n\n[up](../README.md#title) [too far](../../outside.md)\n\n[ref]: ../../outside.md\n",
			want: []Problem{
				{File: "README.md", Line: 3, Link: "../outside.md", Reason: ReasonOutside},
				{File: "README.md", Line: 3, Link: "docs/../../outside.md", Reason: ReasonOutside},
				{File: "docs/guide.md", Line: 3, Link: "../../outside.md", Reason: ReasonOutside},
				{File: "docs/guide.md", Line: 5, Link: "../../outside.md", Reason: ReasonOutside},
			},
		},
		{
			name:   "code is not a link, an empty link is broken",
			readme: "# Title\n\n`[x](gone.md)` and\n\n```\n[y](gone.md)\n```\n\n[z]()\n",
			want:   []Problem{{File: "README.md", Line: 9, Link: "", Reason: ReasonEmpty}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, "repo")
			docs := tt.docs
			if docs == "" {
				docs = page
			}
			write(t, filepath.Join(dir, "outside.md"), "# Outside\n")
			write(t, filepath.Join(root, "README.md"), tt.readme)
			write(t, filepath.Join(root, "docs", "guide.md"), docs)
			write(t, filepath.Join(root, "docs", "main.go"), "package docs\n")
			_, rep := checkTree(t, root)
			var got []Problem
			for _, p := range rep.Problems {
				p.Detail = ""
				got = append(got, p)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems:\n%v\nwant:\n%v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("problem %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
			if rep.Links == 0 {
				t.Error("no links counted")
			}
		})
	}
}

// TestProblemNamesFileLineAndLink: the failure a reader sees says where the
// link is and what it says.
func TestProblemNamesFileLineAndLink(t *testing.T) {
	p := Problem{File: "docs/a.md", Line: 12, Link: "b.md#x", Reason: ReasonMissingAnchor, Detail: "in docs/b.md"}
	s := p.String()
	for _, want := range []string{"docs/a.md:12", "b.md#x", string(ReasonMissingAnchor), "docs/b.md"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ heading, want string }{
		{"Single sign-on: `dashboard.auth.oidc`", "single-sign-on-dashboardauthoidc"},
		{"Providers: `aws`, `azure`, `gcp`, `oci`", "providers-aws-azure-gcp-oci"},
		{"What `make test` runs", "what-make-test-runs"},
		{"Utilization for export users (`inventory: api`, `prometheus`)", "utilization-for-export-users-inventory-api-prometheus"},
		{"Google Cloud's groups", "google-clouds-groups"},
		{"Priority and order: dollars", "priority-and-order-dollars"},
		{"See [the API](api.md) **now**", "see-the-api-now"},
		{"snake_case and Ünïcode", "snake_case-and-ünïcode"},
	}
	for _, tt := range tests {
		t.Run(tt.heading, func(t *testing.T) {
			if got := Slug(tt.heading); got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.heading, got, tt.want)
			}
		})
	}
}

// checkTree checks the manual of the repository at root.
func checkTree(t *testing.T, root string) ([]string, Report) {
	t.Helper()
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	return files, rep
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
