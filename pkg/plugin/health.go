// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"

	"github.com/emberscope/emberscope/pkg/model"
	"github.com/emberscope/emberscope/pkg/source"
)

// healthLookback is how far back CheckHealth looks for profiles.
const healthLookback = 7 * 24 * time.Hour

// CheckHealth lists the server's profile types: it tells an unreachable
// server, refused credentials and a server without profiles apart.
func (d *Datasource) CheckHealth(ctx context.Context, _ *backend.CheckHealthRequest) (*backend.CheckHealthResult, error) {
	now := time.Now()
	types, err := d.src.ProfileTypes(ctx, source.TimeRange{From: now.Add(-healthLookback), To: now})
	if err != nil {
		var me *model.Error
		msg := err.Error()
		if !errors.As(err, &me) {
			msg = fmt.Sprintf("profile server at %s: %v", d.serverURL, err)
		}
		return &backend.CheckHealthResult{Status: backend.HealthStatusError, Message: msg}, nil
	}
	if len(types) == 0 {
		return &backend.CheckHealthResult{
			Status:  backend.HealthStatusError,
			Message: fmt.Sprintf("Connected to the profile server at %s, but it holds no profiles from the last 7 days: send profiles to it first", d.serverURL),
		}, nil
	}
	ids := make([]string, 0, len(types))
	for _, t := range types {
		ids = append(ids, t.String())
	}
	return &backend.CheckHealthResult{
		Status:  backend.HealthStatusOk,
		Message: fmt.Sprintf("Connected to the profile server at %s: %d profile types (%s)", d.serverURL, len(types), strings.Join(ids, ", ")),
	}, nil
}
