// Package doccheck checks the project's Markdown: every relative link and
// picture in README.md, the guides in docs/ and the other top-level pages
// names a file that exists (and, for a link into a Markdown page, a
// heading of that page), every guide in docs/ can be reached from
// README.md by following links, and every table row has as many cells as
// its header.
package doccheck

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
)

// pages are the Markdown pages checked besides docs/*.md.
var pages = []string{
	"README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md",
	"DEVELOPERS.md", "strategies/README.md",
}

// TestLinksResolve checks every relative link of the pages.
func TestLinksResolve(t *testing.T) {
	repo := os.DirFS("../..")
	files := checked(t, repo)
	for _, p := range problems(repo, files) {
		t.Error(p)
	}
}

// TestEveryGuideIsReachableFromREADME follows the Markdown links from
// README.md and checks that it reaches every guide in docs/.
func TestEveryGuideIsReachableFromREADME(t *testing.T) {
	repo := os.DirFS("../..")
	guides, err := fs.Glob(repo, "docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(guides) == 0 {
		t.Fatal("no guides in docs/: the test is not looking at the repository")
	}
	seen := reachable(repo, "README.md")
	for _, g := range guides {
		if !seen[g] {
			t.Errorf("%s cannot be reached from README.md by following links", g)
		}
	}
}

// TestTablesAreWhole checks that every row of every table has as many
// cells as the table's header, so a column added to some rows only (or a
// figure pasted into the wrong table) shows.
func TestTablesAreWhole(t *testing.T) {
	repo := os.DirFS("../..")
	for _, p := range ragged(repo, checked(t, repo)) {
		t.Error(p)
	}
}

// TestTheCheckFindsRaggedTables holds the table check to account: a row
// with a cell too many is reported, escaped bars and bars in code are not
// cells, and a table in a code fence is not a table.
func TestTheCheckFindsRaggedTables(t *testing.T) {
	repo := fstest.MapFS{"a.md": {Data: []byte("" +
		"| a | b |\n|---|---|\n| `x|y` | c\\|d |\n| 1 | 2 | 3 |\n\n" +
		"```\n| a |\n|---|\n| 1 | 2 |\n```\n")}}
	got := ragged(repo, []string{"a.md"})
	want := []string{"a.md:4: a row of 3 cells in a table of 2"}
	if !slices.Equal(got, want) {
		t.Errorf("ragged: %q, want %q", got, want)
	}
}

// TestTheCheckFindsBrokenLinks holds the checker itself to account: a
// missing file, a missing heading and a missing picture are reported, and
// links in code, external links and good anchors are not.
func TestTheCheckFindsBrokenLinks(t *testing.T) {
	repo := fstest.MapFS{
		"README.md": {Data: []byte("# Top\n\n" +
			"[guide](docs/guide.md) [gone](docs/gone.md) [anchor](docs/guide.md#the-set-game-evaluation-x)\n" +
			"[bad anchor](docs/guide.md#nowhere) ![picture](docs/none.png) [web](https://example.com/x.md)\n" +
			"`[in code](nothing.md)`\n\n```\n[in a fence](nothing.md)\n```\n[self](#top)\n")},
		"docs/guide.md": {Data: []byte("# Guide\n\n## The set-game evaluation (`x`)\n\n```\n# not a heading\n```\n")},
	}
	got := problems(repo, []string{"README.md", "docs/guide.md"})
	want := []string{
		"README.md:3: docs/gone.md: no such file",
		"README.md:4: docs/guide.md#nowhere: docs/guide.md has no heading with anchor \"nowhere\"",
		"README.md:4: docs/none.png: no such file",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if seen := reachable(repo, "README.md"); !seen["docs/guide.md"] || seen["docs/gone.md"] {
		t.Errorf("reachable from README.md: %v", seen)
	}
}

// checked lists the pages of the repository to check: the guides and the
// top-level pages that exist.
func checked(t *testing.T, repo fs.FS) []string {
	t.Helper()
	files, err := fs.Glob(repo, "docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if _, err := fs.Stat(repo, p); err == nil {
			files = append(files, p)
		}
	}
	if !slices.Contains(files, "README.md") {
		t.Fatal("no README.md: the test is not looking at the repository")
	}
	return files
}

