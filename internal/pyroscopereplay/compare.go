// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscopereplay

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	googlev1 "github.com/grafana/pyroscope/api/gen/proto/go/google/v1"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// NewRequest returns an empty request message of a connect method of
// querier.v1.QuerierService or push.v1.PusherService, nil for others.
func NewRequest(rpc string) proto.Message {
	switch rpc {
	case "Push":
		return &pushv1.PushRequest{}
	case "ProfileTypes":
		return &querierv1.ProfileTypesRequest{}
	case "LabelNames":
		return &typesv1.LabelNamesRequest{}
	case "LabelValues":
		return &typesv1.LabelValuesRequest{}
	case "Series":
		return &querierv1.SeriesRequest{}
	case "SelectMergeStacktraces":
		return &querierv1.SelectMergeStacktracesRequest{}
	case "SelectMergeProfile":
		return &querierv1.SelectMergeProfileRequest{}
	case "SelectMergeSpanProfile":
		return &querierv1.SelectMergeSpanProfileRequest{}
	case "SelectSeries":
		return &querierv1.SelectSeriesRequest{}
	case "SelectHeatmap":
		return &querierv1.SelectHeatmapRequest{}
	case "Diff":
		return &querierv1.DiffRequest{}
	case "GetProfileStats":
		return &typesv1.GetProfileStatsRequest{}
	}
	return nil
}

// NewResponse returns an empty response message of a connect method, nil
// for others.
func NewResponse(rpc string) proto.Message {
	switch rpc {
	case "Push":
		return &pushv1.PushResponse{}
	case "ProfileTypes":
		return &querierv1.ProfileTypesResponse{}
	case "LabelNames":
		return &typesv1.LabelNamesResponse{}
	case "LabelValues":
		return &typesv1.LabelValuesResponse{}
	case "Series":
		return &querierv1.SeriesResponse{}
	case "SelectMergeStacktraces":
		return &querierv1.SelectMergeStacktracesResponse{}
	case "SelectMergeProfile":
		return &googlev1.Profile{}
	case "SelectMergeSpanProfile":
		return &querierv1.SelectMergeSpanProfileResponse{}
	case "SelectSeries":
		return &querierv1.SelectSeriesResponse{}
	case "SelectHeatmap":
		return &querierv1.SelectHeatmapResponse{}
	case "Diff":
		return &querierv1.DiffResponse{}
	case "GetProfileStats":
		return &typesv1.GetProfileStatsResponse{}
	}
	return nil
}

// Decode decodes a connect JSON body into the response message of rpc.
func Decode(rpc string, body []byte) (proto.Message, error) {
	m := NewResponse(rpc)
	if m == nil {
		return nil, fmt.Errorf("pyroscopereplay: no message type for %q", rpc)
	}
	if err := protojson.Unmarshal(body, m); err != nil {
		return nil, fmt.Errorf("pyroscopereplay: decode %s answer: %w", rpc, err)
	}
	return m, nil
}

// Canonical is m in one JSON form (field names, int64 as strings, one
// field a line), so that two answers compare as text with a readable diff.
func Canonical(m proto.Message) string {
	b, err := protojson.MarshalOptions{Multiline: true, Indent: " "}.Marshal(m)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	// protojson adds random spaces to keep output unstable; normalise them.
	return strings.ReplaceAll(string(b), ":  ", ": ")
}

// FlameGraphNodes lists the nodes of a flamegraph answer level by level, in
// order, one line each: "level x total self name", x made absolute.
func FlameGraphNodes(fg *querierv1.FlameGraph) []string {
	if fg == nil {
		return nil
	}
	var out []string
	for d, l := range fg.Levels {
		var x int64
		v := l.Values
		for i := 0; i+3 < len(v); i += 4 {
			x += v[i]
			out = append(out, fmt.Sprintf("%d %d %d %d %s", d, x, v[i+1], v[i+2], name(fg.Names, v[i+3])))
			x += v[i+1]
		}
	}
	return out
}

// DiffNodes lists the nodes of a diff answer like FlameGraphNodes:
// "level xL totalL selfL xR totalR selfR name".
func DiffNodes(fg *querierv1.FlameGraphDiff) []string {
	if fg == nil {
		return nil
	}
	var out []string
	for d, l := range fg.Levels {
		var xl, xr int64
		v := l.Values
		for i := 0; i+6 < len(v); i += 7 {
			xl += v[i]
			xr += v[i+3]
			out = append(out, fmt.Sprintf("%d %d %d %d %d %d %d %s", d, xl, v[i+1], v[i+2], xr, v[i+4], v[i+5], name(fg.Names, v[i+6])))
			xl += v[i+1]
			xr += v[i+4]
		}
	}
	return out
}

func name(names []string, i int64) string {
	if i < 0 || int(i) >= len(names) {
		return fmt.Sprintf("<name %d>", i)
	}
	return names[i]
}

