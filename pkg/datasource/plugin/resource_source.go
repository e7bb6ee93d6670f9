// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/sourcecode"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// sourceMaxNodes is the node budget the source view asks for: the largest
// Pyroscope and the store accept, so that a function's lines are whole.
const sourceMaxNodes = 1 << 20

// Labels the source view reads from the selected series.
const (
	labelRepository = "service_repository"
	labelGitRef     = "service_git_ref"
	labelRootPath   = "service_root_path"
	labelGoVersion  = "go_version"
	labelGoPlatform = "go_platform"
)

// SourceView is the answer of the source resource.
type SourceView struct {
	Function      string `json:"function"`
	ProfileTypeID string `json:"profileTypeId"`
	Unit          string `json:"unit"`
	// Total is the whole selection's value, for percentages.
	Total int64        `json:"total"`
	Files []SourceFile `json:"files"`
	// Truncated says the server cut the stacks (its "other" node), so
	// the numbers may be short of the whole.
	Truncated bool `json:"truncated,omitempty"`
	// Diff is set when the lines carry a diff's two sides. Total is then
	// the baseline's, as pprof's -diff_base takes it for percentages.
	Diff            bool  `json:"diff,omitempty"`
	BaselineTotal   int64 `json:"baselineTotal,omitempty"`
	ComparisonTotal int64 `json:"comparisonTotal,omitempty"`
	// Warnings are about the labels read (several commits, say).
	Warnings []string `json:"warnings,omitempty"`
}

// SourceFile is one file of the function with its lines.
type SourceFile struct {
	// Path is the file as the profile names it.
	Path string `json:"path"`
	// Origin says where the text came from; "" when none was found.
	Origin    string `json:"origin,omitempty"`
	Provider  string `json:"provider,omitempty"`
	Link      string `json:"link,omitempty"`
	GoVersion string `json:"goVersion,omitempty"`
	StartLine int64  `json:"startLine,omitempty"`
	// Message, when no source was found, names each place looked at.
	Message string               `json:"message,omitempty"`
	Tried   []sourcecode.Attempt `json:"tried,omitempty"`
	// Warning says the file found does not match the profile.
	Warning string       `json:"warning,omitempty"`
	Lines   []SourceLine `json:"lines"`
}

// SourceLine is one line with its cost.
type SourceLine struct {
	Line  int64  `json:"line"`
	Text  string `json:"text"`
	Self  int64  `json:"self"`
	Total int64  `json:"total"`
	// Baseline and Comparison are a diff's two sides; Self and Total are
	// then the comparison's less the baseline's.
	Baseline   *SideCost `json:"baseline,omitempty"`
	Comparison *SideCost `json:"comparison,omitempty"`
}

// sourceView answers GET source?profileTypeId=&labelSelector=&from=&to=&function=
// with the function's source files, each line with the self and total
// `go tool pprof -list` shows for the selection. With comparison.labelSelector,
// comparison.from and comparison.to (and optionally baseline.from and
// baseline.to), the two sides of a diff query, each line carries both sides
// and their difference, as `go tool pprof -list -diff_base` shows it.
func (d *Datasource) sourceView(r *http.Request) (any, error) {
	v, err := params(r)
	if err != nil {
		return nil, err
	}
	fn := strings.TrimSpace(v.Get("function"))
	if fn == "" {
		return nil, userErrorf("function: missing; name the function whose source to show, such as main.main")
	}
	q, err := query.Compile(query.Model{
		ProfileTypeID: strings.TrimSpace(v.Get("profileTypeId")),
		LabelSelector: v.Get("labelSelector"),
		Expr:          v.Get("expr"),
	})
	if err != nil {
		return nil, err
	}
	typeID := q.ProfileTypeID
	if typeID == "" {
		return nil, userErrorf("profileTypeId: missing; name the profile type, or give expr")
	}
	pt, err := model.ParseProfileType(typeID)
	if err != nil {
		return nil, userErrorf("profileTypeId: %v", err)
	}
	tr, err := pgoRange(v, time.Now())
	if err != nil {
		return nil, err
	}
	sel := source.Selection{ProfileTypeID: q.ProfileTypeID, LabelSelector: q.Selector, Range: tr}
	sides, err := diffSidesOf(v, sel)
	if err != nil {
		return nil, err
	}
	if sides != nil {
		return d.sourceDiffView(r.Context(), fn, pt, *sides)
	}
	lines, err := d.sideLines(r.Context(), sel, pt, fn)
	if err != nil {
		return nil, err
	}
	out := &SourceView{Function: fn, ProfileTypeID: typeID, Files: []SourceFile{}, Unit: lines.unit, Total: lines.total, Truncated: lines.truncated}
	if len(lines.files) == 0 {
		if lines.unit == "" {
			return out, nil
		}
		return nil, &model.Error{Kind: model.KindNotFound, Msg: fmt.Sprintf("function %q has no samples in the selection", fn)}
	}
	labels := d.sourceLabels(r.Context(), sel.LabelSelector, typeID, tr, &out.Warnings)
	finder := d.sourceFinder()
	for _, f := range lines.files {
		out.Files = append(out.Files, d.sourceFile(r.Context(), finder, fn, f, nil, labels))
	}
	return out, nil
}

