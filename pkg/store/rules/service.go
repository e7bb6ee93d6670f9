// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package rules

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	settingsv1 "github.com/grafana/pyroscope/api/gen/proto/go/settings/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/settings/v1/settingsv1connect"

	"github.com/emberscope/emberscope/pkg/store/tenant"
)

// Service answers settings.v1.RecordingRulesService for the tenant of each
// request's context (see package tenant), as Pyroscope v2.2.1 does.
type Service struct {
	repo *Repo
}

var _ settingsv1connect.RecordingRulesServiceHandler = (*Service)(nil)

// NewService serves the rules of repo.
func NewService(repo *Repo) *Service { return &Service{repo: repo} }

// Handler returns the service's path prefix and connect handler.
func (s *Service) Handler(opts ...connect.HandlerOption) (string, http.Handler) {
	return settingsv1connect.NewRecordingRulesServiceHandler(s, opts...)
}

// ListRecordingRules answers the tenant's rules ("{}" when there are none).
func (s *Service) ListRecordingRules(ctx context.Context, _ *connect.Request[settingsv1.ListRecordingRulesRequest]) (*connect.Response[settingsv1.ListRecordingRulesResponse], error) {
	return connect.NewResponse(&settingsv1.ListRecordingRulesResponse{Rules: s.repo.List(tenant.From(ctx))}), nil
}

// GetRecordingRule answers one rule, or not_found.
func (s *Service) GetRecordingRule(ctx context.Context, req *connect.Request[settingsv1.GetRecordingRuleRequest]) (*connect.Response[settingsv1.GetRecordingRuleResponse], error) {
	id := strings.TrimSpace(req.Msg.Id)
	if id == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("id is required"))
	}
	rule, err := s.repo.Get(tenant.From(ctx), id)
	if errors.Is(err, ErrNotFound) {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no rule with id='%s' found", id))
	}
	if err != nil {
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	return connect.NewResponse(&settingsv1.GetRecordingRuleResponse{Rule: rule}), nil
}

// UpsertRecordingRule validates and stores a rule. Without an id the rule
// is new and named here; with one, Generation must be the stored rule's.
func (s *Service) UpsertRecordingRule(ctx context.Context, req *connect.Request[settingsv1.UpsertRecordingRuleRequest]) (*connect.Response[settingsv1.UpsertRecordingRuleResponse], error) {
	m := req.Msg
	if m.Id == "" {
		m.Id, m.Generation = newID(), 1
	}
	m.MetricName = strings.TrimSpace(m.MetricName)
	if err := validateUpsert(m); err != nil {
		return nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("invalid request: %v", err))
	}
	rule, err := s.repo.Upsert(tenant.From(ctx), &settingsv1.RecordingRuleStore{
		Id: m.Id, MetricName: m.MetricName, Matchers: m.Matchers, GroupBy: m.GroupBy,
		ExternalLabels: m.ExternalLabels, Generation: m.Generation, StacktraceFilter: m.StacktraceFilter,
	})
	switch {
	case errors.Is(err, ErrConflict):
		return nil, connect.NewError(connect.CodeAlreadyExists, ErrConflict)
	case errors.Is(err, ErrProvisioned):
		return nil, provisionedError(m.Id)
	case err != nil:
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	return connect.NewResponse(&settingsv1.UpsertRecordingRuleResponse{Rule: rule}), nil
}

// DeleteRecordingRule removes a rule, or answers not_found.
func (s *Service) DeleteRecordingRule(ctx context.Context, req *connect.Request[settingsv1.DeleteRecordingRuleRequest]) (*connect.Response[settingsv1.DeleteRecordingRuleResponse], error) {
	id := strings.TrimSpace(req.Msg.Id)
	if id == "" {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("invalid request: id is required"))
	}
	err := s.repo.Delete(tenant.From(ctx), id)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("no rule with ID='%s' found", id))
	case errors.Is(err, ErrProvisioned):
		return nil, provisionedError(id)
	case err != nil:
		return nil, connect.NewError(connect.CodeInternal, err)
	}
	return connect.NewResponse(&settingsv1.DeleteRecordingRuleResponse{}), nil
}

func provisionedError(id string) error {
	return connect.NewError(connect.CodeFailedPrecondition,
		fmt.Errorf("rule %q is provisioned from the store's -recording-rules file and cannot be changed through the API", id))
}
