// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/pkg/datasource/query"
	"github.com/emberscope/emberscope/pkg/datasource/source"
	"github.com/emberscope/emberscope/pkg/datasource/source/filesource"
	"github.com/emberscope/emberscope/pkg/profile/fileformat"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/model"
)

// adhocLive is a live query as one side of a comparison ("this benchmark
// against production over the last hour"): the datasource's profile type,
// a label selector and a range in epoch milliseconds.
type adhocLive struct {
	ProfileTypeID string `json:"profileTypeId"`
	LabelSelector string `json:"labelSelector"`
	From          int64  `json:"from"`
	To            int64  `json:"to"`
}

// adhocSide is one side of a comparison as files: opened files, or a live
// query merged through the datasource's backend into one pprof profile.
// Both kinds then take the same path (trees, -normalize, -base, export).
type adhocSide struct {
	role string // "baseline" or "comparison", for messages
	src  *filesource.Source
	// req is the comparison's request with this side's profile type and
	// selector: a live side's selector was applied when it was merged.
	req *request
}

// adhocSideOf resolves one side: ids of open files, or a live query.
func (d *Datasource) adhocSideOf(ctx context.Context, role string, ids []string, live *adhocLive, q *request) (*adhocSide, error) {
	switch {
	case live != nil && len(ids) > 0:
		return nil, userErrorf("%s: give open files or a live query, not both", role)
	case live == nil:
		es, err := adhocEntries(ctx, ids)
		if err != nil {
			return nil, userErrorf("%s: %v", role, err)
		}
		return &adhocSide{role: role, src: filesource.New(filesOf(es)...), req: q}, nil
	}
	p, name, err := d.mergeLive(ctx, role, live)
	if err != nil {
		return nil, err
	}
	f := &fileformat.File{Name: name, Format: fileformat.FormatPprof, Profile: p}
	return sideOfProfile(role, f, q), nil
}

// sideOfProfile is a side over one single-sample-type profile, which it
// selects whole under q's functions.
func sideOfProfile(role string, f *fileformat.File, q *request) *adhocSide {
	src := filesource.New(f)
	types, _ := src.ProfileTypes(context.Background(), source.TimeRange{})
	r := *q
	sq := *q.Query
	if len(types) > 0 {
		sq.ProfileTypeID = types[0].String()
	}
	sq.Selector, sq.Matchers = "{}", nil
	r.Query = &sq
	return &adhocSide{role: role, src: src, req: &r}
}

// mergeLive merges a live query through the datasource's backend (our
// store, Pyroscope or Parca) into one pprof profile.
func (d *Datasource) mergeLive(ctx context.Context, role string, live *adhocLive) (*profile.Profile, string, error) {
	if strings.TrimSpace(live.ProfileTypeID) == "" {
		return nil, "", userErrorf("%s: the live query has no profileTypeId", role)
	}
	if live.From <= 0 || live.To <= live.From {
		return nil, "", userErrorf("%s: the live query's range from %d to %d (epoch ms) is empty", role, live.From, live.To)
	}
	cq, err := query.Compile(query.Model{ProfileTypeID: strings.TrimSpace(live.ProfileTypeID), LabelSelector: live.LabelSelector})
	if err != nil {
		return nil, "", userErrorf("%s: the live query: %v", role, err)
	}
	tr := source.TimeRange{From: time.UnixMilli(live.From).UTC(), To: time.UnixMilli(live.To).UTC()}
	p, err := d.src.MergeProfile(ctx, stacksOf(source.Selection{ProfileTypeID: cq.ProfileTypeID, LabelSelector: cq.Selector, Range: tr}))
	if err != nil {
		return nil, "", fmt.Errorf("%s: the live query %s of %s: %w", role, cq.Selector, cq.ProfileTypeID, err)
	}
	if len(p.Sample) == 0 || len(p.SampleType) == 0 {
		return nil, "", userErrorf("%s: the live query %s of %s found no profiles from %s to %s", role, cq.Selector, cq.ProfileTypeID,
			tr.From.Format(time.RFC3339), tr.To.Format(time.RFC3339))
	}
	if len(p.SampleType) > 1 {
		// a backend answers the asked sample type; keep only it if more came
		t, _ := model.ParseProfileType(cq.ProfileTypeID)
		p = onlySampleType(p, t.SampleType, t.SampleUnit)
	}
	return p, "live " + cq.Selector, nil
}

