// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/grafana/grafana-plugin-sdk-go/backend"
	"github.com/grafana/grafana-plugin-sdk-go/live"
	"github.com/maypok86/otter/v2"
)

// streamPathPrefix starts the path of every live channel of the datasource:
// "live/<key>/<part>", where key names a query registered by QueryData and
// part one frame of its answer (see framePart).
const streamPathPrefix = "live/"

// streamKeyLen is the length of a stream key: 16 bytes of SHA-256 in
// unpadded base64url. A channel id may not exceed 160 characters, so the
// query itself (often longer) cannot be the path; its hash is.
const streamKeyLen = 22

// streamTTL is how long a registered query stays known without being
// queried or watched again.
const streamTTL = time.Hour

// streamSpec is what a live channel runs: one query as QueryData received it.
// Its time range is not part of it: a live query covers the last window.
type streamSpec struct {
	Kind          string          `json:"kind"`
	RefID         string          `json:"refId"`
	JSON          json.RawMessage `json:"json"`
	MaxDataPoints int64           `json:"maxDataPoints"`
	Interval      time.Duration   `json:"interval"`
}

// key is the spec's stream key, a hash of its canonical JSON.
func (s *streamSpec) key() string {
	b, err := json.Marshal(s)
	if err != nil {
		// A spec is strings, numbers and valid JSON: it always encodes.
		panic(fmt.Sprintf("encode a stream spec: %v", err))
	}
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:])[:streamKeyLen]
}

// dataQuery rebuilds the query for one run over tr.
func (s *streamSpec) dataQuery(tr backend.TimeRange) backend.DataQuery {
	return backend.DataQuery{
		RefID:         s.RefID,
		QueryType:     s.Kind,
		JSON:          s.JSON,
		MaxDataPoints: s.MaxDataPoints,
		Interval:      s.Interval,
		TimeRange:     tr,
	}
}

// streamRegistry remembers the live queries QueryData answered, by key, for
// SubscribeStream and RunStream; entries expire after streamTTL unused.
type streamRegistry struct {
	cache *otter.Cache[string, *streamSpec]
}

func newStreamRegistry() *streamRegistry {
	return &streamRegistry{cache: otter.Must(&otter.Options[string, *streamSpec]{
		ExpiryCalculator: otter.ExpiryAccessing[string, *streamSpec](streamTTL),
	})}
}

// close stops the cache's maintenance.
func (r *streamRegistry) close() { r.cache.StopAllGoroutines() }

// register stores spec and returns its key.
func (r *streamRegistry) register(spec *streamSpec) string {
	k := spec.key()
	r.cache.Set(k, spec)
	return k
}

// lookup returns the spec of a key and renews its lease.
func (r *streamRegistry) lookup(key string) (*streamSpec, bool) {
	return r.cache.GetIfPresent(key)
}

// channelID is the full Grafana Live channel of one part of a live query
// for the datasource uid, as frames carry it in meta.channel:
// "ds/<uid>/live/<key>/<part>".
func channelID(uid, key, part string) string {
	return live.Channel{Scope: live.ScopeDatasource, Namespace: uid, Path: streamPathPrefix + key + "/" + part}.String()
}

// parseStreamPath checks a channel path ("live/<key>/<part>") and returns its
// key and part, or an error saying what is wrong with it.
func parseStreamPath(path string) (key, part string, err error) {
	rest, ok := strings.CutPrefix(path, streamPathPrefix)
	if !ok {
		return "", "", fmt.Errorf("channel path %q does not start with %q", path, streamPathPrefix)
	}
	key, part, ok = strings.Cut(rest, "/")
	if !ok {
		return "", "", fmt.Errorf("channel path %q has no part: expected live/<key>/<part>", path)
	}
	if len(key) != streamKeyLen {
		return "", "", fmt.Errorf("channel path %q: the key must be %d characters, not %d", path, streamKeyLen, len(key))
	}
	if !streamKeyPattern.MatchString(key) {
		return "", "", fmt.Errorf("channel path %q: the key has characters outside base64url (A-Z, a-z, 0-9, - and _)", path)
	}
	if !partPattern.MatchString(part) {
		return "", "", fmt.Errorf("channel path %q: part %q is neither frame-<n> nor series-<hash>", path, part)
	}
	return key, part, nil
}

var streamKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
