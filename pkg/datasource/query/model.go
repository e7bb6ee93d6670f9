// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package query

import (
	"fmt"
	"strings"

	"github.com/emberscope/emberscope/pkg/profile/model"
)

// Model is the structured query of the editor (docs/design.md §3): the fields a
// query carries besides the expression.
type Model struct {
	ProfileTypeID string   `json:"profileTypeId"`
	LabelSelector string   `json:"labelSelector"`
	GroupBy       []string `json:"groupBy"`
	// Expr, when set, wins over the fields above; only a profile type
	// missing from Expr is taken from ProfileTypeID.
	Expr string `json:"expr"`
}

// Compile turns the editor's query into a Query. Expr, when set, wins; a
// profile type written in Expr overrides ProfileTypeID. It is an error when
// neither gives a profile type. Errors in the structured fields name the
// field; their positions are inside that field's text. GroupBy names must be
// classic label names ([a-zA-Z_][a-zA-Z0-9_]*), as the editor's label picker
// offers them; the expression's by ("...") takes quoted names instead.
func Compile(m Model) (*Query, error) {
	if strings.TrimSpace(m.Expr) != "" {
		q, err := Parse(m.Expr)
		if err != nil {
			return nil, err
		}
		if q.ProfileTypeID == "" {
			id, err := fieldProfileType(m.ProfileTypeID)
			if err != nil {
				return nil, err
			}
			q.ProfileTypeID = id
		}
		return q, nil
	}
	id, err := fieldProfileType(m.ProfileTypeID)
	if err != nil {
		return nil, err
	}
	q := &Query{ProfileTypeID: id}
	ms, err := ParseSelector(m.LabelSelector)
	if err != nil {
		e := err.(*Error)
		return nil, &Error{Line: e.Line, Col: e.Col, Msg: "labelSelector: " + e.Msg}
	}
	q.Matchers = ms
	q.Selector = FormatSelector(ms)
	seen := map[string]bool{}
	for i, l := range m.GroupBy {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
			return nil, &Error{Msg: fmt.Sprintf("groupBy: label name %d is empty", i+1)}
		case !isPlainLabelName(l):
			return nil, &Error{Msg: fmt.Sprintf("groupBy: label name %d, %q, is not a valid label name: it must match [a-zA-Z_][a-zA-Z0-9_]*", i+1, l)}
		case seen[l]:
			return nil, &Error{Msg: fmt.Sprintf("groupBy: label %q is given twice", l)}
		}
		seen[l] = true
		q.GroupBy = append(q.GroupBy, l)
	}
	return q, nil
}

// fieldProfileType checks the profileTypeId field.
func fieldProfileType(id string) (string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", &Error{Msg: "no profile type: choose one, or start the expression with " + model.ProfileTypeShape}
	}
	if _, err := model.ParseProfileType(id); err != nil {
		return "", &Error{Msg: "profileTypeId: " + err.Error()}
	}
	return id, nil
}
