package ingest

import (
	"strings"

	"github.com/emberscope/emberscope/pkg/pprofconv"
	"github.com/emberscope/emberscope/pkg/store/storage"
)

// ParseAppName parses the ingest name "service{k=v,...}" into the service
// name and its labels (dots in label names become underscores). The service
// name may hold letters, digits and - . / _; label names may not start with
// "__", which is reserved.
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
	for _, pair := range strings.Split(body, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		if !ok {
			return "", nil, errorf(ReasonBadName, "invalid name %q: label %q has no '='", s, strings.TrimSpace(pair))
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
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
