// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package release

import (
	"archive/zip"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// writeZip zips the folder base/top as top/... into file, keeping each
// file's permissions (executables stay 0755 when unpacked), deflating at
// level (flate's levels; a release uses flate.DefaultCompression).
func writeZip(base, top, file string, level int) (err error) {
	tmp := file + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			out.Close()
			os.Remove(tmp)
		}
	}()
	zw := zip.NewWriter(out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, level) })
	err = filepath.WalkDir(filepath.Join(base, top), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		h, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		h.Name = filepath.ToSlash(rel)
		if d.IsDir() {
			h.Name += "/"
		} else {
			h.Method = zip.Deflate
		}
		w, err := zw.CreateHeader(h)
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	})
	if err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

// writeChecksum writes <zip>.sha256 in sha256sum's format ("<hex>  <name>").
func writeChecksum(zipPath string) (string, error) {
	sum, err := fileSHA256(zipPath)
	if err != nil {
		return "", err
	}
	name := zipPath + ".sha256"
	line := fmt.Sprintf("%s  %s\n", sum, filepath.Base(zipPath))
	return name, os.WriteFile(name, []byte(line), 0o644)
}

func fileSHA256(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Unzip extracts a release archive into dir, refusing entries that would
// land outside it, and returns the archive's top-level folder names.
func Unzip(file, dir string) ([]string, error) {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	tops := map[string]bool{}
	var order []string
	for _, f := range zr.File {
		name := path.Clean(f.Name)
		if path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return nil, fmt.Errorf("%s: entry %q points outside the archive", file, f.Name)
		}
		top, _, _ := strings.Cut(name, "/")
		if !tops[top] {
			tops[top] = true
			order = append(order, top)
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return nil, err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return nil, err
		}
		if err := extract(f, target); err != nil {
			return nil, err
		}
	}
	return order, nil
}

func extract(f *zip.File, target string) error {
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, f.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	// The umask may have dropped bits; the archive's mode is what counts.
	return os.Chmod(target, f.Mode().Perm())
}

// CheckZip unpacks a release archive into a temporary directory and checks
// it: one folder named after the plugin id, holding a plugin CheckDir accepts.
func CheckZip(file string, e Expect) ([]Problem, error) {
	dir, err := os.MkdirTemp("", "emberscope-release-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	tops, err := Unzip(file, dir)
	if err != nil {
		return nil, err
	}
	if len(tops) != 1 {
		return []Problem{{Rule: "archive", File: filepath.Base(file), Message: fmt.Sprintf("the archive must hold exactly one folder (the plugin id), found %q", tops)}}, nil
	}
	var problems []Problem
	if e.PluginID != "" && tops[0] != e.PluginID {
		problems = append(problems, Problem{Rule: "archive", File: filepath.Base(file), Message: fmt.Sprintf("the archive's folder is %q, want the plugin id %q", tops[0], e.PluginID)})
	}
	return append(problems, CheckDir(filepath.Join(dir, tops[0]), e)...), nil
}
