// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"

	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// granularSource returns src itself at functions granularity. At lines or
// files it returns src whose MergeStacks builds the tree from the merged
// pprof instead (MergeProfile: Pyroscope's and our store's SelectMergeProfile,
// Parca's PPROF report), since only the pprof keeps each frame's file and
// line: one frame per function and line ("pkg.Func file.go:123") or per file,
// as pprof's -lines and -files aggregate (pprofconv.GranularTree). Everything
// above MergeStacks (virtual frames from labels, the query's pipeline, top
// table, diff, truncation) is unchanged.
func granularSource(src source.Source, g model.Granularity) source.Source {
	if g == "" || g == model.GranularityFunctions {
		return src
	}
	return &granular{Source: src, g: g}
}

type granular struct {
	source.Source
	g model.Granularity
}

// MergeStacks merges the selection's pprof and builds its tree at g.
func (s *granular) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	p, err := s.MergeProfile(ctx, r)
	if err != nil {
		return nil, err
	}
	if len(p.Sample) == 0 {
		return flame.New(), nil
	}
	idx, err := pprofconv.SampleIndexOf(p, r.ProfileTypeID)
	if err != nil {
		return nil, &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("granularity %s: %v", s.g, err), Err: err}
	}
	t, err := pprofconv.GranularTree(p, idx, s.g)
	if err != nil {
		return nil, &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("granularity %s: the merged profile of %s cannot be read: %v", s.g, r.ProfileTypeID, err), Err: err}
	}
	return t, nil
}
