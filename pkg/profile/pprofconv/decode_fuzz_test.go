// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import (
	"bytes"
	"os"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/flame"
)

// FuzzDecodeMatchesPprof feeds the same bytes to the merge's pprof decoder
// and to google/pprof's parser (ParseUncompressed and CheckValid, the proto
// path of ParseData). Whatever google/pprof accepts, the decoder and the
// Merger must accept and read alike: the same sample types, and for every
// sample the same values and the same stack (each location's address and the
// function name of each of its lines). Input google/pprof refuses must not
// crash the decoder.
func FuzzDecodeMatchesPprof(f *testing.F) {
	seed := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10000000,
	}
	fa := &profile.Function{ID: 1, Name: "main.a"}
	fb := &profile.Function{ID: 2, Name: "slices.Sort[go.shape.int]"}
	la := &profile.Location{ID: 1, Address: 0x10, Line: []profile.Line{{Function: fa, Line: 3}}}
	lb := &profile.Location{ID: 2, Address: 0x20, Line: []profile.Line{{Function: fb}, {Function: fa}}}
	lc := &profile.Location{ID: 3, Address: 0x30}
	seed.Function = []*profile.Function{fa, fb}
	seed.Location = []*profile.Location{la, lb, lc}
	seed.Sample = []*profile.Sample{
		{Location: []*profile.Location{lb, la}, Value: []int64{1, 10}, Label: map[string][]string{"k": {"v"}}},
		{Location: []*profile.Location{lc, la}, Value: []int64{2, 20}},
	}
	var buf bytes.Buffer
	if err := seed.WriteUncompressed(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	// One real demo profile, not gzipped.
	real, err := os.ReadFile(fixtures.Glob(f, "profiles/demo-cpu/cpu-*.pb.gz")[0])
	if err != nil {
		f.Fatal(err)
	}
	p, err := profile.ParseData(real)
	if err != nil {
		f.Fatal(err)
	}
	buf.Reset()
	if err := p.WriteUncompressed(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())

	f.Fuzz(func(t *testing.T, data []byte) {
		var d decoded
		var gz bytes.Buffer
		ourErr := d.decode(data, &gz)
		want, err := profile.ParseUncompressed(data)
		if err == nil {
			err = want.CheckValid()
		}
		if err != nil || len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
			return // google/pprof refuses it (or it is gzip, which ParseUncompressed does not read)
		}
		if ourErr != nil {
			t.Fatalf("google/pprof reads the profile, the decoder fails: %v", ourErr)
		}
		requireSameProfile(t, &d, want)
		if len(d.sampleTypes) > 0 {
			if err := NewMerger(flame.New()).Add(data, 0); err != nil {
				t.Fatalf("google/pprof reads the profile, the merge fails: %v", err)
			}
		}
	})
}

func requireSameProfile(t *testing.T, d *decoded, want *profile.Profile) {
	t.Helper()
	str := func(i int64) string { return string(d.strings[i]) }
	if len(d.sampleTypes) != len(want.SampleType) {
		t.Fatalf("%d sample types, google/pprof reads %d", len(d.sampleTypes), len(want.SampleType))
	}
	for i, st := range d.sampleTypes {
		if str(st.typ) != want.SampleType[i].Type || str(st.unit) != want.SampleType[i].Unit {
			t.Fatalf("sample type %d is %s/%s, google/pprof reads %s/%s", i, str(st.typ), str(st.unit), want.SampleType[i].Type, want.SampleType[i].Unit)
		}
	}
	locs := map[uint64]decodedLocation{}
	for _, l := range d.locations {
		locs[l.id] = l
	}
	funcs := map[uint64]string{}
	for _, f := range d.functions {
		funcs[f.id] = str(f.name)
	}
	if len(d.samples) != len(want.Sample) {
		t.Fatalf("%d samples, google/pprof reads %d", len(d.samples), len(want.Sample))
	}
	for i, s := range d.samples {
		ws := want.Sample[i]
		values := d.sampleValues(s)
		if len(values) != len(ws.Value) {
			t.Fatalf("sample %d has %d values, google/pprof reads %d", i, len(values), len(ws.Value))
		}
		for j := range values {
			if values[j] != ws.Value[j] {
				t.Fatalf("sample %d value %d is %d, google/pprof reads %d", i, j, values[j], ws.Value[j])
			}
		}
		ids := d.sampleLocations(s)
		if len(ids) != len(ws.Location) {
			t.Fatalf("sample %d has %d locations, google/pprof reads %d", i, len(ids), len(ws.Location))
		}
		for j, id := range ids {
			loc, wl := locs[id], ws.Location[j]
			lines := d.locationLines(loc)
			if loc.id != wl.ID || loc.address != wl.Address || len(lines) != len(wl.Line) {
				t.Fatalf("sample %d location %d: id %d address %#x %d lines, google/pprof reads id %d address %#x %d lines",
					i, j, loc.id, loc.address, len(lines), wl.ID, wl.Address, len(wl.Line))
			}
			for k, fid := range lines {
				if funcs[fid] != wl.Line[k].Function.Name {
					t.Fatalf("sample %d location %d line %d: function %q, google/pprof reads %q", i, j, k, funcs[fid], wl.Line[k].Function.Name)
				}
			}
		}
	}
}
