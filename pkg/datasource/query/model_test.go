// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompile(t *testing.T) {
	tests := []struct {
		name string
		m    Model
		want string // canonical String of the compiled query
	}{
		{"structured fields", Model{ProfileTypeID: cpu, LabelSelector: `{service_name="api"}`, GroupBy: []string{"category"}}, cpu + `{service_name="api"} by (category)`},
		{"empty selector means {}", Model{ProfileTypeID: cpu}, cpu + `{}`},
		{"expr wins over the fields", Model{ProfileTypeID: cpu, LabelSelector: `{a="1"}`, GroupBy: []string{"x"}, Expr: `reverse({b="2"})`}, `reverse(` + cpu + `{b="2"})`},
		{"profile type in expr overrides the field", Model{ProfileTypeID: cpu, Expr: `memory:inuse_space:bytes:space:bytes{b="2"}`}, `memory:inuse_space:bytes:space:bytes{b="2"}`},
		{"blank expr falls back to the fields", Model{ProfileTypeID: cpu, Expr: "  \n"}, cpu + `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := Compile(tc.m)
			require.NoError(t, err)
			assert.Equal(t, tc.want, q.String())
		})
	}
}

func TestCompileByEqualsFramesFromLabel(t *testing.T) {
	fields, err := Compile(Model{ProfileTypeID: cpu, GroupBy: []string{"category", "route"}})
	require.NoError(t, err)
	expr, err := Compile(Model{Expr: `frames_from_label(` + cpu + `, "category", "route")`})
	require.NoError(t, err)
	l1, s1 := fields.VirtualLabels()
	l2, s2 := expr.VirtualLabels()
	assert.Equal(t, []string{"category", "route"}, l1)
	assert.Equal(t, l1, l2)
	assert.Equal(t, s1, s2)
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name string
		m    Model
		want string
	}{
		{"no profile type anywhere", Model{LabelSelector: `{a="b"}`}, `no profile type: choose one, or start the expression with name:sample_type:sample_unit:period_type:period_unit`},
		{"expr without profile type and no field", Model{Expr: `{a="b"}`}, `no profile type: choose one, or start the expression with name:sample_type:sample_unit:period_type:period_unit`},
		{"bad profile type field", Model{ProfileTypeID: "cpu"}, `profileTypeId: profile type "cpu" has 1 part; expected name:sample_type:sample_unit:period_type:period_unit`},
		{"bad profile type field under expr", Model{ProfileTypeID: "a:b", Expr: `{}`}, `profileTypeId: profile type "a:b" has 2 parts; expected name:sample_type:sample_unit:period_type:period_unit`},
		{"bad label selector", Model{ProfileTypeID: cpu, LabelSelector: `{a="b" c="d"}`}, `1:8: labelSelector: in label matchers: unexpected identifier "c" in label matching, expected "," or "}"`},
		{"selector without braces", Model{ProfileTypeID: cpu, LabelSelector: ` a="b"`}, `1:2: labelSelector: expected "{" to start the label matchers, found "a=\"b\""`},
		{"empty group-by label", Model{ProfileTypeID: cpu, GroupBy: []string{"a", " "}}, `groupBy: label name 2 is empty`},
		{"duplicate group-by label", Model{ProfileTypeID: cpu, GroupBy: []string{"a", "a"}}, `groupBy: label "a" is given twice`},
		{"expr error keeps its position", Model{ProfileTypeID: cpu, Expr: `{} by (a b)`}, `1:10: expected ")" after label list, found identifier "b"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.m)
			require.Error(t, err)
			require.IsType(t, &Error{}, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestModelJSON(t *testing.T) {
	var m Model
	require.NoError(t, json.Unmarshal([]byte(`{"refId":"A","queryType":"profile","profileTypeId":"`+cpu+`","labelSelector":"{a=\"b\"}","groupBy":["c"],"expr":""}`), &m))
	assert.Equal(t, Model{ProfileTypeID: cpu, LabelSelector: `{a="b"}`, GroupBy: []string{"c"}}, m)
}

func TestCompileGroupByLabelNames(t *testing.T) {
	tests := []struct {
		label   string
		wantErr string // "" when the name is valid
	}{
		{"category", ""},
		{"_private", ""},
		{"k6_test_run_id", ""},
		{"Route2", ""},
		{"  service_name ", ""}, // trimmed, as the editor may send it
		{"a b", `groupBy: label name 1, "a b", is not a valid label name: it must match [a-zA-Z_][a-zA-Z0-9_]*`},
		{"2xx", `groupBy: label name 1, "2xx", is not a valid label name: it must match [a-zA-Z_][a-zA-Z0-9_]*`},
		{"k6.test", `groupBy: label name 1, "k6.test", is not a valid label name: it must match [a-zA-Z_][a-zA-Z0-9_]*`},
		{"route-name", `groupBy: label name 1, "route-name", is not a valid label name: it must match [a-zA-Z_][a-zA-Z0-9_]*`},
		{"é", `groupBy: label name 1, "é", is not a valid label name: it must match [a-zA-Z_][a-zA-Z0-9_]*`},
		{`a"b`, `groupBy: label name 1, "a\"b", is not a valid label name: it must match [a-zA-Z_][a-zA-Z0-9_]*`},
	}
	for _, tc := range tests {
		t.Run(tc.label, func(t *testing.T) {
			q, err := Compile(Model{ProfileTypeID: cpu, GroupBy: []string{tc.label}})
			if tc.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, []string{strings.TrimSpace(tc.label)}, q.GroupBy)
				return
			}
			require.Error(t, err)
			require.IsType(t, &Error{}, err)
			assert.Equal(t, tc.wantErr, err.Error())
		})
	}
}

func TestCompileGroupByNamesTheBadPosition(t *testing.T) {
	_, err := Compile(Model{ProfileTypeID: cpu, GroupBy: []string{"route", "a b"}})
	require.Error(t, err)
	assert.Equal(t, `groupBy: label name 2, "a b", is not a valid label name: it must match [a-zA-Z_][a-zA-Z0-9_]*`, err.Error())
}