// problems returns, for the given pages, every relative link whose file
// does not exist or whose anchor names no heading of its Markdown page.
func problems(repo fs.FS, files []string) []string {
	var out []string
	for _, f := range files {
		ls, err := links(repo, f)
		if err != nil {
			out = append(out, err.Error())
			continue
		}
		for _, l := range ls {
			target, anchor, _ := strings.Cut(l.target, "#")
			file := f
			if target != "" {
				file = path.Join(path.Dir(f), target)
			}
			if _, err := fs.Stat(repo, file); err != nil {
				out = append(out, fmt.Sprintf("%s:%d: %s: no such file", f, l.line, l.target))
				continue
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			heads, err := headings(repo, file)
			if err != nil {
				out = append(out, err.Error())
				continue
			}
			if !heads[anchor] {
				out = append(out, fmt.Sprintf("%s:%d: %s: %s has no heading with anchor %q", f, l.line, l.target, file, anchor))
			}
		}
	}
	return out
}

var delimiterRE = regexp.MustCompile(`^\|[-:| ]+\|$`)

// ragged returns every table row of the pages whose number of cells is
// not its header's.
func ragged(repo fs.FS, files []string) []string {
	var out []string
	for _, f := range files {
		header, inTable := 0, false
		prev := ""
		err := eachLine(repo, f, func(n int, text string) {
			switch {
			case !strings.HasPrefix(text, "|"):
				inTable = false
			case delimiterRE.MatchString(text) && !inTable && strings.HasPrefix(prev, "|"):
				header, inTable = cells(prev), true
			case inTable && cells(text) != header:
				out = append(out, fmt.Sprintf("%s:%d: a row of %d cells in a table of %d", f, n, cells(text), header))
			}
			prev = text
		})
		if err != nil {
			out = append(out, err.Error())
		}
	}
	return out
}

// cells counts the cells of a table row: its unescaped bars outside code,
// less one.
func cells(row string) int {
	row = codeRE.ReplaceAllString(strings.ReplaceAll(row, `\|`, ""), "x")
	return strings.Count(row, "|") - 1
}

// reachable returns the Markdown pages reached from start by following
// relative links.
func reachable(repo fs.FS, start string) map[string]bool {
	seen := map[string]bool{start: true}
	queue := []string{start}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		ls, err := links(repo, f)
		if err != nil {
			continue
		}
		for _, l := range ls {
			target, _, _ := strings.Cut(l.target, "#")
			if target == "" || !strings.HasSuffix(target, ".md") {
				continue
			}
			next := path.Join(path.Dir(f), target)
			if _, err := fs.Stat(repo, next); err == nil && !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	return seen
}

// link is a relative link of a page: its target and its line.
type link struct {
	target string
	line   int
}

var (
	linkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeRE   = regexp.MustCompile("`[^`]*`")
	schemeRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// links returns the relative links and pictures of a page, outside code
// fences and inline code.
func links(repo fs.FS, file string) ([]link, error) {
	var out []link
	err := eachLine(repo, file, func(n int, text string) {
		for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(text, ""), -1) {
			if !schemeRE.MatchString(m[1]) {
				out = append(out, link{m[1], n})
			}
		}
	})
	return out, err
}

var headingRE = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)

// headings returns the anchors of a page's headings as GitHub makes them:
// lower case, punctuation dropped, spaces as hyphens, and -1, -2, … after
// a repeated one.
func headings(repo fs.FS, file string) (map[string]bool, error) {
	out := map[string]bool{}
	count := map[string]int{}
	err := eachLine(repo, file, func(_ int, text string) {
		m := headingRE.FindStringSubmatch(text)
		if m == nil {
			return
		}
		s := slug(m[1])
		if n := count[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		count[s]++
	})
	return out, err
}

// slug is GitHub's anchor for a heading's text.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// eachLine calls fn with every line of a page outside code fences, by
// its number.
func eachLine(repo fs.FS, file string, fn func(n int, text string)) error {
	f, err := repo.Open(file)
	if err != nil {
		return fmt.Errorf("doccheck: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	fence := false
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(text), "```") {
			fence = !fence
			continue
		}
		if !fence {
			fn(n, text)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("doccheck: read %s: %w", file, err)
	}
	return nil
}
