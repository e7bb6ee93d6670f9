// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// The rules calls of a detecting source go to the detected client when it
// keeps rules (Pyroscope's API); Parca's answer source.ErrNoRecordingRules.

func (d *detectingSource) rules(ctx context.Context) (source.RecordingRules, error) {
	s, err := d.get(ctx)
	if err != nil {
		return nil, err
	}
	return source.RulesOf(s)
}

func (d *detectingSource) ListRecordingRules(ctx context.Context) ([]source.RecordingRule, error) {
	rr, err := d.rules(ctx)
	if err != nil {
		return nil, err
	}
	return rr.ListRecordingRules(ctx)
}

func (d *detectingSource) GetRecordingRule(ctx context.Context, id string) (source.RecordingRule, error) {
	rr, err := d.rules(ctx)
	if err != nil {
		return source.RecordingRule{}, err
	}
	return rr.GetRecordingRule(ctx, id)
}

func (d *detectingSource) UpsertRecordingRule(ctx context.Context, r source.RecordingRule) (source.RecordingRule, error) {
	rr, err := d.rules(ctx)
	if err != nil {
		return source.RecordingRule{}, err
	}
	return rr.UpsertRecordingRule(ctx, r)
}

func (d *detectingSource) DeleteRecordingRule(ctx context.Context, id string) error {
	rr, err := d.rules(ctx)
	if err != nil {
		return err
	}
	return rr.DeleteRecordingRule(ctx, id)
}
