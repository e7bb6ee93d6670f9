// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

package plugin

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/emberscope/emberscope/pkg/datasource/source"
)

// knownTypesWindow is the shortest range the profile-type check looks at:
// the query's own range, or the day up to its end when the query's range is
// shorter (Pyroscope's default max_query_length is one day).
const knownTypesWindow = 24 * time.Hour

// checkProfileType is called when a query found nothing: it tells an empty
// range (fine, Grafana shows "No data") from a profile type the server does
// not have while it has others (a mistake the user should see). A server with
// no profile types at all around the range is an empty range too, and so is
// a failure of the check's own call: no data is never an error.
func (d *Datasource) checkProfileType(ctx context.Context, r *request) error {
	id := r.Query.ProfileTypeID
	win := source.TimeRange{From: r.Range.From, To: r.Range.To}
	if day := r.Range.To.Add(-knownTypesWindow); day.Before(win.From) {
		win.From = day
	}
	types, err := d.src.ProfileTypes(ctx, win)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		d.logger.Debug("could not list the profile types to check the query's", "profileType", id, "error", err)
		return nil
	}
	ids := make([]string, 0, len(types))
	for _, t := range types {
		if t.String() == id {
			return nil
		}
		ids = append(ids, t.String())
	}
	if len(ids) == 0 {
		// Nothing at all around this range: an empty range, not a typo.
		// Grafana shows "No data", as for any other empty range.
		return nil
	}
	slices.Sort(ids)
	return userErrorf("unknown profile type %q: the profile server has %s", id, strings.Join(ids, ", "))
}
