// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import "strings"

// idPlaceholder replaces path segments that look like identifiers.
const idPlaceholder = ":id"

// minHexIDLength is the shortest all-hex segment treated as an id; shorter
// ones ("beef", "v1") are more likely words or versions.
const minHexIDLength = 8

// NormalizeName turns the value k6 puts in `k6.name` — usually the full
// request URL — into a route with low cardinality:
//
//   - the scheme, user info and host are removed
//     ("https://api.local:8080/cars" → "/cars"), an empty path becomes "/",
//     and leading slashes are folded into one;
//   - the query string and fragment are removed;
//   - path segments that are numbers, UUIDs or hex strings of at least 8
//     characters with a digit in them become ":id"
//     ("/users/42/orders/6f1c0b9e-…" → "/users/:id/orders/:id").
//
// Values that are not URLs or absolute paths (a k6 `name` tag set by hand
// such as "checkout step 2") are returned unchanged apart from surrounding
// spaces.
func NormalizeName(v string) string {
	v = strings.TrimSpace(v)
	path, ok := urlPath(v)
	if !ok {
		return v
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = strings.TrimSpace(path[:i])
	}
	// A path never starts with "//" (that would read as a host).
	path = "/" + strings.TrimLeft(path, "/")
	segments := strings.Split(path, "/")
	for i, s := range segments {
		if isID(s) {
			segments[i] = idPlaceholder
		}
	}
	return strings.Join(segments, "/")
}

// urlPath returns the path, query and fragment of an absolute URL or an
// absolute path, and false for anything else.
func urlPath(v string) (string, bool) {
	if strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") {
		return v, true
	}
	rest := v
	if scheme, after, found := strings.Cut(v, "://"); found && isScheme(scheme) {
		rest = after
	} else if strings.HasPrefix(v, "//") { // scheme-relative URL
		rest = v[2:]
	} else {
		return "", false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return rest[i:], true
	}
	return "", true
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter followed by
// letters, digits, "+", "-" or ".").
func isScheme(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// isID reports whether a path segment looks like an identifier rather than
// part of a route.
func isID(s string) bool {
	return isNumber(s) || isUUID(s) || isHexID(s)
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// isUUID matches the 8-4-4-4-12 hex form, any case.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// isHexID matches hashes, object ids and dash-less UUIDs: at least
// minHexIDLength hex characters, at least one of them a digit.
func isHexID(s string) bool {
	if len(s) < minHexIDLength {
		return false
	}
	digit := false
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
		digit = digit || isDigit(s[i])
	}
	return digit
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
