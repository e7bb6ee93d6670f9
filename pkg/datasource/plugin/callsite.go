// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/emberscope/emberscope/pkg/datasource/labelframes"
	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// How a call site's samples were chosen, as the frame's meta says it.
const (
	// selectedByServer: the profile server selected them (Pyroscope's
	// StackTraceSelector.call_site).
	selectedByServer = "server"
	// selectedByDatasource: the datasource filtered the range's merged
	// profile to them (Parca, other granularities, split virtual frames).
	selectedByDatasource = "datasource"
)

// callSiteInfo tells how a focused tree was made, for the frame's meta and
// notice: the path, who selected its samples and the whole graph's total,
// against which the panel keeps widths and percentages.
type callSiteInfo struct {
	Path       []string `json:"path"`
	SelectedBy string   `json:"selectedBy"`
	WholeTotal int64    `json:"wholeTotal"`
}

// notice is the frame notice that says who selected the call site.
func (c *callSiteInfo) notice() string {
	where := strings.Join(c.Path, " > ")
	if c.SelectedBy == selectedByServer {
		return fmt.Sprintf("Focused on %s at full resolution: the profile server selected the call site's samples.", where)
	}
	return fmt.Sprintf("Focused on %s at full resolution: the datasource filtered the range's merged profile to the call site's samples (the profile server cannot select a call site).", where)
}

// callSitePlan is how one selection's call site is fetched.
type callSitePlan struct {
	// path is the whole call site, virtual frames included.
	path []string
	// matchers select the label values of the path's virtual frames.
	matchers []*labels.Matcher
	// serverPath is the function part of the path, sent to the server
	// when server is set.
	serverPath []string
	server     bool
}

// planCallSite splits path into the label matchers of its leading virtual
// frames (the query's "by (label)" values, one frame per label when no
// separator splits them) and the function frames below, and chooses who
// selects the samples: the server when it can and frames are functions,
// the datasource otherwise.
func planCallSite(src source.Source, r *request, path []string) *callSitePlan {
	p := &callSitePlan{path: path, serverPath: path}
	virtual, sep := r.Query.VirtualLabels()
	splittable := sep == ""
	if len(virtual) > 0 && splittable {
		for i, label := range virtual {
			if i >= len(path) {
				break
			}
			switch path[i] {
			case flame.OtherName:
				// The values beyond the limit: no single matcher.
			case labelframes.MissingName(label):
				p.matchers = append(p.matchers, labels.MustNewMatcher(labels.MatchEqual, label, ""))
			default:
				p.matchers = append(p.matchers, labels.MustNewMatcher(labels.MatchEqual, label, path[i]))
			}
		}
		p.serverPath = path[min(len(virtual), len(path)):]
	}
	functions := r.Granularity == "" || r.Granularity == model.GranularityFunctions
	// ignore and hide need the whole merged profile: the datasource cuts
	// the call site from its filtered tree.
	p.server = functions && splittable && source.SelectsCallSite(src) && !hasSampleFilters(r.Query)
	return p
}

// wholeInTree tells whether the tree built for the plan is the whole
// graph's, so its total is the whole total: the datasource cuts the call
// site itself, from a selection no virtual frame narrowed, with no sample
// filter (ignore drops samples the whole graph's total keeps).
func (p *callSitePlan) wholeInTree(r *request) bool {
	return !p.server && len(p.matchers) == 0 && !hasSampleFilters(r.Query)
}

// source returns src asked for the call site's samples: the server's
// selection, or the untruncated merged profile for the datasource to cut
// (flame.CallSite on the built tree).
func (p *callSitePlan) source(src source.Source, g model.Granularity) source.Source {
	if p.server {
		return &serverCallSite{Source: src, path: p.serverPath}
	}
	return &wholeProfile{Source: src, g: g}
}

// serverCallSite asks every merge for the call site's samples.
type serverCallSite struct {
	source.Source
	path []string
}

func (s *serverCallSite) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	r.CallSite = s.path
	return s.Source.MergeStacks(ctx, r)
}

// wholeProfile builds each merge's tree from the merged pprof, untruncated,
// so the datasource's cut to the call site sees every sample.
type wholeProfile struct {
	source.Source
	g model.Granularity
}

func (s *wholeProfile) MergeStacks(ctx context.Context, r source.StacksRequest) (*flame.Tree, error) {
	r.MaxNodes = 0
	r.CallSite = nil
	p, err := s.MergeProfile(ctx, r)
	if err != nil {
		return nil, err
	}
	return granularTreeOf(p, r.ProfileTypeID, s.g, "call site")
}

// granularTreeOf is the tree of a merged pprof at a granularity, for the
// sources that build trees from the whole profile (call sites filtered in the
// datasource, ignore and hide); what names the step in its errors.
func granularTreeOf(p *profile.Profile, profileTypeID string, g model.Granularity, what string) (*flame.Tree, error) {
	if len(p.Sample) == 0 {
		return flame.New(), nil
	}
	idx, err := pprofconv.SampleIndexOf(p, profileTypeID)
	if err != nil {
		return nil, &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("%s: %v", what, err), Err: err}
	}
	t, err := pprofconv.GranularTree(p, idx, g)
	if err != nil {
		return nil, &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("%s: the merged profile of %s cannot be read: %v", what, profileTypeID, err), Err: err}
	}
	return t, nil
}

// wholeTotal is the total of sel without its call site: the whole graph's,
// as the sum of its series over the range (one step), which no server
// builds a call tree for.
func (d *Datasource) wholeTotal(ctx context.Context, sel source.Selection) (int64, error) {
	sel.CallSite = nil
	sel.SpanSelector, sel.ProfileIDs = nil, nil
	step := max(sel.Range.To.Sub(sel.Range.From), time.Second)
	series, err := d.src.Series(ctx, source.SeriesRequest{Selection: sel, Step: step})
	if err != nil {
		return 0, err
	}
	var total float64
	for _, s := range series {
		for _, p := range s.Points {
			total += p.Value
		}
	}
	return int64(math.Round(total)), nil
}

// narrowSelection adds the plan's label matchers to sel.
func (p *callSitePlan) narrowSelection(sel source.Selection) (source.Selection, error) {
	if len(p.matchers) == 0 {
		return sel, nil
	}
	s, err := query.WithMatchers(sel.LabelSelector, p.matchers...)
	if err != nil {
		return sel, userErrorf("callSite: the virtual frames' labels cannot be added to %s: %v", sel.LabelSelector, err)
	}
	sel.LabelSelector = s
	return sel, nil
}
