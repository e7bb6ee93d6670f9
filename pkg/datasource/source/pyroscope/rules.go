// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscope

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"connectrpc.com/connect"
	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

var _ source.RecordingRules = (*Client)(nil)

// ListRecordingRules lists the server's recording rules
// (settings.v1.RecordingRulesService, served by the embedded store and by
// a Pyroscope started with -tenant-settings.recording-rules.enabled).
func (c *Client) ListRecordingRules(ctx context.Context) ([]source.RecordingRule, error) {
	resp, err := c.rules.ListRecordingRules(ctx, connect.NewRequest(&settingsv1.ListRecordingRulesRequest{}))
	if err != nil {
		return nil, c.wrapRules("list recording rules", err)
	}
	out := make([]source.RecordingRule, 0, len(resp.Msg.Rules))
	for _, r := range resp.Msg.Rules {
		out = append(out, ruleOf(r))
	}
	return out, nil
}

// GetRecordingRule answers one rule by id.
func (c *Client) GetRecordingRule(ctx context.Context, id string) (source.RecordingRule, error) {
	resp, err := c.rules.GetRecordingRule(ctx, connect.NewRequest(&settingsv1.GetRecordingRuleRequest{Id: id}))
	if err != nil {
		return source.RecordingRule{}, c.wrapRules("get recording rule", err)
	}
	return ruleOf(resp.Msg.Rule), nil
}

// UpsertRecordingRule creates a rule (without an id) or updates one (with
// its id and stored generation), answering the rule as stored.
func (c *Client) UpsertRecordingRule(ctx context.Context, r source.RecordingRule) (source.RecordingRule, error) {
	req := &settingsv1.UpsertRecordingRuleRequest{
		Id:         r.ID,
		MetricName: r.MetricName,
		Matchers:   r.Matchers,
		GroupBy:    r.GroupBy,
		Generation: r.Generation,
	}
	for _, l := range r.ExternalLabels {
		req.ExternalLabels = append(req.ExternalLabels, &typesv1.LabelPair{Name: l.Name, Value: l.Value})
	}
	if r.FunctionName != "" {
		req.StacktraceFilter = &settingsv1.StacktraceFilter{FunctionName: &settingsv1.StacktraceFilterFunctionName{
			FunctionName: r.FunctionName,
			MetricType:   settingsv1.MetricType_TOTAL,
		}}
	}
	resp, err := c.rules.UpsertRecordingRule(ctx, connect.NewRequest(req))
	if err != nil {
		return source.RecordingRule{}, c.wrapRules("save recording rule", err)
	}
	return ruleOf(resp.Msg.Rule), nil
}

// DeleteRecordingRule removes a rule by id.
func (c *Client) DeleteRecordingRule(ctx context.Context, id string) error {
	_, err := c.rules.DeleteRecordingRule(ctx, connect.NewRequest(&settingsv1.DeleteRecordingRuleRequest{Id: id}))
	return c.wrapRules("delete recording rule", err)
}

func ruleOf(r *settingsv1.RecordingRule) source.RecordingRule {
	if r == nil {
		return source.RecordingRule{}
	}
	out := source.RecordingRule{
		ID:          r.Id,
		MetricName:  r.MetricName,
		ProfileType: r.ProfileType,
		Matchers:    nonNil(r.Matchers),
		GroupBy:     nonNil(r.GroupBy),
		Generation:  r.Generation,
		Provisioned: r.Provisioned,
	}
	out.ExternalLabels = []source.RuleLabel{}
	for _, l := range r.ExternalLabels {
		out.ExternalLabels = append(out.ExternalLabels, source.RuleLabel{Name: l.Name, Value: l.Value})
	}
	if f := r.StacktraceFilter.GetFunctionName(); f != nil {
		out.FunctionName = f.FunctionName
	}
	return out
}

// wrapRules turns a rules call's connect error into a *source.RuleRefusal
// carrying the server's own message (the texts Pyroscope's validation
// gives), or, for a server without the rules API (connect's unimplemented,
// which an HTTP 404 becomes), a plain statement that rules are not
// available there. Network failures and timeouts are wrapped as any call's.
func (c *Client) wrapRules(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	status := 0
	switch connect.CodeOf(err) {
	case connect.CodeInvalidArgument:
		status = http.StatusBadRequest
	case connect.CodeNotFound:
		status = http.StatusNotFound
	case connect.CodeAlreadyExists, connect.CodeFailedPrecondition:
		status = http.StatusConflict
	case connect.CodeUnimplemented:
		return &source.RuleRefusal{Status: http.StatusNotImplemented, Err: err, Msg: fmt.Sprintf(
			"recording rules are not available on the profile server at %s (%s answered %q): a Pyroscope serves them only when started with -tenant-settings.recording-rules.enabled=true",
			c.url, op, message(err))}
	}
	if status != 0 {
		return &source.RuleRefusal{Status: status, Msg: message(err), Err: err}
	}
	return c.wrap(op, err)
}
