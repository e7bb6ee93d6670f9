// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import (
	"context"
	"reflect"
	"runtime/pprof"
	"strings"
	"testing"
)

func TestLabelPairs(t *testing.T) {
	tests := []struct {
		name    string
		headers []string
		opts    []Option
		want    []string
	}{
		{
			name:    "the three k6 members, URL normalised",
			headers: []string{"k6.test_run_id=123,k6.scenario=checkout,k6.name=https%3A%2F%2Fshop.local%2Fcart%2F42%3Fx%3D1"},
			want:    []string{"k6_name", "/cart/:id", "k6_scenario", "checkout", "k6_test_run_id", "123"},
		},
		{
			name:    "unescaped URL value",
			headers: []string{"k6.name=https://shop.local/cart/42?x=1"},
			want:    []string{"k6_name", "/cart/:id"},
		},
		{
			name:    "other members, empty values and properties",
			headers: []string{"userId=alice, k6.scenario = browse ;prop=1, k6.test_run_id=, k6.extra.thing=x"},
			want:    []string{"k6_extra_thing", "x", "k6_scenario", "browse"},
		},
		{
			name:    "several header lines, last value wins",
			headers: []string{"k6.scenario=a", "k6.scenario=b,k6.test_run_id=7"},
			want:    []string{"k6_scenario", "b", "k6_test_run_id", "7"},
		},
		{
			name:    "malformed neighbours do not cost valid members",
			headers: []string{`k6.scenario=ok,k6.name=bad value,=nokey,k6.bad"key=1,garbage,k6.test_run_id=9`},
			want:    []string{"k6_scenario", "ok", "k6_test_run_id", "9"},
		},
		{
			name:    "bad percent-encoding is dropped",
			headers: []string{"k6.name=%zz,k6.scenario=s"},
			want:    []string{"k6_scenario", "s"},
		},
		{
			name:    "oversized header still yields its k6 members",
			headers: []string{"big=" + strings.Repeat("x", 9000) + ",k6.scenario=s"},
			want:    []string{"k6_scenario", "s"},
		},
		{
			name:    "only garbage",
			headers: []string{";;;,,,===", ""},
			want:    nil,
		},
		{
			name:    "bare prefix is not a label",
			headers: []string{"k6.=x"},
			want:    nil,
		},
		{
			name:    "dropped by baggage key and by label name",
			headers: []string{"k6.name=/a/1,k6.scenario=s,k6.test_run_id=1"},
			opts:    []Option{WithDropped("k6.name", "k6_test_run_id")},
			want:    []string{"k6_scenario", "s"},
		},
		{
			name:    "raw values",
			headers: []string{"k6.name=https://shop.local/cart/42?x=1"},
			opts:    []Option{WithRawValues()},
			want:    []string{"k6_name", "https://shop.local/cart/42?x=1"},
		},
		{
			name:    "max value length",
			headers: []string{"k6.scenario=abcdefgh,k6.name=/carts/list"},
			opts:    []Option{WithMaxValueLength(4)},
			want:    []string{"k6_name", "/car", "k6_scenario", "abcd"},
		},
		{
			name:    "default length limit",
			headers: []string{"k6.scenario=" + strings.Repeat("s", 300)},
			want:    []string{"k6_scenario", strings.Repeat("s", DefaultMaxValueLength)},
		},
		{
			name:    "no limit",
			headers: []string{"k6.scenario=" + strings.Repeat("s", 300)},
			opts:    []Option{WithMaxValueLength(0)},
			want:    []string{"k6_scenario", strings.Repeat("s", 300)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := newConfig(tt.opts).labelPairs(context.Background(), tt.headers)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("labelPairs(%q) = %q, want %q", tt.headers, got, tt.want)
			}
		})
	}
}

func TestLabelPairsKeepsContextLabels(t *testing.T) {
	ctx := pprof.WithLabels(context.Background(), pprof.Labels("k6_scenario", "set-by-app"))
	got := newConfig(nil).labelPairs(ctx, []string{"k6.scenario=browse,k6.test_run_id=1"})
	want := []string{"k6_test_run_id", "1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("labelPairs = %q, want %q (the context's k6_scenario must win)", got, want)
	}
}

func TestLabelPairsBoundsMemberCount(t *testing.T) {
	var members []string
	for i := range 200 {
		members = append(members, "k6.m"+strings.Repeat("x", i%5)+string(rune('a'+i%26))+"=v")
	}
	got := newConfig(nil).labelPairs(context.Background(), []string{strings.Join(members, ",")})
	if len(got)/2 > maxMembers {
		t.Errorf("got %d labels from 200 members, want at most %d", len(got)/2, maxMembers)
	}
}