// TreeNodes decodes Pyroscope's binary tree (PROFILE_FORMAT_TREE): nodes in
// depth-first order, each the uvarint length of its name, the name, its self
// value (uvarint) and its number of children (uvarint); the first node is a
// nameless root. It lists them one a line: "depth self name".
func TreeNodes(b []byte) ([]string, error) {
	var out []string
	pending := []int{1} // children still to read per open depth
	depth := 0
	off := 0
	uv := func() (uint64, error) {
		v, n := binary.Uvarint(b[off:])
		if n <= 0 {
			return 0, fmt.Errorf("bad uvarint at byte %d", off)
		}
		off += n
		return v, nil
	}
	for off < len(b) {
		for len(pending) > 0 && pending[len(pending)-1] == 0 {
			pending = pending[:len(pending)-1]
			depth--
		}
		if len(pending) == 0 {
			return out, fmt.Errorf("bytes after the last node at %d", off)
		}
		pending[len(pending)-1]--
		n, err := uv()
		if err != nil {
			return out, err
		}
		if off+int(n) > len(b) {
			return out, fmt.Errorf("name of %d bytes at %d runs past the end", n, off)
		}
		nm := string(b[off : off+int(n)])
		off += int(n)
		self, err := uv()
		if err != nil {
			return out, err
		}
		kids, err := uv()
		if err != nil {
			return out, err
		}
		out = append(out, fmt.Sprintf("%d %d %s", depth, self, nm))
		pending = append(pending, int(kids))
		depth++
	}
	return out, nil
}

// ProfileStacks lists the samples of a pprof answer as "value\tleaf;...;root"
// of function names, summed per stack and sorted, with the profile's sample
// types, period and time first: what the profile says, without the ids and
// table order it is written with.
func ProfileStacks(p *googlev1.Profile) []string {
	str := func(i int64) string {
		if i < 0 || int(i) >= len(p.StringTable) {
			return fmt.Sprintf("<string %d>", i)
		}
		return p.StringTable[i]
	}
	fns := make(map[uint64]string, len(p.Function))
	for _, f := range p.Function {
		fns[f.Id] = str(f.Name)
	}
	locs := make(map[uint64][]string, len(p.Location))
	for _, l := range p.Location {
		var names []string
		for _, ln := range l.Line {
			names = append(names, fns[ln.FunctionId])
		}
		locs[l.Id] = names
	}
	var head []string
	for _, st := range p.SampleType {
		head = append(head, fmt.Sprintf("sample type %s/%s", str(st.Type), str(st.Unit)))
	}
	if p.PeriodType != nil {
		head = append(head, fmt.Sprintf("period type %s/%s", str(p.PeriodType.Type), str(p.PeriodType.Unit)))
	}
	head = append(head, fmt.Sprintf("period %d", p.Period), fmt.Sprintf("time %d duration %d", p.TimeNanos, p.DurationNanos),
		fmt.Sprintf("default sample type %s", str(p.DefaultSampleType)))
	sums := make(map[string][]int64)
	for _, s := range p.Sample {
		var frames []string
		for _, id := range s.LocationId {
			frames = append(frames, locs[id]...)
		}
		k := strings.Join(frames, ";")
		if sums[k] == nil {
			sums[k] = make([]int64, len(s.Value))
		}
		for i, v := range s.Value {
			if i < len(sums[k]) {
				sums[k][i] += v
			}
		}
	}
	var body []string
	for k, vs := range sums {
		body = append(body, fmt.Sprintf("%v\t%s", vs, k))
	}
	sort.Strings(body)
	return append(head, body...)
}

// ProfileLines is ProfileStacks with each frame written "function file:line
// (from the function's start line)",
// the lines of one location joined by " | " (inlined calls), and the
// profile's mappings (binary, build id, has functions) first: what a pprof
// answer says about where its code is, without ids and table order.
func ProfileLines(p *googlev1.Profile) []string {
	str := func(i int64) string {
		if i < 0 || int(i) >= len(p.StringTable) {
			return fmt.Sprintf("<string %d>", i)
		}
		return p.StringTable[i]
	}
	fns := make(map[uint64]*googlev1.Function, len(p.Function))
	for _, f := range p.Function {
		fns[f.Id] = f
	}
	var head []string
	for _, m := range p.Mapping {
		head = append(head, fmt.Sprintf("mapping %s build %s functions %v", str(m.Filename), str(m.BuildId), m.HasFunctions))
	}
	sort.Strings(head)
	locs := make(map[uint64][]string, len(p.Location))
	for _, l := range p.Location {
		var frames []string
		for _, ln := range l.Line {
			f := fns[ln.FunctionId]
			if f == nil {
				frames = append(frames, fmt.Sprintf("<function %d>", ln.FunctionId))
				continue
			}
			frames = append(frames, fmt.Sprintf("%s %s:%d (from %d)", str(f.Name), str(f.Filename), ln.Line, f.StartLine))
		}
		// The lines of one location (inlined calls) stay together.
		locs[l.Id] = []string{strings.Join(frames, " | ")}
	}
	sums := make(map[string]int64)
	for _, s := range p.Sample {
		var frames []string
		for _, id := range s.LocationId {
			frames = append(frames, locs[id]...)
		}
		if len(s.Value) > 0 {
			sums[strings.Join(frames, ";")] += s.Value[0]
		}
	}
	body := make([]string, 0, len(sums))
	for k, v := range sums {
		body = append(body, fmt.Sprintf("%d\t%s", v, k))
	}
	sort.Strings(body)
	return append(append(head, ProfileStacks(&googlev1.Profile{SampleType: p.SampleType, PeriodType: p.PeriodType, Period: p.Period,
		TimeNanos: p.TimeNanos, DurationNanos: p.DurationNanos, DefaultSampleType: p.DefaultSampleType, StringTable: p.StringTable})...), body...)
}
