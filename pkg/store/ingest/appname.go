// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package ingest

import (
	"strings"

	"github.com/emberscope/emberscope/pkg/profile/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// ParseAppName parses the ingest name "service{k=v,...}" into the service
// name and its labels. As in Pyroscope, a value is taken literally: it is
// everything between '=' and the next ',' or the closing '}' (spaces around
// it trimmed), so env="demo" has the value "demo" with its quotes and a
// value cannot hold a comma. Dots in label names become underscores. The
// service name may hold letters, digits and - . / _; label names may not
// start with "__", which is reserved, except SessionIDLabel, which is dropped.
func ParseAppName(s string) (string, storage.Labels, error) {
	name, rest, hasLabels := strings.Cut(s, "{")
	name = strings.TrimSpace(name)
	if name == "" {
		return "", nil, errorf(ReasonBadName, "invalid name %q: the service name is required (name=service{k=v,...})", s)
	}
	for i, r := range name {
		if !(r == '-' || r == '.' || r == '/' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "", nil, errorf(ReasonBadName, "invalid name %q: character %q at offset %d is not allowed in a service name", s, r, i)
		}
	}
	if !hasLabels {
		return name, nil, nil
	}
	body, ok := strings.CutSuffix(strings.TrimSpace(rest), "}")
	if !ok {
		return "", nil, errorf(ReasonBadName, "invalid name %q: missing closing '}'", s)
	}
	var ls storage.Labels
	seen := make(map[string]bool)
	for rest := body; strings.TrimSpace(rest) != ""; {
		k, after, ok := strings.Cut(rest, "=")
		if !ok {
			return "", nil, errorf(ReasonBadName, "invalid name %q: label %q has no '='", s, strings.TrimSpace(rest))
		}
		k = strings.TrimSpace(k)
		v, next, _ := strings.Cut(after, ",")
		v = strings.TrimSpace(v)
		rest = next
		if k == SessionIDLabel {
			// pyroscope-go tags every upload with a per-process session id;
			// kept as a label it would start a new series at every restart.
			continue
		}
		if strings.HasPrefix(k, "__") {
			return "", nil, errorf(ReasonBadName, "invalid name %q: label name %q is reserved", s, k)
		}
		key, err := pprofconv.SanitizeLabelName(k)
		if err != nil {
			return "", nil, errorf(ReasonBadName, "invalid name %q: %v", s, err)
		}
		if seen[key] {
			return "", nil, errorf(ReasonBadName, "invalid name %q: label %q given twice", s, key)
		}
		seen[key] = true
		ls = append(ls, storage.Label{Name: key, Value: v})
	}
	ls.Sort()
	return name, ls, nil
}

// SessionIDLabel is the label the pyroscope-go SDK adds to every upload's name.
const SessionIDLabel = "__session_id__"
