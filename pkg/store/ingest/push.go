// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"context"
	"errors"
	"fmt"

	"connectrpc.com/connect"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"

	"github.com/emberscope/emberscope/pkg/profile/model"
	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// Pusher serves push.v1.PusherService.
type Pusher struct {
	pushv1connect.UnimplementedPusherServiceHandler
	in *Ingester
}

// NewPusher returns the connect handler of Push on top of in.
func NewPusher(in *Ingester) *Pusher { return &Pusher{in: in} }

// Push stores every raw profile of every series, all or nothing.
func (p *Pusher) Push(ctx context.Context, req *connect.Request[pushv1.PushRequest]) (*connect.Response[pushv1.PushResponse], error) {
	if err := p.push(ctx, req.Msg); err != nil {
		reason := ReasonOf(err)
		p.in.m.IngestErrors.WithLabelValues(reason).Inc()
		if code, ok := pushCode(err); ok {
			return nil, connect.NewError(code, err)
		}
		switch reason {
		case ReasonStorage, "internal":
			p.in.log.Error("push failed", "err", err)
			return nil, connect.NewError(connect.CodeInternal, err)
		case ReasonTooLarge:
			return nil, connect.NewError(connect.CodeResourceExhausted, err)
		}
		return nil, connect.NewError(connect.CodeInvalidArgument, err)
	}
	return connect.NewResponse(&pushv1.PushResponse{}), nil
}

func (p *Pusher) push(ctx context.Context, msg *pushv1.PushRequest) error {
	var inputs []Input
	for si, series := range msg.GetSeries() {
		where := fmt.Sprintf("series %d", si)
		var labels storage.Labels
		naming := pprofconv.Naming{}
		seen := make(map[string]bool)
		for _, l := range series.GetLabels() {
			name := l.GetName()
			switch {
			case name == model.LabelNameProfileName:
				naming.Name = l.GetValue()
				continue
			case isReserved(name):
				continue
			}
			key, err := pprofconv.SanitizeLabelName(name)
			if err != nil {
				return errorf(ReasonBadLabels, "%s: %v", where, err)
			}
			if seen[key] {
				return errorf(ReasonBadLabels, "%s: label %q given twice", where, key)
			}
			seen[key] = true
			labels = append(labels, storage.Label{Name: key, Value: l.GetValue()})
		}
		if !seen[model.LabelNameServiceName] {
			labels = append(labels, storage.Label{Name: model.LabelNameServiceName, Value: "unknown_service"})
		}
		labels.Sort()
		naming.Fallback = labels.Get(model.LabelNameServiceName)
		if len(series.GetSamples()) == 0 {
			return errorf(ReasonBadRequest, "%s: no samples", where)
		}
		for i, s := range series.GetSamples() {
			raw := s.GetRawProfile()
			p.in.m.ReceivedCompressedBytes.WithLabelValues("push").Add(float64(len(raw)))
			p.in.m.ProfileSizeBytes.WithLabelValues("compressed").Observe(float64(len(raw)))
			prof, size, err := p.in.parsePprof(raw)
			if size > 0 {
				p.in.m.ReceivedUncompressedBytes.WithLabelValues("push").Add(float64(size))
				p.in.m.ProfileSizeBytes.WithLabelValues("uncompressed").Observe(float64(size))
			}
			if err != nil {
				var e *Error
				if errors.As(err, &e) {
					return &Error{Reason: e.Reason, Err: fmt.Errorf("%s sample %d: %w", where, i, e.Err)}
				}
				return err
			}
			inputs = append(inputs, Input{
				Profile: prof, Labels: labels, Naming: naming,
				Where: fmt.Sprintf("%s sample %d", where, i),
			})
		}
	}
	return p.in.StoreContext(ctx, inputs)
}
