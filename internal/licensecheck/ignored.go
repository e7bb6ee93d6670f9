// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package licensecheck

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Build outputs are never sources: the header check covers only the files
// git does not ignore. In a git checkout git itself says which those are
// (tracked files and untracked ones no .gitignore excludes); outside one (a
// source tarball, say) the tree is walked and its .gitignore files applied
// with the same pattern rules.

// gitListedFiles returns the files under root that git keeps (tracked, or
// untracked and not ignored), relative to root with forward slashes. ok is
// false when root is not inside a git work tree or git is not installed.
func gitListedFiles(root string) (files []string, ok bool, err error) {
	inside, err := exec.Command("git", "-C", root, "rev-parse", "--is-inside-work-tree").Output()
	if err != nil || strings.TrimSpace(string(inside)) != "true" {
		return nil, false, nil
	}
	// ls-files run in root lists paths relative to root; -z keeps unusual
	// names unquoted.
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, true, errors.New("git ls-files: " + strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, true, err
	}
	seen := map[string]bool{}
	for _, f := range bytes.Split(out, []byte{0}) {
		name := string(f)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		// A tracked file deleted from the work tree is still listed.
		if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name))); err != nil || !st.Mode().IsRegular() {
			continue
		}
		files = append(files, name)
	}
	return files, true, nil
}

// walkNotIgnored returns the files under root that the .gitignore files in
// the tree do not ignore, relative to root with forward slashes, never
// entering a directory skip names.
func walkNotIgnored(root string, skip func(dir string) bool) ([]string, error) {
	var files []string
	var rules []ignoreRule
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (skip(d.Name()) || ignored(rules, rel, true)) {
				return filepath.SkipDir
			}
			more, err := readGitignore(p, rel)
			if err != nil {
				return err
			}
			rules = append(rules, more...)
			return nil
		}
		if d.Type().IsRegular() && !ignored(rules, rel, false) {
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}

// ignoreRule is one pattern line of a .gitignore.
type ignoreRule struct {
	// base is the directory of the .gitignore, relative to the root ("" for
	// the root); the pattern applies to paths below it.
	base    string
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

// ignored applies git's rule: the last pattern matching the path decides.
// (An ignored directory is never entered, so nothing below it comes back.)
func ignored(rules []ignoreRule, rel string, isDir bool) bool {
	result := false
	for _, r := range rules {
		sub := rel
		if r.base != "" {
			var ok bool
			if sub, ok = strings.CutPrefix(rel, r.base+"/"); !ok {
				continue
			}
		}
		if r.dirOnly && !isDir {
			continue
		}
		if r.re.MatchString(sub) {
			result = !r.negate
		}
	}
	return result
}

// readGitignore reads dir/.gitignore, if there is one; rel is dir relative
// to the root.
func readGitignore(dir, rel string) ([]ignoreRule, error) {
	b, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	base := rel
	if base == "." {
		base = ""
	}
	var rules []ignoreRule
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if r, ok := parseIgnoreLine(sc.Text()); ok {
			r.base = base
			rules = append(rules, r)
		}
	}
	return rules, sc.Err()
}

// parseIgnoreLine turns one .gitignore line into a rule, following
// gitignore(5): blank lines and # comments are skipped, ! negates, a
// trailing / matches directories only, a / at the start or in the middle
// anchors the pattern to the .gitignore's directory (otherwise it matches at
// any depth), * and ? stay within one path segment, ** spans segments.
func parseIgnoreLine(line string) (ignoreRule, bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	var r ignoreRule
	if strings.HasPrefix(line, "!") {
		r.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return ignoreRule{}, false
	}
	expr := globToRegexp(line)
	if anchored {
		expr = "^" + expr + "$"
	} else {
		expr = "^(?:.*/)?" + expr + "$"
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return ignoreRule{}, false
	}
	r.re = re
	return r, true
}

// globToRegexp translates a gitignore glob (without its leading / or
// trailing /) to a regular expression.
func globToRegexp(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case strings.HasPrefix(glob[i:], "**/") && (i == 0 || glob[i-1] == '/'):
			b.WriteString("(?:.*/)?")
			i += 2
		case glob[i:] == "**" && (i == 0 || glob[i-1] == '/'):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '\\' && i+1 < len(glob):
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		case c == '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := glob[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// inSkippedDir is true when a directory on rel's path is one skip names.
func inSkippedDir(rel string, skip func(dir string) bool) bool {
	for dir := path.Dir(rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if skip(path.Base(dir)) {
			return true
		}
	}
	return false
}
