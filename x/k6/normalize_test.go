// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package k6

import "testing"

func TestNormalizeName(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"https://shop.local/cart/42?coupon=x#top", "/cart/:id"},
		{"http://127.0.0.1:3001/car?from=1&to=2", "/car"},
		{"https://user:pw@api.local:8443/v1/users/123/orders/987", "/v1/users/:id/orders/:id"},
		{"https://api.local", "/"},
		{"https://api.local?x=1", "/"},
		{"https://api.local/", "/"},
		{"grpc+tls://api.local/pkg.Service/Method", "/pkg.Service/Method"},
		{"//cdn.local/img/7", "/img/:id"},
		{"/items/6f1c0b9e-3a2d-4c5e-9f10-1234567890ab/reviews", "/items/:id/reviews"},
		{"/items/6F1C0B9E-3A2D-4C5E-9F10-1234567890AB", "/items/:id"},
		{"/objects/507f1f77bcf86cd799439011", "/objects/:id"},
		{"/commits/a1b2c3d4", "/commits/:id"},
		{"/tags/deadbeef", "/tags/deadbeef"}, // hex letters only: a word, kept
		{"/v1/abc123", "/v1/abc123"},         // too short for a hex id
		{"/files/report-2024.pdf", "/files/report-2024.pdf"},
		{"/users/${}", "/users/${}"}, // k6 template name
		{"/a//b/", "/a//b/"},
		{"////0", "/:id"},
		{"https://h//x/1", "/x/:id"},
		{"  /trim/1  ", "/trim/:id"},
		{"checkout step 2", "checkout step 2"},
		{"ftp is not a url", "ftp is not a url"},
		{"1http://x/1", "1http://x/1"}, // not a scheme
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizeName(tt.in); got != tt.want {
			t.Errorf("NormalizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTruncateKeepsUTF8(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abcdef", 3, "abc"},
		{"abc", 3, "abc"},
		{"abc", 0, "abc"},
		{"héllo", 2, "h"}, // 'é' is two bytes: not split
		{"héllo", 3, "hé"},
	}
	for _, tt := range tests {
		if got := truncate(tt.in, tt.n); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
