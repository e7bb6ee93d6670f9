// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package recording_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/google/pprof/profile"
	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"

	"github.com/emberscope/emberscope/internal/fixtures"
	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/recording"
	"github.com/emberscope/emberscope/pkg/store/rules"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

type discard struct{}

func (discard) Record(string, []recording.Point) {}

// BenchmarkObserve is the cost recording rules add to one ingested CPU
// profile: ten rules on its service, half of them with a function filter.
func BenchmarkObserve(b *testing.B) {
	f, err := os.Open(fixtures.Path(b, "profiles/routes-1.cpu.pb.gz"))
	if err != nil {
		b.Fatal(err)
	}
	p, err := profile.Parse(f)
	_ = f.Close()
	if err != nil {
		b.Fatal(err)
	}
	var compiled fixedRules
	for i := range 10 {
		r := &settingsv1.RecordingRule{
			Id: "rule" + string(rune('a'+i)), MetricName: fmt.Sprintf("profiles_recorded_r%d", i),
			Matchers: []string{`{__profile_type__="process_cpu:cpu:nanoseconds:cpu:nanoseconds", service_name="shop"}`},
			GroupBy:  []string{"route"},
		}
		if i%2 == 1 {
			r.StacktraceFilter = &settingsv1.StacktraceFilter{FunctionName: &settingsv1.StacktraceFilterFunctionName{FunctionName: "runtime.mallocgc"}}
		}
		c, err := rules.Compile(r)
		if err != nil {
			b.Fatal(err)
		}
		compiled = append(compiled, c)
	}
	res, err := pprofconv.Convert(p, pprofconv.Options{})
	if err != nil {
		b.Fatal(err)
	}
	writes := make([]storage.Write, len(res.Series))
	for i := range res.Series {
		s := &res.Series[i]
		ls := append(storage.Labels{{Name: model.LabelNameProfileType, Value: s.Type.String()}, {Name: "service_name", Value: "shop"}}, s.Labels...)
		ls.Sort()
		writes[i] = storage.Write{Labels: ls, Result: res, Series: s}
	}
	rec := recording.New(recording.Options{Rules: compiled, Sink: discard{}})
	b.ReportAllocs()
	for b.Loop() {
		rec.Observe("anonymous", writes)
	}
}
