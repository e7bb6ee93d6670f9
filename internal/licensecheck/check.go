// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package licensecheck

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Options configure Run.
type Options struct {
	// Root is the repository root.
	Root string
	// Go says which Go packages are runtime and which development; the zero
	// value means DefaultGo. Skipped when Root has no go.mod.
	Go GoOptions
	// Out receives the report; nil discards it.
	Out io.Writer
}

// Result is what Run found.
type Result struct {
	MissingHeaders []HeaderProblem
	Dependencies   []Dependency
	// Refused are the dependencies outside the allow-list, with why.
	Refused []Refusal
}

// Refusal is a dependency the policy refuses.
type Refusal struct {
	Dependency
	Reason string
}

// OK is true when every file has its header and no dependency is refused.
func (r *Result) OK() bool { return len(r.MissingHeaders) == 0 && len(r.Refused) == 0 }

// Err describes every failure, or is nil.
func (r *Result) Err() error {
	if r.OK() {
		return nil
	}
	var b strings.Builder
	if n := len(r.MissingHeaders); n > 0 {
		fmt.Fprintf(&b, "%d source file(s) without the license header (add it with -fix):\n", n)
		for _, p := range r.MissingHeaders {
			fmt.Fprintf(&b, "  %s\n", p.File)
		}
	}
	if n := len(r.Refused); n > 0 {
		fmt.Fprintf(&b, "%d dependenc(ies) outside the license allow-list:\n", n)
		for _, d := range r.Refused {
			fmt.Fprintf(&b, "  %s %s@%s (%s): %s\n", d.Ecosystem, d.Name, d.Version, kind(d.Dependency), d.Reason)
		}
	}
	return fmt.Errorf("license check failed:\n%s", strings.TrimRight(b.String(), "\n"))
}

// Run checks the headers and the dependencies' licenses and writes the
// dependency list to o.Out: runtime and bundled dependencies first, then
// development-only tools.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Go.Runtime == nil && o.Go.Dev == nil {
		o.Go = DefaultGo
	}
	res := &Result{}
	var err error
	if res.MissingHeaders, err = CheckHeaders(o.Root); err != nil {
		return nil, err
	}
	if exists(filepath.Join(o.Root, "go.mod")) {
		deps, err := GoDependencies(ctx, o.Root, o.Go)
		if err != nil {
			return nil, err
		}
		res.Dependencies = append(res.Dependencies, deps...)
	}
	if exists(filepath.Join(o.Root, "package-lock.json")) {
		deps, err := NPMDependencies(o.Root)
		if err != nil {
			return nil, err
		}
		res.Dependencies = append(res.Dependencies, deps...)
	}
	for _, d := range res.Dependencies {
		if v := Judge(d); !v.OK {
			res.Refused = append(res.Refused, Refusal{Dependency: d, Reason: v.Reason})
		}
	}
	WriteReport(o.Out, res)
	return res, nil
}

// WriteReport writes the dependency list as Markdown tables.
func WriteReport(w io.Writer, r *Result) {
	for _, runtime := range []bool{true, false} {
		title := "Runtime and bundled dependencies"
		if !runtime {
			title = "Development-only dependencies (build, test and lint tools; not shipped)"
		}
		fmt.Fprintf(w, "## %s\n\n| ecosystem | name | version | license | verdict |\n|---|---|---|---|---|\n", title)
		if runtime {
			fmt.Fprintf(w, "<!-- npm packages marked (bundled) are in the built frontend; the other runtime npm packages are provided by Grafana -->\n")
		}
		for _, d := range r.Dependencies {
			if d.Runtime != runtime {
				continue
			}
			verdict := "ok"
			if v := Judge(d); !v.OK {
				verdict = "REFUSED: " + v.Reason
			} else if v.Reason != "" {
				verdict = "ok (" + v.Reason + ")"
			}
			lic := strings.Join(d.Licenses, ", ")
			if lic == "" {
				lic = "?"
			}
			name := d.Name
			if d.Bundled {
				name += " (bundled)"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", d.Ecosystem, name, d.Version, lic, verdict)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d dependencies, %d refused; %d source file(s) without the license header\n", len(r.Dependencies), len(r.Refused), len(r.MissingHeaders))
}

func kind(d Dependency) string {
	if d.Runtime {
		return "runtime"
	}
	return "development"
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
