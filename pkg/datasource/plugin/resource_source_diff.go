// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// SideCost is one side's self and total of a line on a diff.
type SideCost struct {
	Self  int64 `json:"self"`
	Total int64 `json:"total"`
}

// diffSides are the two selections of a diff, as a diff query carries them:
// the query's selector over the baseline range (its range unless
// baseline.from/to say otherwise) against the comparison's selector and range.
type diffSides struct {
	baseline, comparison source.Selection
}

// diffSidesOf reads comparison.labelSelector, comparison.from and
// comparison.to (epoch milliseconds), and baseline.from and baseline.to; nil
// when the request names no comparison.
func diffSidesOf(v url.Values, sel source.Selection) (*diffSides, error) {
	c := comparison{
		LabelSelector: v.Get("comparison.labelSelector"),
		From:          json.Number(strings.TrimSpace(v.Get("comparison.from"))),
		To:            json.Number(strings.TrimSpace(v.Get("comparison.to"))),
	}
	if c.LabelSelector == "" && c.From == "" && c.To == "" {
		if v.Get("baseline.from") != "" || v.Get("baseline.to") != "" {
			return nil, userErrorf("baseline.from/baseline.to: given without a comparison; a diff needs comparison.labelSelector, comparison.from and comparison.to")
		}
		return nil, nil
	}
	if c.From == "" || c.To == "" {
		return nil, userErrorf("comparison: a diff needs comparison.from and comparison.to in epoch milliseconds")
	}
	cr, err := parseComparison(&c, nil)
	if err != nil {
		return nil, err
	}
	base, err := parseBaseline(&baselineModel{
		From: json.Number(strings.TrimSpace(v.Get("baseline.from"))),
		To:   json.Number(strings.TrimSpace(v.Get("baseline.to"))),
	})
	if err != nil {
		return nil, err
	}
	out := &diffSides{baseline: sel, comparison: sel}
	out.comparison.LabelSelector, out.comparison.Range = cr.Selector, cr.Range
	if base != nil {
		out.baseline.Range = *base
	}
	return out, nil
}

// fileSides is one file's lines on each side of a diff.
type fileSides struct {
	baseline, comparison map[int64]*lineCost
}

// with adds the line's two sides; l is returned as is outside a diff.
func (s *fileSides) with(l SourceLine) SourceLine {
	if s == nil {
		return l
	}
	side := func(m map[int64]*lineCost) *SideCost {
		if c := m[l.Line]; c != nil {
			return &SideCost{Self: c.Self, Total: c.Total}
		}
		return &SideCost{}
	}
	l.Baseline, l.Comparison = side(s.baseline), side(s.comparison)
	return l
}

// sourceDiffView answers the source resource for a diff: the function's
// files on either side, each line with both sides and their difference.
// The text is looked up with the comparison's labels.
func (d *Datasource) sourceDiffView(ctx context.Context, fn string, pt model.ProfileType, sides diffSides) (*SourceView, error) {
	var base, comp *selectionLines
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) { base, err = d.sideLines(gctx, sides.baseline, pt, fn); return err })
	g.Go(func() (err error) { comp, err = d.sideLines(gctx, sides.comparison, pt, fn); return err })
	if err := g.Wait(); err != nil {
		return nil, err
	}
	typeID := sides.comparison.ProfileTypeID
	out := &SourceView{
		Function: fn, ProfileTypeID: typeID, Files: []SourceFile{}, Diff: true,
		Unit:  comp.unit,
		Total: base.total, BaselineTotal: base.total, ComparisonTotal: comp.total,
		Truncated: base.truncated || comp.truncated,
	}
	if out.Unit == "" {
		out.Unit = base.unit
	}
	files, perFile := diffFiles(base.files, comp.files)
	if len(files) == 0 {
		if out.Unit == "" {
			return out, nil
		}
		return nil, &model.Error{Kind: model.KindNotFound, Msg: fmt.Sprintf("function %q has no samples on either side of the diff", fn)}
	}
	labels := d.sourceLabels(ctx, sides.comparison.LabelSelector, typeID, sides.comparison.Range, &out.Warnings)
	var ignored []string
	baseLabels := d.sourceLabels(ctx, sides.baseline.LabelSelector, typeID, sides.baseline.Range, &ignored)
	if baseLabels.Ref != labels.Ref && baseLabels.Ref != "" && labels.Ref != "" {
		out.Warnings = append(out.Warnings, fmt.Sprintf("the baseline was profiled at %s and the comparison at %s: the text is the comparison's, so the baseline's numbers may belong to other lines", baseLabels.Ref, labels.Ref))
	}
	finder := d.sourceFinder()
	for _, f := range files {
		out.Files = append(out.Files, d.sourceFile(ctx, finder, fn, f, perFile[f.Path], labels))
	}
	return out, nil
}

// diffFiles pairs the two sides' files by path: each file's lines are the
// ones sampled on either side, valued comparison less baseline, as
// `go tool pprof -diff_base` values them. The comparison's files come first.
func diffFiles(base, comp []*functionFile) ([]*functionFile, map[string]*fileSides) {
	var out []*functionFile
	merged := map[string]*functionFile{}
	sides := map[string]*fileSides{}
	add := func(f *functionFile, sign int64, side func(*fileSides) *map[int64]*lineCost) {
		m := merged[f.Path]
		if m == nil {
			m = &functionFile{Path: f.Path, StartLine: f.StartLine, Lines: map[int64]*lineCost{}}
			merged[f.Path] = m
			sides[f.Path] = &fileSides{}
			out = append(out, m)
		}
		*side(sides[f.Path]) = f.Lines
		for l, c := range f.Lines {
			d := m.Lines[l]
			if d == nil {
				d = &lineCost{}
				m.Lines[l] = d
			}
			d.Self += sign * c.Self
			d.Total += sign * c.Total
		}
	}
	for _, f := range comp {
		add(f, 1, func(s *fileSides) *map[int64]*lineCost { return &s.comparison })
	}
	for _, f := range base {
		add(f, -1, func(s *fileSides) *map[int64]*lineCost { return &s.baseline })
	}
	return out, sides
}
