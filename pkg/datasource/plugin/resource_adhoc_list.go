// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import "net/http"

// adhocList answers GET adhoc/list with the caller's open files, the
// latest first (Pyroscope's List).
func (d *Datasource) adhocList(r *http.Request) (any, error) {
	es := adhocFiles.List(adhocUser(r.Context()))
	out := make([]adhocMeta, len(es))
	for i, e := range es {
		out[i] = metaOf(e)
	}
	return map[string]any{"profiles": out}, nil
}
