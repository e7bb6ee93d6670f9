// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/flame"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
)

// FuzzIngestParse feeds arbitrary bodies through what /ingest does before
// storing: pprof parsing (gzip or not), folded parsing and the conversion to
// series. It must never panic, and whatever converts must be consistent.
func FuzzIngestParse(f *testing.F) {
	data := fixtures.Profile(f, "categories.cpu.pb.gz")
	f.Add(data)
	raw, err := gunzipIfNeeded(data)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add(raw[:len(raw)/3])
	f.Add([]byte("main;work;hot 3\nmain;idle 0\n"))
	var small bytes.Buffer
	zw := gzip.NewWriter(&small)
	zw.Write([]byte("\x0a\x04\x08\x01\x10\x02"))
	zw.Close()
	f.Add(small.Bytes())
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 1<<20 {
			return
		}
		if p, _, err := ParsePprof(body); err == nil {
			checkConvert(t, p)
		}
		if p, _, err := ParseFolded(body, "samples", 100); err == nil {
			checkConvert(t, p)
		}
	})
}

func checkConvert(t *testing.T, p *profile.Profile) {
	t.Helper()
	res, err := pprofconv.Convert(p, pprofconv.Options{Naming: pprofconv.Naming{Fallback: "app"}})
	if err != nil {
		return
	}
	for _, s := range res.Series {
		var sum int64
		for _, smp := range s.Samples {
			if smp.Value == 0 {
				t.Fatalf("zero sample kept in %s", s.Type.String())
			}
			if int(smp.Stack) >= len(res.Stacks) {
				t.Fatalf("stack %d out of range", smp.Stack)
			}
			for _, f := range res.Stacks[smp.Stack] {
				if int(f) >= len(res.Frames) || int(res.Frames[f].Name) >= len(res.Names) {
					t.Fatalf("frame %d out of range", f)
				}
			}
			sum += smp.Value
		}
		if sum != s.Total {
			t.Fatalf("%s: samples sum to %d, total says %d", s.Type.String(), sum, s.Total)
		}
	}
	for i := range p.SampleType {
		if err := pprofconv.AddToTree(flame.New(), p, i); err != nil {
			t.Fatalf("AddToTree(%d): %v", i, err)
		}
	}
}

// FuzzParseAppName checks the ingest name parser never panics and that
// accepted names give valid label names.
func FuzzParseAppName(f *testing.F) {
	for _, s := range []string{"app", "app{env=prod,region=eu}", "a.b/c-d{otel.scope.name=x}", "{", "app{=}", "app{a=b", "app{__x=1}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, ls, err := ParseAppName(s)
		if err != nil {
			return
		}
		if name == "" {
			t.Fatalf("accepted %q with an empty service name", s)
		}
		for _, l := range ls {
			if _, err := pprofconv.SanitizeLabelName(l.Name); err != nil {
				t.Fatalf("accepted %q with invalid label name %q", s, l.Name)
			}
		}
	})
}
