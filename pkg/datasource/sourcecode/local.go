// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package sourcecode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LocalRoots finds files in folders on this server. A profile's path is
// matched to a root by its longest suffix present there, so an absolute
// path from the build machine (/home/ci/src/app/main.go), a -trimpath path
// (example.com/mod@v1.2.0/x.go) and a standard library path
// (runtime/proc.go under a Go root's src) all resolve. Files are opened
// through os.Root: nothing outside a root is read, symlinks included.
type LocalRoots struct {
	Roots        []string
	MaxFileBytes int64
}

// Name implements Provider.
func (l *LocalRoots) Name() string { return "local source roots " + strings.Join(l.Roots, ", ") }

// Find implements Provider.
func (l *LocalRoots) Find(_ context.Context, r Request) (*File, error) {
	elems, err := profilePathElems(r.Path)
	if err != nil {
		return nil, err
	}
	limit := l.MaxFileBytes
	if limit <= 0 {
		limit = DefaultMaxFileBytes
	}
	for i := range elems {
		suffix := strings.Join(elems[i:], "/")
		for _, dir := range l.Roots {
			f, err := readInRoot(dir, suffix, limit)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			return &File{Content: f, Origin: "local root " + dir + " (" + suffix + ")", Provider: "local"}, nil
		}
	}
	return nil, notFoundf("no suffix of %s is a file under %s", r.Path, strings.Join(l.Roots, ", "))
}

// profilePathElems splits a profile's file path into its elements,
// refusing one that climbs with "..".
func profilePathElems(p string) ([]string, error) {
	if p == "" {
		return nil, refusef("the profile names no file")
	}
	if strings.ContainsRune(p, 0) {
		return nil, refusef("path %q holds a NUL byte", p)
	}
	slashed := strings.ReplaceAll(p, "\\", "/")
	var elems []string
	for _, e := range strings.Split(slashed, "/") {
		switch e {
		case "..":
			return nil, refusef("path %q climbs out with ..; no source root is searched for it", p)
		case "", ".":
			continue
		}
		elems = append(elems, e)
	}
	if len(elems) > 0 && len(elems[0]) == 2 && elems[0][1] == ':' { // a Windows drive
		elems = elems[1:]
	}
	if len(elems) == 0 {
		return nil, refusef("path %q names no file", p)
	}
	return elems, nil
}

// readInRoot reads rel below dir through os.Root, which refuses ".." and
// symlinks leading out of dir; fs.ErrNotExist when there is no such file.
func readInRoot(dir, rel string, limit int64) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("source root %s cannot be opened: %w", dir, err)
	}
	defer root.Close()
	name := filepath.FromSlash(rel)
	if _, err := root.Lstat(name); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
			return nil, fs.ErrNotExist
		}
		if strings.Contains(err.Error(), "not a directory") {
			return nil, fs.ErrNotExist
		}
		return nil, refusef("%s under source root %s: %v", rel, dir, err)
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, refusef("%s under source root %s leads outside the root (a symlink?): %v", rel, dir, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s under source root %s: %w", rel, dir, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fs.ErrNotExist
	}
	if st.Size() > limit {
		return nil, refusef("%s under source root %s is %d bytes, over the cap of %d bytes", rel, dir, st.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s under source root %s: %w", rel, dir, err)
	}
	if int64(len(b)) > limit {
		return nil, refusef("%s under source root %s is over the cap of %d bytes", rel, dir, limit)
	}
	return b, nil
}
