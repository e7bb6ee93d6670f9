// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package pprofconv

import "testing"

func TestSanitizeLabelName(t *testing.T) {
	if got, err := SanitizeLabelName("otel.scope.name"); err != nil || got != "otel_scope_name" {
		t.Fatalf("got %q, %v", got, err)
	}
	for _, bad := range []string{"", "process-description", "1abc", "a b"} {
		if _, err := SanitizeLabelName(bad); err == nil {
			t.Errorf("SanitizeLabelName(%q) accepted an invalid name", bad)
		}
	}
}
