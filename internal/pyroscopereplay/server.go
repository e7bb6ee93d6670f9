// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pyroscopereplay

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/emberscope/emberscope/internal/fixtures"
)

// Handler answers connect unary calls (JSON or binary protobuf) with the
// recorded answer to the same call: the same method and an equal request
// message. A request recorded without a format and one asking for
// PROFILE_FORMAT_FLAMEGRAPH are the same request (Pyroscope answers both
// with a flamegraph). Anything else is answered 404 and listed by Unmatched.
type Handler struct {
	exchanges []Exchange

	mu        sync.Mutex
	unmatched []string
}

// NewHandler serves the connect exchanges among exs.
func NewHandler(exs []Exchange) *Handler {
	var calls []Exchange
	for _, ex := range exs {
		if ex.RPC() != "" {
			calls = append(calls, ex)
		}
	}
	return &Handler{exchanges: calls}
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	binary := mt == "application/proto"
	ex, err := h.find(r.Method, r.URL.Path, body, binary)
	if err != nil {
		h.mu.Lock()
		h.unmatched = append(h.unmatched, fmt.Sprintf("%s %s: %v", r.Method, r.URL.Path, err))
		h.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"code":"unimplemented","message":"no recorded exchange matches this call"}`)
		return
	}
	if ex.Status != http.StatusOK {
		// Connect sends unary errors as JSON whatever the codec.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(ex.Status)
		_, _ = w.Write(ex.Response)
		return
	}
	if !binary {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(ex.Response)
		return
	}
	m, err := Decode(ex.RPC(), ex.Response)
	if err == nil {
		var b []byte
		if b, err = proto.Marshal(m); err == nil {
			w.Header().Set("Content-Type", "application/proto")
			_, _ = w.Write(b)
			return
		}
	}
	http.Error(w, err.Error(), http.StatusInternalServerError)
}

// find returns the recorded exchange of the call, or why there is none.
func (h *Handler) find(method, path string, body []byte, binary bool) (*Exchange, error) {
	rpc := path[strings.LastIndex(path, "/")+1:]
	got := NewRequest(rpc)
	if got == nil {
		return nil, fmt.Errorf("not a recorded connect method")
	}
	var err error
	if binary {
		err = proto.Unmarshal(body, got)
	} else {
		err = protojson.Unmarshal(body, got)
	}
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	normalize(got)
	for i := range h.exchanges {
		ex := &h.exchanges[i]
		if ex.Method != method || ex.Path != path {
			continue
		}
		want := NewRequest(rpc)
		if err := protojson.Unmarshal(ex.Body, want); err != nil {
			return nil, fmt.Errorf("recording %s: %w", ex.Name, err)
		}
		normalize(want)
		if proto.Equal(want, got) {
			return ex, nil
		}
	}
	return nil, fmt.Errorf("no recording of this request: %s", protojson.Format(got))
}

// normalize makes requests that Pyroscope answers alike equal.
func normalize(m proto.Message) {
	if r, ok := m.(*querierv1.SelectMergeStacktracesRequest); ok && r.Format == querierv1.ProfileFormat_PROFILE_FORMAT_FLAMEGRAPH {
		r.Format = querierv1.ProfileFormat_PROFILE_FORMAT_UNSPECIFIED
	}
}

// Unmatched lists the calls that matched no recording, in arrival order.
func (h *Handler) Unmatched() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.unmatched)
}

// Server is a running replay of Pyroscope's querier answers.
type Server struct {
	*httptest.Server
	*Handler
	// Exchanges are all the recordings, in the order they were made.
	Exchanges []Exchange
}

// NewServer replays the recordings in internal/fixtures/pyroscope for the
// test on 127.0.0.1 and stops when the test ends. A missing recording fails
// the test.
func NewServer(t testing.TB) *Server {
	t.Helper()
	return NewServerOf(t, fixtures.Pyroscope())
}

// NewServerOf replays the recordings in dir (such as
// fixtures.PyroscopeLimits()) as NewServer does.
func NewServerOf(t testing.TB, dir string) *Server {
	t.Helper()
	exs, err := Load(dir)
	if err != nil {
		t.Fatalf("load the Pyroscope recordings of %s: %v", dir, err)
	}
	h := NewHandler(exs)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Server{Server: srv, Handler: h, Exchanges: exs}
}

// Exchange returns the recording named name ("15-merge-labeled-cpu"),
// failing the test when there is none.
func (s *Server) Exchange(t testing.TB, name string) *Exchange {
	t.Helper()
	for i := range s.Exchanges {
		if s.Exchanges[i].Name == name {
			return &s.Exchanges[i]
		}
	}
	t.Fatalf("no recording named %s", name)
	return nil
}