// profile merges the side's selection into one profile of one sample type.
func (s *adhocSide) profile(ctx context.Context) (*profile.Profile, error) {
	p, err := s.src.MergeProfile(ctx, stacksOf(s.req.selection()))
	if err != nil {
		return nil, userErrorf("%s: %v", s.role, err)
	}
	return p, nil
}

// tree is the side's flamegraph tree under its request.
func (d *Datasource) sideTree(ctx context.Context, s *adhocSide) (*flame.Tree, error) {
	t, _, err := d.overFiles(s.src).fullTreeAt(ctx, s.req, s.req.selection())
	if err != nil {
		return nil, userErrorf("%s: %v", s.role, err)
	}
	return t, nil
}

// alignedWith gives a copy of comparison the baseline's sample and period
// types, so that pprof's Normalize and Merge take the two together; their
// units must agree. A baseline without a period type gets an empty one:
// give a copy.
func alignedWith(baseline, comparison *profile.Profile) (*profile.Profile, error) {
	if len(baseline.SampleType) != 1 || len(comparison.SampleType) != 1 {
		return nil, userErrorf("a comparison needs one sample type a side, got %d and %d", len(baseline.SampleType), len(comparison.SampleType))
	}
	bu, cu := baseline.SampleType[0].Unit, comparison.SampleType[0].Unit
	if bu != cu {
		return nil, userErrorf("the baseline's values are in %s and the comparison's in %s: they cannot be compared", bu, cu)
	}
	c := comparison.Copy()
	c.SampleType = []*profile.ValueType{{Type: baseline.SampleType[0].Type, Unit: bu}}
	c.PeriodType = baseline.PeriodType
	if c.PeriodType == nil {
		c.PeriodType = &profile.ValueType{}
		baseline.PeriodType = &profile.ValueType{}
	}
	return c, nil
}

// normalizeSides scales the comparison to the baseline's total, as pprof's
// -normalize (profile.Normalize, whose rounding it keeps), and returns the
// comparison side over the scaled profile.
func normalizeSides(ctx context.Context, left, right *adhocSide) (*adhocSide, error) {
	lp, err := left.profile(ctx)
	if err != nil {
		return nil, err
	}
	rp, err := right.profile(ctx)
	if err != nil {
		return nil, err
	}
	c, err := alignedWith(lp.Copy(), rp)
	if err != nil {
		return nil, err
	}
	lp = lp.Copy()
	lp.SampleType, lp.PeriodType = c.SampleType, c.PeriodType
	if err := c.Normalize(lp); err != nil {
		return nil, userErrorf("normalize: %v", err)
	}
	// the scaled profile keeps the comparison's own types (and so its id)
	c.SampleType, c.PeriodType = rp.SampleType, rp.PeriodType
	f := &fileformat.File{Name: "normalized " + right.role, Format: fileformat.FormatPprof, Profile: c}
	return sideOfProfile(right.role, f, right.req), nil
}

// diffProfile is the comparison with the baseline subtracted, as pprof
// builds it: the baseline scaled by -1 and, for -diff_base, its samples
// labelled pprof::base=true (so that pprof's total is the baseline's).
func diffProfile(ctx context.Context, left, right *adhocSide, diffBase bool) (*profile.Profile, error) {
	lp, err := left.profile(ctx)
	if err != nil {
		return nil, err
	}
	rp, err := right.profile(ctx)
	if err != nil {
		return nil, err
	}
	base := lp.Copy()
	if rp, err = alignedWith(base, rp); err != nil {
		return nil, err
	}
	if diffBase {
		base.SetLabel("pprof::base", []string{"true"})
	}
	base.Scale(-1)
	p, err := profile.Merge([]*profile.Profile{rp, base})
	if err != nil {
		return nil, userErrorf("the baseline cannot be subtracted from the comparison: %v", err)
	}
	return p, nil
}

// onlySampleType is p reduced to its sample type of name and unit (its
// first when none matches).
func onlySampleType(p *profile.Profile, name, unit string) *profile.Profile {
	ti := 0
	for i, st := range p.SampleType {
		if st.Type == name && st.Unit == unit {
			ti = i
		}
	}
	out := p.Copy()
	out.SampleType = []*profile.ValueType{out.SampleType[ti]}
	for _, s := range out.Sample {
		s.Value = []int64{s.Value[ti]}
	}
	return out
}
