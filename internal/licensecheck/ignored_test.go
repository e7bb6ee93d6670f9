// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package licensecheck

import (
	"errors"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtTree is a tree like the repository after `npm run build:playground`:
// a page built into a folder .gitignore excludes (all but one file it
// re-includes), none of it with the header, beside sources without it.
func builtTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, ".gitignore", "node_modules/\n/page/built/*\n!/page/built/keep.js\n*.gen.ts\n")
	writeFile(t, root, "page/built/playground.1a2b3c4d.js", "(()=>{var e=1})();\n")
	writeFile(t, root, "page/built/public/icons/x.js", "x;\n")
	writeFile(t, root, "page/built/keep.js", "export {};\n")
	writeFile(t, root, "page/page.go", header+"package page\n")
	writeFile(t, root, "src/types.gen.ts", "export type A = 1;\n")
	writeFile(t, root, "src/deep/more.gen.ts", "export type B = 1;\n")
	writeFile(t, root, "src/tracked.ts", "export const a = 1;\n")
	writeFile(t, root, "src/untracked.ts", "export const b = 1;\n")
	writeFile(t, root, "lib/.gitignore", "local.js\n")
	writeFile(t, root, "lib/local.js", "x;\n")
	writeFile(t, root, "lib/shared.js", "y;\n")
	return root
}

// What the header check must report in builtTree: the sources, never what
// git ignores.
var builtTreeProblems = []HeaderProblem{{"lib/shared.js"}, {"page/built/keep.js"}, {"src/tracked.ts"}, {"src/untracked.ts"}}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}

// In a git checkout, git says what is ignored: a built file without the
// header passes, a tracked or an untracked (not ignored) source without it
// fails.
func TestCheckHeadersSkipsWhatGitIgnores(t *testing.T) {
	root := builtTree(t)
	git(t, root, "init", "-q")
	git(t, root, "add", ".gitignore", "page/page.go", "src/tracked.ts", "lib")
	problems, err := CheckHeaders(root)
	require.NoError(t, err)
	assert.Equal(t, builtTreeProblems, problems)
}

// A tracked file stays a source even when a pattern would ignore it.
func TestCheckHeadersChecksTrackedFilesAGitignoreMatches(t *testing.T) {
	root := builtTree(t)
	git(t, root, "init", "-q")
	git(t, root, "add", "-f", "src/types.gen.ts")
	problems, err := CheckHeaders(root)
	require.NoError(t, err)
	assert.Contains(t, problems, HeaderProblem{"src/types.gen.ts"})
	assert.NotContains(t, problems, HeaderProblem{"src/deep/more.gen.ts"})
}

// Outside a git checkout (a source tarball) the .gitignore files are
// applied as git applies them.
func TestCheckHeadersSkipsWhatTheGitignoreFilesIgnoreWithoutGit(t *testing.T) {
	root := builtTree(t)
	problems, err := CheckHeaders(root)
	require.NoError(t, err)
	assert.Equal(t, builtTreeProblems, problems)
}

// The fallback matcher answers as git check-ignore does.
func TestIgnorePatternsMatchGit(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		dir, want     bool
	}{
		{"dist/", "dist", true, true},
		{"dist/", "dist", false, false},
		{"dist/", "a/dist", true, true},
		{"/tmp/", "a/tmp", true, false},
		{"/tmp/", "tmp", true, true},
		{"*.test", "cmd/x/x.test", false, true},
		{"__debug_bin*", "cmd/__debug_bin123", false, true},
		{"/pkg/page/built/*", "pkg/page/built/a.js", false, true},
		{"/pkg/page/built/*", "pkg/page/built/public", true, true},
		{"/pkg/page/built/*", "pkg/page/built", true, false},
		{"/pkg/page/built/*", "x/pkg/page/built/a.js", false, false},
		{"doc/*.txt", "doc/a.txt", false, true},
		{"doc/*.txt", "doc/sub/a.txt", false, false},
		{"**/logs", "a/b/logs", true, true},
		{"a/**/b", "a/b", true, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a/**", "a/x/y", false, true},
		{"file[0-9].js", "file3.js", false, true},
		{"file[!0-9].js", "file3.js", false, false},
		{"?.js", "ab.js", false, false},
		{`\#hash`, "#hash", false, true},
	} {
		r, ok := parseIgnoreLine(tc.pattern)
		require.True(t, ok, tc.pattern)
		got := ignored([]ignoreRule{r}, tc.path, tc.dir)
		assert.Equal(t, tc.want, got, "%q on %q (dir %v)", tc.pattern, tc.path, tc.dir)
		assert.Equal(t, gitIgnores(t, tc.pattern, tc.path, tc.dir), got, "as git: %q on %q (dir %v)", tc.pattern, tc.path, tc.dir)
	}
	for _, skipped := range []string{"", "   ", "# comment", "/"} {
		_, ok := parseIgnoreLine(skipped)
		assert.False(t, ok, "%q is not a pattern", skipped)
	}
}

// gitIgnores asks git check-ignore whether a .gitignore holding pattern
// ignores name (a directory when dir is true).
func gitIgnores(t *testing.T, pattern, name string, dir bool) bool {
	t.Helper()
	root := t.TempDir()
	git(t, root, "init", "-q")
	writeFile(t, root, ".gitignore", pattern+"\n")
	if dir {
		writeFile(t, root, name+"/f", "")
	} else {
		writeFile(t, root, name, "")
	}
	cmd := exec.Command("git", "check-ignore", "-q", "--no-index", name)
	cmd.Dir = root
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 {
		return false
	}
	require.NoError(t, err)
	return true
}
