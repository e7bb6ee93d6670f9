// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package demo

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/grafana/pyroscope-go"
)

// AppName is the application name the demo service is profiled under; the
// store files it as service_name="ride-share-app".
const AppName = "ride-share-app"

// profileTypes are what the demo sends: CPU and the four heap views.
var profileTypes = []pyroscope.ProfileType{
	pyroscope.ProfileCPU,
	pyroscope.ProfileAllocObjects,
	pyroscope.ProfileAllocSpace,
	pyroscope.ProfileInuseObjects,
	pyroscope.ProfileInuseSpace,
}

// startProfiler starts the Pyroscope Go SDK pushing this process's profiles
// to pushURL's /ingest every uploadRate.
func startProfiler(pushURL string, uploadRate time.Duration, tags map[string]string, log *slog.Logger) (*pyroscope.Profiler, error) {
	p, err := pyroscope.Start(pyroscope.Config{
		ApplicationName: AppName,
		ServerAddress:   pushURL,
		Tags:            tags,
		UploadRate:      uploadRate,
		ProfileTypes:    profileTypes,
		Logger:          sdkLogger{log},
		HTTPClient:      &http.Client{Timeout: 30 * time.Second},
	})
	if err != nil {
		return nil, fmt.Errorf("starting the Pyroscope SDK: %w", err)
	}
	return p, nil
}

// sdkLogger passes the SDK's errors to slog and drops its chatter.
type sdkLogger struct{ log *slog.Logger }

func (l sdkLogger) Infof(string, ...any)  {}
func (l sdkLogger) Debugf(string, ...any) {}
func (l sdkLogger) Errorf(format string, args ...any) {
	l.log.Error("profiler: " + fmt.Sprintf(format, args...))
}