// selectionLines is one selection's lines of a function.
type selectionLines struct {
	// unit is "" when the profile has no sample type of the profile type.
	unit      string
	total     int64
	truncated bool
	files     []*functionFile
}

// sideLines merges the selection's profile and sums the function's lines.
func (d *Datasource) sideLines(ctx context.Context, sel source.Selection, pt model.ProfileType, fn string) (*selectionLines, error) {
	p, err := d.src.MergeProfile(ctx, source.StacksRequest{Selection: sel, MaxNodes: sourceMaxNodes})
	if err != nil {
		return nil, err
	}
	idx := sampleIndexOf(p, pt.SampleType, pt.SampleUnit)
	out := &selectionLines{}
	if idx < 0 {
		return out, nil
	}
	out.unit = p.SampleType[idx].Unit
	for _, s := range p.Sample {
		out.total += s.Value[idx]
	}
	out.truncated = hasOtherNode(p)
	out.files = functionLines(p, fn, idx)
	return out, nil
}

// sourceFile looks the file up and lays its lines out.
// sides, on a diff, holds each side's lines of the file (f's are their
// difference).
func (d *Datasource) sourceFile(ctx context.Context, finder *sourcecode.Finder, fn string, f *functionFile, sides *fileSides, labels sourcecode.Request) SourceFile {
	out := SourceFile{Path: f.Path, StartLine: f.StartLine, Lines: []SourceLine{}}
	req := labels
	req.Path, req.Function = f.Path, fn
	found, tried := finder.Find(ctx, req)
	if found == nil {
		out.Tried = tried
		msgs := make([]string, len(tried))
		for i, t := range tried {
			msgs[i] = t.Provider + ": " + t.Message
		}
		out.Message = fmt.Sprintf("no source found for %s; looked in %s", f.Path, strings.Join(msgs, "; "))
		for _, l := range sortedLines(f) {
			c := f.Lines[l]
			out.Lines = append(out.Lines, sides.with(SourceLine{Line: l, Self: c.Self, Total: c.Total}))
		}
		return out
	}
	out.Origin, out.Provider, out.Link, out.GoVersion = found.Origin, found.Provider, found.Link, found.GoVersion
	if out.Link == "" {
		out.Link = repositoryLink(labels, f.Path)
	}
	text := splitLines(found.Content)
	first, last := f.lineSpan()
	for l := first; l <= last && l <= int64(len(text)); l++ {
		sl := SourceLine{Line: l, Text: text[l-1]}
		if c := f.Lines[l]; c != nil {
			sl.Self, sl.Total = c.Self, c.Total
		}
		out.Lines = append(out.Lines, sides.with(sl))
	}
	out.Warning = mismatch(fn, f, text)
	return out
}

// repositoryLink is the file's page in the repository of the profile's
// labels at its commit, "" when the labels do not place it there.
func repositoryLink(labels sourcecode.Request, path string) string {
	repo, err := sourcecode.ParseRepository(labels.Repository)
	if err != nil {
		return ""
	}
	rel, err := repo.RelativePath(path, labels.RootPath)
	if err != nil {
		return ""
	}
	return repo.Link(labels.Ref, rel)
}

func splitLines(b []byte) []string {
	b = bytes.TrimSuffix(b, []byte("\n"))
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// mismatch says why the file found is not the one profiled: the
// function's recorded start line is not a declaration of it, or the file
// is shorter than its sampled lines.
func mismatch(fn string, f *functionFile, text []string) string {
	if _, last := f.lineSpan(); len(text) < int(last)-5 {
		return fmt.Sprintf("the file found has %d lines, but the profile samples %s at line %d: it is not the file that was profiled", len(text), fn, last-5)
	}
	if f.StartLine <= 0 {
		return ""
	}
	if f.StartLine > int64(len(text)) {
		return fmt.Sprintf("the profile says %s starts at line %d, past the end of the file found (%d lines): it is not the file that was profiled", fn, f.StartLine, len(text))
	}
	line := text[f.StartLine-1]
	short := shortFuncName(fn)
	if !strings.Contains(line, "func") || (short != "" && !strings.Contains(line, short)) {
		return fmt.Sprintf("the profile says %s starts at line %d, but that line of the file found is %q: the file has changed since it was profiled", fn, f.StartLine, strings.TrimSpace(line))
	}
	return ""
}

// shortFuncName is the name a declaration of fn spells (main.(*T).run →
// run), "" for a closure (main.main.func1), whose declaration has no name.
func shortFuncName(fn string) string {
	if i := strings.Index(fn, "["); i >= 0 { // generic instantiation
		fn = fn[:i]
	}
	name := fn[strings.LastIndex(fn, ".")+1:]
	if strings.HasPrefix(name, "func") && strings.Trim(name[4:], "0123456789") == "" {
		return ""
	}
	if _, err := fmt.Sscanf(name, "%d", new(int)); err == nil { // main.f.func1.2
		return ""
	}
	return name
}

func sortedLines(f *functionFile) []int64 {
	out := slices.Collect(maps.Keys(f.Lines))
	slices.Sort(out)
	return out
}

// hasOtherNode tells whether the server cut stacks into its "other" node.
func hasOtherNode(p *profile.Profile) bool {
	for _, f := range p.Function {
		if f.Name == "other" {
			return true
		}
	}
	return false
}
