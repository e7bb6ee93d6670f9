// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package vectors

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/emberscope/emberscope/pkg/api/noveltyv1"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/novelty"
	"github.com/emberscope/emberscope/pkg/store/storage"
	"github.com/emberscope/emberscope/pkg/store/tenant"
)

// MaxProfiles bounds the profiles one SelectVectors answers.
const MaxProfiles = 200_000

// Service answers vectorsapi's SelectVectors from a DB.
type Service struct {
	db     *storage.DB
	by     novelty.By
	parser parser.Parser
}

// NewService returns the service over db, whose records were written by
// a Hook with features by.
func NewService(db *storage.DB, by novelty.By) *Service {
	return &Service{db: db, by: by, parser: parser.NewParser(parser.Options{})}
}

// Handler returns the service's path and HTTP handler.
func (s *Service) Handler() (string, http.Handler) { return noveltyv1.NewHandler(s.SelectVectors) }

var errTooMany = errors.New("too many profiles")

// SelectVectors returns the vector of every profile of the selection, per
// series in time order, the kept features' names listed once.
func (s *Service) SelectVectors(ctx context.Context, r *noveltyv1.Request) (*noveltyv1.Response, error) {
	if _, err := model.SplitProfileType(r.ProfileTypeID); err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("invalid profile type ID: %w", err))
	}
	// The tenant of the request sees its own profiles only.
	ms := []*labels.Matcher{labels.MustNewMatcher(labels.MatchEqual, model.LabelNameProfileType, r.ProfileTypeID), tenant.Matcher(ctx)}
	if sel := strings.TrimSpace(r.LabelSelector); sel != "" && sel != "{}" {
		more, err := s.parser.ParseMetricSelector(sel)
		if err != nil {
			return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("invalid label selector %q: %w", sel, err))
		}
		ms = append(ms, more...)
	}
	const maxMs = int64(math.MaxInt64 / 1_000_000)
	if r.Start <= 0 || r.End < r.Start || r.End > maxMs-1 {
		return nil, connect.NewError(connect.CodeInvalidArgument,
			fmt.Errorf("invalid time range [%d, %d]: want start ≤ end in unix milliseconds", r.Start, r.End))
	}
	start, end := r.Start*1e6, r.End*1e6+1e6-1
	ids := s.db.Select(ms, start, end)
	snap := s.db.Snapshot()
	defer snap.Close()
	view := snap.View()

	res := &noveltyv1.Response{Names: []string{}, Series: []noveltyv1.Series{}}
	index := map[string]uint64{}
	stacks := map[uint64]string{}
	name := func(ref uint64) (string, error) {
		if s.by == novelty.ByStack {
			if ref >= uint64(view.Len()) {
				return "", fmt.Errorf("stack %d is not in the store", ref)
			}
			k, ok := stacks[ref]
			if !ok {
				k = strings.Join(view.Stack(uint32(ref)), ";")
				stacks[ref] = k
			}
			return k, nil
		}
		if ref >= uint64(view.Strings()) {
			return "", fmt.Errorf("string %d is not in the store", ref)
		}
		return view.String(uint32(ref)), nil
	}
	ref := func(e novelty.Entry) uint64 {
		i, ok := index[e.Key]
		if !ok {
			i = uint64(len(res.Names))
			index[e.Key] = i
			res.Names = append(res.Names, e.Key)
		}
		return i
	}
	bySeries := map[uint32]int{}
	n := 0
	err := snap.ScanVectors(ids, start, end, func(id uint32, t int64, rec []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if n++; n > MaxProfiles {
			return errTooMany
		}
		d, err := decodeRecord(rec, name)
		if err != nil {
			return fmt.Errorf("vector of series %d at %d: %w", id, t, err)
		}
		i, ok := bySeries[id]
		if !ok {
			i = len(res.Series)
			bySeries[id] = i
			var ls []noveltyv1.Label
			for _, l := range s.db.SeriesLabels(id) {
				ls = append(ls, noveltyv1.Label{Name: l.Name, Value: l.Value})
			}
			res.Series = append(res.Series, noveltyv1.Series{Labels: ls})
		}
		res.Series[i].Profiles = append(res.Series[i].Profiles, noveltyv1.Profile{
			Time: t, Total: d.Total, Sampled: d.Sampled, Vector: d.Vector.AppendBinary(nil, ref),
		})
		return nil
	})
	if errors.Is(err, errTooMany) {
		return nil, connect.NewError(connect.CodeResourceExhausted,
			fmt.Errorf("the selection holds more than %d profiles: narrow the time range or the selector", MaxProfiles))
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, connect.NewError(connect.CodeCanceled, ctx.Err())
		}
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	return res, nil
}
