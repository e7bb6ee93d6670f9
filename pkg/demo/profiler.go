package demo

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
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
		HTTPClient:      sessionlessClient{&http.Client{Timeout: 30 * time.Second}},
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

// sessionlessClient removes the SDK's __session_id__ label from the ingest
// name before sending. Grafana Pyroscope accepts that label, but the embedded
// store (pkg/store/ingest) refuses every "__" label name with 400 "label name
// is reserved"; without this no profile of the SDK would land there. The
// label only tells profiler restarts apart, which the demo does not need.
type sessionlessClient struct{ next *http.Client }

func (c sessionlessClient) Do(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	if name := q.Get("name"); strings.Contains(name, sessionIDLabel) {
		q.Set("name", withoutSessionID(name))
		req = req.Clone(req.Context())
		req.URL.RawQuery = q.Encode()
	}
	return c.next.Do(req)
}

// sessionIDLabel is the label the SDK adds to every profile's name.
const sessionIDLabel = "__session_id__"

// withoutSessionID drops __session_id__ from an ingest name of the form
// "app{k=v,...}".
func withoutSessionID(name string) string {
	app, labels, ok := strings.Cut(name, "{")
	if !ok {
		return name
	}
	var kept []string
	for kv := range strings.SplitSeq(strings.TrimSuffix(labels, "}"), ",") {
		if k, _, _ := strings.Cut(kv, "="); kv == "" || strings.TrimSpace(k) == sessionIDLabel {
			continue
		}
		kept = append(kept, kv)
	}
	if len(kept) == 0 {
		return app
	}
	return app + "{" + strings.Join(kept, ",") + "}"
}
