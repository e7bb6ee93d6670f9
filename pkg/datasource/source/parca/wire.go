// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package parca

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// The JSON shapes of Parca's REST answers (grpc-gateway over parca's
// query.v1alpha1 protos). Only the fields the client reads are declared.

// int64s decodes a protobuf int64/uint64, which grpc-gateway writes as a
// JSON string ("3770000000"); a plain number is accepted too.
type int64s int64

// UnmarshalJSON implements json.Unmarshaler.
func (v *int64s) UnmarshalJSON(b []byte) error {
	b = bytes.Trim(b, `"`)
	if len(b) == 0 || string(b) == "null" {
		*v = 0
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		u, uerr := strconv.ParseUint(string(b), 10, 64)
		if uerr != nil {
			return fmt.Errorf("not an integer: %s", b)
		}
		n = int64(u)
	}
	*v = int64s(n)
	return nil
}

type typesResponse struct {
	Types []wireProfileType `json:"types"`
}

type wireProfileType struct {
	Name       string `json:"name"`
	SampleType string `json:"sampleType"`
	SampleUnit string `json:"sampleUnit"`
	PeriodType string `json:"periodType"`
	PeriodUnit string `json:"periodUnit"`
	Delta      bool   `json:"delta"`
}

type labelNamesResponse struct {
	LabelNames []string `json:"labelNames"`
}

type labelValuesResponse struct {
	LabelValues []string `json:"labelValues"`
}

type queryRangeResponse struct {
	Series []wireSeries `json:"series"`
}

type wireSeries struct {
	Labelset struct {
		Labels []wireLabel `json:"labels"`
	} `json:"labelset"`
	Samples []wireSample `json:"samples"`
}

type wireLabel struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type wireSample struct {
	Timestamp time.Time `json:"timestamp"`
	Value     int64s    `json:"value"`
}

// queryResponse is the answer of /api/profiles/query: exactly one report
// member is set, the one reportType asked for.
type queryResponse struct {
	Flamegraph *wireFlamegraph `json:"flamegraph"`
	// Pprof is a gzipped pprof, base64 in JSON.
	Pprof []byte `json:"pprof"`
	Total int64s `json:"total"`
}

// wireFlamegraph is a FLAMEGRAPH_TABLE report: a tree whose nodes refer to
// the location, function and string tables by index.
type wireFlamegraph struct {
	Root        wireNode       `json:"root"`
	Total       int64s         `json:"total"`
	Unit        string         `json:"unit"`
	StringTable []string       `json:"stringTable"`
	Locations   []wireLocation `json:"locations"`
	Function    []wireFunction `json:"function"`
}

type wireNode struct {
	Meta       *wireNodeMeta `json:"meta"`
	Cumulative int64s        `json:"cumulative"`
	Children   []wireNode    `json:"children"`
}

// wireNodeMeta points at the frame of a node: LocationIndex is 1-based into
// the location table (0 when the location is given inline), LineIndex is
// 0-based into that location's lines.
type wireNodeMeta struct {
	Location      *wireLocation `json:"location"`
	Function      *wireFunction `json:"function"`
	LocationIndex uint32        `json:"locationIndex"`
	LineIndex     uint32        `json:"lineIndex"`
}

type wireLocation struct {
	Address int64s     `json:"address"`
	Lines   []wireLine `json:"lines"`
}

// wireLine is one (possibly inlined) line of a location; FunctionIndex is
// 1-based into the function table.
type wireLine struct {
	FunctionIndex uint32        `json:"functionIndex"`
	Function      *wireFunction `json:"function"`
}

// wireFunction carries its name inline (Name) or as a 0-based index into the
// string table (NameStringIndex).
type wireFunction struct {
	Name            string `json:"name"`
	NameStringIndex uint32 `json:"nameStringIndex"`
}

// errorBody is the JSON body of a grpc-gateway error.
type errorBody struct {
	Code    *int   `json:"code"`
	Message string `json:"message"`
}

// decodeJSON decodes b into out, naming what was being decoded on failure.
func decodeJSON(what string, b []byte, out any) error {
	if err := json.Unmarshal(b, out); err != nil {
		return &model.Error{Kind: model.KindServer, Msg: fmt.Sprintf("parca: decoding the answer of %s: %v", what, err), Err: err}
	}
	return nil
}
