// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Package release builds the plugin's release archive: the frontend and the
// backend for every platform, laid out as Grafana loads a plugin (one folder
// named after the app's id, nested plugins in their own folders), zipped as
// <plugin-id>-<version>.zip with a sha256 checksum file beside it, and checked
// against the rules of Grafana's plugin validator before it is written.
package release

import (
	"compress/flate"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/build/buildinfo"
)

// Platform is one GOOS/GOARCH pair the backend is built for.
type Platform struct{ OS, Arch string }

func (p Platform) String() string { return p.OS + "/" + p.Arch }

// Platforms are the platforms a release carries.
var Platforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// ExecutableName is the file name Grafana looks for: the plugin.json
// executable with _<os>_<arch> appended (and .exe on Windows).
func ExecutableName(executable string, p Platform) string {
	name := fmt.Sprintf("%s_%s_%s", executable, p.OS, p.Arch)
	if p.OS == "windows" {
		name += ".exe"
	}
	return name
}

// Options configure Build.
type Options struct {
	// Root is the repository root (package.json, src/, dist/, pkg/).
	Root string
	// OutDir receives the zip and its checksum; it is created when missing.
	OutDir string
	// Platforms to build the backend for; nil means all of Platforms.
	Platforms []Platform
	// SkipFrontend uses Root/dist as it is instead of running the
	// frontend build first.
	SkipFrontend bool
	// Log receives the build's progress and the tools' output; nil discards it.
	Log io.Writer
	// fastZip deflates at flate.BestSpeed instead of the default level: for
	// the package's tests, which check the archive's entries, not its size,
	// and deflate a ~40 MB executable under the race detector.
	fastZip bool
}

// Result names what Build wrote.
type Result struct {
	PluginID, Version string
	// Zip is the archive; Checksum the file holding its sha256.
	Zip, Checksum string
}

// Build builds the frontend (unless skipped) and the backend, stages the
// plugin folder, checks it, and writes the zip and its checksum.
func Build(ctx context.Context, o Options) (Result, error) {
	if o.Root == "" || o.OutDir == "" {
		return Result{}, errors.New("release: Options.Root and Options.OutDir are required")
	}
	if o.Platforms == nil {
		o.Platforms = Platforms
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	root, err := filepath.Abs(o.Root)
	if err != nil {
		return Result{}, err
	}
	if !o.SkipFrontend {
		fmt.Fprintln(o.Log, "release: building the frontend (npm run build)")
		if err := run(ctx, o.Log, root, nil, "npm", "run", "build"); err != nil {
			return Result{}, fmt.Errorf("release: frontend build: %w", err)
		}
	}
	dist := filepath.Join(root, "dist")
	app, err := readPluginJSON(filepath.Join(dist, "plugin.json"))
	if err != nil {
		return Result{}, fmt.Errorf("release: %w (build the frontend first)", err)
	}
	version, err := PackageVersion(filepath.Join(root, "package.json"))
	if err != nil {
		return Result{}, err
	}
	if app.Info.Version != version {
		return Result{}, fmt.Errorf("release: dist/plugin.json version %q differs from package.json version %q (rebuild the frontend)", app.Info.Version, version)
	}

	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return Result{}, err
	}
	staging, err := os.MkdirTemp(o.OutDir, ".staging-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(staging)
	pluginDir := filepath.Join(staging, app.ID)
	backends, err := stageFrontend(dist, pluginDir)
	if err != nil {
		return Result{}, err
	}
	for _, b := range backends {
		for _, p := range o.Platforms {
			out := filepath.Join(pluginDir, b.dir, filepath.FromSlash(ExecutableName(b.executable, p)))
			fmt.Fprintf(o.Log, "release: building the backend for %s\n", p)
			if err := buildBackend(ctx, o.Log, root, b.pluginID, version, p, out); err != nil {
				return Result{}, fmt.Errorf("release: backend for %s: %w", p, err)
			}
		}
	}
	problems := CheckDir(pluginDir, Expect{PluginID: app.ID, Version: version, SourceDir: filepath.Join(root, "src"),
		GoMod: filepath.Join(root, "go.mod"), Platforms: o.Platforms})
	for _, p := range problems {
		if p.Warning {
			fmt.Fprintf(o.Log, "release: warning: %s\n", p)
		}
	}
	if errs := Errors(problems); len(errs) > 0 {
		return Result{}, &ProblemsError{Problems: errs}
	}
	res := Result{PluginID: app.ID, Version: version, Zip: filepath.Join(o.OutDir, app.ID+"-"+version+".zip")}
	level := flate.DefaultCompression
	if o.fastZip {
		level = flate.BestSpeed
	}
	if err := writeZip(staging, app.ID, res.Zip, level); err != nil {
		return Result{}, err
	}
	if res.Checksum, err = writeChecksum(res.Zip); err != nil {
		return Result{}, err
	}
	fmt.Fprintf(o.Log, "release: wrote %s and %s\n", res.Zip, res.Checksum)
	return res, nil
}

// backend is a plugin with an executable: its folder in the package, the
// executable's name in plugin.json, and the plugin's id (which the binary
// carries in its build info).
type backend struct{ dir, executable, pluginID string }

// stageFrontend copies dist into dir, leaving out executables and build
// manifests of earlier backend builds (the release builds its own), and
// returns the plugins that declare an executable.
func stageFrontend(dist, dir string) ([]backend, error) {
	var backends []backend
	var executables []string
	err := filepath.WalkDir(dist, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "plugin.json" {
			return err
		}
		pj, err := readPluginJSON(path)
		if err != nil {
			return err
		}
		if pj.Executable != "" {
			rel, _ := filepath.Rel(dist, filepath.Dir(path))
			backends = append(backends, backend{dir: rel, executable: filepath.ToSlash(pj.Executable), pluginID: pj.ID})
			executables = append(executables, filepath.Join(filepath.Dir(path), filepath.FromSlash(pj.Executable)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = filepath.WalkDir(dist, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dist, path)
		target := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if d.Name() == "go_plugin_build_manifest" {
			return nil
		}
		for _, exe := range executables {
			if strings.HasPrefix(path, exe+"_") {
				return nil
			}
		}
		return copyFile(path, target, 0o644)
	})
	return backends, err
}

// buildBackend builds ./pkg as the SDK's build targets do: static, stripped,
// with the SDK's build info naming the plugin the executable belongs to.
func buildBackend(ctx context.Context, log io.Writer, root, pluginID, version string, p Platform, out string) error {
	flags := map[string]string{}
	buildinfo.Info{Time: time.Now().UnixMilli(), PluginID: pluginID, Version: version}.AppendFlags(flags)
	keys := make([]string, 0, len(flags))
	for k := range flags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ldflags := `-w -s -extldflags "-static"`
	for _, k := range keys {
		ldflags += fmt.Sprintf(" -X '%s=%s'", k, flags[k])
	}
	env := []string{"GOOS=" + p.OS, "GOARCH=" + p.Arch, "CGO_ENABLED=0"}
	if err := run(ctx, log, root, env, "go", "build", "-trimpath", "-tags", "arrow_json_stdlib", "-ldflags", ldflags, "-o", out, "./pkg"); err != nil {
		return err
	}
	return os.Chmod(out, 0o755)
}

func run(ctx context.Context, log io.Writer, dir string, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}

func copyFile(from, to string, mode fs.FileMode) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// PackageVersion reads the version of a package.json: the release's version.
func PackageVersion(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if pkg.Version == "" {
		return "", fmt.Errorf("%s: no version", path)
	}
	return pkg.Version, nil
}
